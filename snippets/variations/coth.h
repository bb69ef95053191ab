// @variation coth
// @id 95
FJ_VARIATION(coth) {
    const float d = 1.0f / (coshf(2.0f * in.x) - cosf(2.0f * in.y));
    ox += w * d * sinhf(2.0f * in.x);
    oy += w * d * sinf(2.0f * in.y);
}
