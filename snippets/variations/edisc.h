// @variation edisc
// @id 61
FJ_VARIATION(edisc) {
    const float t = in.r2 + 1.0f, x2 = 2.0f * in.x;
    const float xmax = 0.5f * (sqrtf(t + x2) + sqrtf(t - x2));
    const float a1 = logf(xmax + sqrtf(xmax - 1.0f));
    const float a2 = -acosf(in.x / xmax);
    const float k = w / 11.57034632f;
    float sv = sinf(a1);
    if (in.y > 0.0f) sv = -sv;
    ox += k * coshf(a2) * cosf(a1);
    oy += k * sinhf(a2) * sv;
}
