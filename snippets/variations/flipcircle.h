// @variation flipcircle
// @id 1019
// @origin Fractorium 1.0
// linear, mirrored top to bottom inside the circle whose radius is the
// weight's magnitude.
FJ_VARIATION(flipcircle) {
    ox += w * in.x;
    oy += in.r2 > w * w ? w * in.y : -(w * in.y);
}
