// @variation gamma
// @id 1179
// @origin Fractorium 1.0
// Polar coordinates with the radius through the log-gamma function: x
// becomes log Γ(r) and y the angle φ, both times the weight, so circles
// about the origin become vertical segments, those of radius between 1 and
// 2 (where Γ < 1) on the other side of the y axis. log Γ is computed here
// (fj_gamma_log_gamma) rather than by the C library's lgammaf, which also
// stores Γ's sign in a global variable that the CPU backend's threads would
// share. At the origin, where log Γ is infinite, r is taken as float
// epsilon (log Γ ≈ 15.9).
//
// fj_gamma_log_gamma(x), log Γ(x) for x > 0: Γ(x) = Γ(x + n)/(x·(x + 1)···
// (x + n − 1)) lifts the argument to at least 3, where Stirling's series
// through its 1/(1188·z⁹) term is within 1.1e-8 of log Γ (the next term is
// 691/(360360·z¹¹)); in float the result is within 7e-7 of log Γ, relative
// to the larger of 1 and |log Γ|, for all x from 1e-13 to 1e34 (checked
// against the C library's lgamma in double).
FJ_HD FJ_INLINE float fj_gamma_log_gamma(float x) {
    float z = x, product = 1.0f;
    for (int i = 0; i < 3; ++i) {
        if (z < 3.0f) {
            product *= z;
            z += 1.0f;
        }
    }
    const float inv = 1.0f / z, inv2 = inv * inv;
    const float tail = 1.0f / 1260.0f - inv2 * (1.0f / 1680.0f - inv2 * (1.0f / 1188.0f));
    const float series = inv * (1.0f / 12.0f - inv2 * (1.0f / 360.0f - inv2 * tail));
    // 0.918938533 = log(2π)/2
    return (z - 0.5f) * logf(z) - z + 0.918938533f + series - logf(product);
}

FJ_VARIATION(gamma) {
    ox += w * fj_gamma_log_gamma(fj::zeps(in.r));
    oy += w * in.phi;
}
