// @variation elliptic
// @id 62
FJ_VARIATION(elliptic) {
    const float t = in.r2 + 1.0f, x2 = 2.0f * in.x;
    const float xmax = 0.5f * (sqrtf(t + x2) + sqrtf(t - x2));
    const float a = in.x / xmax;
    const float b = 1.0f - a * a;
    const float ssx = xmax - 1.0f;
    const float k = w / FJ_PI_2;
    const float l = logf(xmax + (ssx < 0.0f ? 0.0f : sqrtf(ssx)));
    ox += k * atan2f(a, b < 0.0f ? 0.0f : sqrtf(b));
    oy += in.y > 0.0f ? k * l : -k * l;
}
