// @variation bipolar
// @id 55
// @origin flam3 3.1.1
// @param bipolar_shift 0
FJ_VARIATION(bipolar) {
    // r2 + 1 ± 2x written as squares: no cancellation next to the poles (±1, 0).
    const float y2 = in.y * in.y;
    const float xp = in.x + 1.0f, xm = in.x - 1.0f;
    float y = 0.5f * fj::arctan2(2.0f * in.y, in.r2 - 1.0f) - FJ_PI_2 * p[0];
    if (y > FJ_PI_2) y = -FJ_PI_2 + fj::modulo(y + FJ_PI_2, FJ_PI);
    else if (y < -FJ_PI_2) y = FJ_PI_2 - fj::modulo(FJ_PI_2 - y, FJ_PI);
    ox += w * (0.5f / FJ_PI) * logf((xp * xp + y2) / (xm * xm + y2));
    oy += w * (2.0f / FJ_PI) * y;
}
