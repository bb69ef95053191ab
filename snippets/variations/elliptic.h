// @variation elliptic
// @id 62
// xmax − 1 is formed without cancellation: float cannot afford flam3's
// direct (r1 + r2)/2 − 1 near the origin and on the segment between the foci.
FJ_VARIATION(elliptic) {
    const float y2 = in.y * in.y;
    const float xp = in.x + 1.0f, xm = in.x - 1.0f;
    const float r1 = sqrtf(xp * xp + y2), r2 = sqrtf(xm * xm + y2);
    const float xmax = 0.5f * (r1 + r2);
    // xmax − 1 = D / (2 xmax + 2) with D = r1·r2 − (1 − r²) = 4y² / (r1·r2 + 1 − r²).
    const float q = 1.0f - in.r2;
    const float d = q > 0.0f ? 4.0f * y2 / (r1 * r2 + q) : r1 * r2 - q;
    const float xm1 = d / (2.0f * xmax + 2.0f);
    const float a = in.x / xmax;
    const float b = 1.0f - a * a;
    const float k = w / FJ_PI_2;
    const float s = sqrtf(xm1);
    const float l = log1pf(xm1 + s);
    ox += k * atan2f(a, b < 0.0f ? 0.0f : sqrtf(b));
    oy += in.y > 0.0f ? k * l : -k * l;
}
