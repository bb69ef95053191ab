// @variation wavesn
// @id 1078
// @origin Fractorium 1.0
// @param wavesn_freqx 2
// @param wavesn_freqy 2
// @param wavesn_scalex 1
// @param wavesn_scaley 1
// @param wavesn_incx 0
// @param wavesn_incy 0
// @param wavesn_power 1
// @random 1
// A julia of the given power (0 reads as 2; one of ⌊|power|⌋ roots at
// random, radius weight·r^(1/power)), then waves across it: x moves by
// half of (scalex + |x|·incx)·sin(freqx·y), y by the same with y's
// parameters and sin(freqy·x). As in Fractorium the weight scales the
// julia's radius and the result both. Below |power| 1 Fractorium draws any
// 32-bit number for the root; a 24-bit one here, which gives the same turns.
FJ_VARIATION(wavesn) {
    const float power = p[6] == 0.0f ? 2.0f : p[6];
    const float roots = truncf(fabsf(power));
    const float k = roots >= 1.0f ? floorf(fj::rand01(rng) * roots) : (float)(fj::next_u32(rng) >> 8);
    // (angle + 2π·k)/power, k/power reduced modulo 1 exactly first.
    const float angle = in.phi / power + fj::modulo(k, power) * (FJ_2PI / power);
    const float r = w * fj::power(in.r2, 0.5f / power);
    const float xn = r * fj::cosine(angle), yn = r * fj::sine(angle);
    const float sy = fj::sine(p[0] * yn), sx = fj::sine(p[1] * xn);
    ox += w * (xn + 0.5f * (p[2] * sy + fabsf(xn) * p[4] * sy));
    oy += w * (yn + 0.5f * (p[3] * sx + fabsf(yn) * p[5] * sx));
}
