// @variation cpow3
// @id 1152
// @origin Fractorium 1.0
// @param cpow3_r 1
// @param cpow3_d 1
// @param cpow3_divisor 1
// @param cpow3_spread 1
// @random 4
// The complex power z^e on a random branch of log z, e = c + i·d' with
// c = r·cos²β/divisor, d' = r·cos β·sin β/divisor, β = atan2(L·r, 2π) and
// L = log d, or −log(−d) for negative d (so d sets the spiral's pitch).
// The angle is taken in [0, 2π) and moved down a turn where cos(angle/2)
// falls below a uniform number in [-1, 1], then moved by ±round(log(u)·s)
// whole turns, u uniform and s = −0.095·spread/d' (the larger spread, the
// more branches); the result is also turned by 2π·k/divisor, k uniform in
// 0..32766 (k/divisor reduced modulo 1 exactly first). d and divisor at 0
// become float epsilon, as Fractorium keeps them non-zero. Fractorium's
// log(u) is −∞ at u = 0, which with d' = 0 gives NaN: u is drawn in (0, 1]
// here instead. At the origin log|z|² is −∞ and Fractorium's result NaN;
// here |z|² is kept at least float epsilon.
FJ_VARIATION(cpow3) {
    const float d = p[1] != 0.0f ? p[1] : FJ_FLT_EPSILON;
    const float divisor = p[2] != 0.0f ? p[2] : FJ_FLT_EPSILON;
    const float beta = fj::arctan2((d < 0.0f ? -logf(-d) : logf(d)) * p[0], FJ_2PI);
    const float cb = fj::cosine(beta), sb = fj::sine(beta);
    const float c = cb * p[0] * cb / divisor, dd = cb * p[0] * sb / divisor;
    const float coeff = dd == 0.0f ? 0.0f : -0.095f * p[3] / dd;
    float a = in.phi;
    if (a < 0.0f) a += FJ_2PI;
    if (fj::cosine(0.5f * a) < fj::rand11(rng)) a -= FJ_2PI;
    const float turn = fj::rand_bit(rng) ? FJ_2PI : -FJ_2PI;
    a += turn * roundf(logf(1.0f - fj::rand01(rng)) * coeff);
    const float lnr2 = logf(fmaxf(in.r2, FJ_FLT_EPSILON));
    const float r = w * expf(0.5f * c * lnr2 - dd * a);
    const float k = (float)(int)(fj::rand01(rng) * 32767.0f);
    const float t = c * a + 0.5f * dd * lnr2 + fj::modulo(k, divisor) * (FJ_2PI / divisor);
    ox += r * fj::cosine(t);
    oy += r * fj::sine(t);
}
