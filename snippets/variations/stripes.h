// @variation stripes
// @id 76
// @origin flam3 3.1.1
// @param stripes_space 0
// @param stripes_warp 0
FJ_VARIATION(stripes) {
    const float rx = floorf(in.x + 0.5f);
    const float dx = in.x - rx;
    ox += w * (dx * (1.0f - p[0]) + rx);
    oy += w * (in.y + dx * dx * p[1]);
}
