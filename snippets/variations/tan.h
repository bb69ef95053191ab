// @variation tan
// @id 86
FJ_VARIATION(tan) {
    const float d = 1.0f / (cosf(2.0f * in.x) + coshf(2.0f * in.y));
    ox += w * d * sinf(2.0f * in.x);
    oy += w * d * sinhf(2.0f * in.y);
}
