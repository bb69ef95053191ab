// @variation bipolar
// @id 55
// @param bipolar_shift 0
FJ_VARIATION(bipolar) {
    const float t = in.r2 + 1.0f;
    const float x2 = 2.0f * in.x;
    float y = 0.5f * atan2f(2.0f * in.y, in.r2 - 1.0f) - FJ_PI_2 * p[0];
    if (y > FJ_PI_2) y = -FJ_PI_2 + fmodf(y + FJ_PI_2, FJ_PI);
    else if (y < -FJ_PI_2) y = FJ_PI_2 - fmodf(FJ_PI_2 - y, FJ_PI);
    ox += w * (0.5f / FJ_PI) * logf((t + x2) / (t - x2));
    oy += w * (2.0f / FJ_PI) * y;
}
