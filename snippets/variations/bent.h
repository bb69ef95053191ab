// @variation bent
// @id 14
// @origin flam3 3.1.1
FJ_VARIATION(bent) {
    const float nx = in.x < 0.0f ? 2.0f * in.x : in.x;
    const float ny = in.y < 0.0f ? 0.5f * in.y : in.y;
    ox += w * nx;
    oy += w * ny;
}
