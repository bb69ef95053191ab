// @variation flipx
// @id 1021
// @origin Fractorium 1.0
// linear, mirrored left to right where y > 0.
FJ_VARIATION(flipx) {
    ox += in.y > 0.0f ? -(w * in.x) : w * in.x;
    oy += w * in.y;
}
