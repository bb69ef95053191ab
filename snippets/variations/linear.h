// @variation linear
// @id 0
FJ_VARIATION(linear) {
    ox += w * in.x;
    oy += w * in.y;
}
