// @variation csch
// @id 94
FJ_VARIATION(csch) {
    const float d = 2.0f / (coshf(2.0f * in.x) - cosf(2.0f * in.y));
    ox += w * d * sinhf(in.x) * cosf(in.y);
    oy -= w * d * coshf(in.x) * sinf(in.y);
}
