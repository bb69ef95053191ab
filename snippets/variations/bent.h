// @variation bent
// @id 14
FJ_VARIATION(bent) {
    const float nx = in.x < 0.0f ? 2.0f * in.x : in.x;
    const float ny = in.y < 0.0f ? 0.5f * in.y : in.y;
    ox += w * nx;
    oy += w * ny;
}
