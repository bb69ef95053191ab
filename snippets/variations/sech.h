// @variation sech
// @id 93
FJ_VARIATION(sech) {
    const float d = 2.0f / (cosf(2.0f * in.y) + coshf(2.0f * in.x));
    ox += w * d * cosf(in.y) * coshf(in.x);
    oy -= w * d * sinf(in.y) * sinhf(in.x);
}
