// @variation edisc
// @id 61
// xmax − 1 is formed without cancellation (see elliptic).
FJ_VARIATION(edisc) {
    const float y2 = in.y * in.y;
    const float xp = in.x + 1.0f, xm = in.x - 1.0f;
    const float r1 = sqrtf(xp * xp + y2), r2 = sqrtf(xm * xm + y2);
    const float xmax = 0.5f * (r1 + r2);
    // xmax − 1 = D / (2 xmax + 2) with D = r1·r2 − (1 − r²) = 4y² / (r1·r2 + 1 − r²).
    const float q = 1.0f - in.r2;
    const float d = q > 0.0f ? 4.0f * y2 / (r1 * r2 + q) : r1 * r2 - q;
    const float xm1 = d / (2.0f * xmax + 2.0f);
    const float a1 = log1pf(xm1 + sqrtf(xm1));
    const float a2 = -acosf(fminf(fmaxf(in.x / xmax, -1.0f), 1.0f));
    const float k = w / 11.57034632f;
    float sv = sinf(a1);
    if (in.y > 0.0f) sv = -sv;
    ox += k * coshf(a2) * cosf(a1);
    oy += k * sinhf(a2) * sv;
}
