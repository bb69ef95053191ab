// @variation cpow2
// @id 1080
// @origin Fractorium 1.0
// @param cpow2_r 1
// @param cpow2_a 0
// @param cpow2_divisor 1
// @param cpow2_spread 1
// @random 3
// The complex power z^e, e = r·(cos(πa/2) + i·sin(πa/2))/divisor, on a
// random branch of log z: the angle is taken in [0, 2π) and moved up by
// one of ⌊spread⌋ whole turns, then, more often the further it got (where
// cos(angle/(2·spread)) falls below a uniform number in [-1, 1]), moved down
// by spread turns; the result is turned by 2π·k/divisor, k uniform in
// 0..32766 (k/divisor reduced modulo 1 exactly first). Fractorium draws
// any 32-bit branch when spread is below 1, which leaves float nothing to
// compute with; here that counts as one branch.
FJ_VARIATION(cpow2) {
    const float divisor = p[2], spread = fj::zeps(p[3]);
    const float half_turn = FJ_PI_2 * p[1];
    const float c = p[0] * fj::cosine(half_turn) / divisor, d = p[0] * fj::sine(half_turn) / divisor;
    const float branches = fmaxf(floorf(spread), 1.0f);
    float a = in.phi + FJ_2PI * (floorf(fj::rand01(rng) * branches) + (in.phi < 0.0f ? 1.0f : 0.0f));
    if (fj::cosine(a * (0.5f / spread)) < fj::rand11(rng)) a -= FJ_2PI * spread;
    const float lnr2 = logf(in.r2);
    const float r = w * expf(0.5f * c * lnr2 - d * a);
    const float k = (float)(int)(fj::rand01(rng) * 32767.0f);
    const float t = c * a + 0.5f * d * lnr2 + fj::modulo(k, divisor) * (FJ_2PI / divisor);
    ox += r * fj::cosine(t);
    oy += r * fj::sine(t);
}
