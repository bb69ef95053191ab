// @variation poincare2
// @id 1240
// @origin Fractorium 1.0
// @param poincare2_p 3
// @param poincare2_q 7
// The isometry of the Poincaré disc that takes the centre c of a {p, q}
// tiling's neighbouring tile to the origin, z ↦ (z − c)/(1 − c̄·z), times the
// weight. c lies at angle a = 2π/p, at distance 1/√s with
// s = 1 − (cos a − 1)/(cos a + cos(2π/q)) (distance 1 where s ≤ 0); where
// 1/p + 1/q ≥ 1/2 there is no hyperbolic tiling and c = 0, the identity.
// Fractorium's guard: a denominator of 0 becomes epsilon.
FJ_VARIATION(poincare2) {
    float cx = 0.0f, cy = 0.0f;
    if (1.0f / p[0] + 1.0f / p[1] < 0.5f) {
        const float a = FJ_2PI / p[0], ca = fj::cosine(a);
        const float s = 1.0f - (ca - 1.0f) / (ca + fj::cosine(FJ_2PI / p[1]));
        const float dist = s > 0.0f ? 1.0f / sqrtf(s) : 1.0f;
        cx = ca * dist;
        cy = fj::sine(a) * dist;
    }
    // (a + ib)/(c − id) with a + ib = z − c and c − id = 1 − c̄·z.
    const float a = in.x - cx, b = in.y - cy;
    const float c = 1.0f - cx * in.x - cy * in.y, d = cy * in.x - cx * in.y;
    const float scale = w / fj::zeps(c * c + d * d);
    ox += (a * c + b * d) * scale;
    oy += (b * c - a * d) * scale;
}
