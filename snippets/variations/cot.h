// @variation cot
// @id 89
FJ_VARIATION(cot) {
    const float d = 1.0f / (coshf(2.0f * in.y) - cosf(2.0f * in.x));
    ox += w * d * sinf(2.0f * in.x);
    oy -= w * d * sinhf(2.0f * in.y);
}
