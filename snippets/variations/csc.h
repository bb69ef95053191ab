// @variation csc
// @id 88
FJ_VARIATION(csc) {
    const float d = 2.0f / (coshf(2.0f * in.y) - cosf(2.0f * in.x));
    ox += w * d * sinf(in.x) * coshf(in.y);
    oy -= w * d * cosf(in.x) * sinhf(in.y);
}
