// @variation bTransform
// @id 1008
// @origin Fractorium 1.0
// @param bTransform_rotate 0
// @param bTransform_power 1
// @param bTransform_move 0
// @param bTransform_split 0
// @random 1
// Bipolar coordinates around the foci (±1, 0): tau, the log of the ratio of
// the distances to them, and sigma, the angle between the directions to them.
// tau is divided by `power` and shifted by `move` (and by ±`split` on either
// side of the y axis); sigma is rotated, divided by `power` and moved to one
// of `power` copies at random; then back to the plane. Fractorium keeps
// power at 1 or more, and so does this.
FJ_VARIATION(bTransform) {
    const float rotate = p[0], power = fmaxf(p[1], 1.0f), move = p[2], split = p[3];
    const float y2 = in.y * in.y;
    const float xp = in.x + 1.0f, xm = in.x - 1.0f;
    float tau = 0.5f * (logf(xp * xp + y2) - logf(xm * xm + y2)) / power + move;
    float sigma = FJ_PI - fj::arctan2(in.y, xp) - fj::arctan2(in.y, 1.0f - in.x) + rotate;
    sigma = sigma / power + (FJ_2PI / power) * floorf(fj::rand01(rng) * power);
    tau += in.x >= 0.0f ? split : -split;
    float sh, ch;
    fj::sinh_cosh(tau, sh, ch);
    float d = ch - fj::cosine(sigma);
    if (d == 0.0f) d = FJ_EPS;
    ox += w * sh / d;
    oy += w * fj::sine(sigma) / d;
}
