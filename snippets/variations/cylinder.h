// @variation cylinder
// @id 29
FJ_VARIATION(cylinder) {
    ox += w * sinf(in.x);
    oy += w * in.y;
}
