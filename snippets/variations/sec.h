// @variation sec
// @id 87
FJ_VARIATION(sec) {
    const float d = 2.0f / (cosf(2.0f * in.x) + coshf(2.0f * in.y));
    ox += w * d * cosf(in.x) * coshf(in.y);
    oy += w * d * sinf(in.x) * sinhf(in.y);
}
