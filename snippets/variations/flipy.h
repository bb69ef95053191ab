// @variation flipy
// @id 1020
// @origin Fractorium 1.0
// linear, mirrored top to bottom where x > 0.
FJ_VARIATION(flipy) {
    ox += w * in.x;
    oy += in.x > 0.0f ? -(w * in.y) : w * in.y;
}
