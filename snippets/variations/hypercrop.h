// @variation hypercrop
// @id 1134
// @origin Fractorium 1.0
// @param hypercrop_n 4
// @param hypercrop_rad 1
// @param hypercrop_zero 0
// Cuts n discs out of the plane, as the edges of a hyperbolic n-gon: the
// discs are centred at distance 1/cos(π/n) from the origin at the angles
// π/n + 2πk/n, each of radius rad·tan(π/n) (with rad 1 they meet the unit
// circle at right angles). A point in the disc of its angular sector goes
// to the disc's centre when zero exceeds 1.5, to 0 when zero exceeds 0.5,
// else radially to the disc's circle; every result times the weight. n = 0
// is replaced by float epsilon as Fractorium does (then one huge disc). A
// point at a disc's very centre has no direction and goes along +x.
FJ_VARIATION(hypercrop) {
    const float n = fj::zeps(p[0]);
    const float coeff = fj::zeps(n * 0.5f / FJ_PI), a0 = FJ_PI / n;
    const float len = 1.0f / fj::zeps(fj::cosine(a0)), d = p[1] * fj::sine(a0) * len;
    const float angle = floorf(in.phi * coeff) / coeff + a0;
    const float cx = fj::cosine(angle) * len, cy = fj::sine(angle) * len;
    const float dx = in.x - cx, dy = in.y - cy;
    const float dist = sqrtf(dx * dx + dy * dy);
    float x = in.x, y = in.y;
    if (dist < d) {
        if (p[2] > 1.5f) {
            x = cx;
            y = cy;
        } else if (p[2] > 0.5f) {
            x = 0.0f;
            y = 0.0f;
        } else {
            x = cx + (dist > 0.0f ? dx / dist : 1.0f) * d;
            y = cy + (dist > 0.0f ? dy / dist : 0.0f) * d;
        }
    }
    ox += w * x;
    oy += w * y;
}
