// @variation MobiusN
// @id 1144
// @origin Fractorium 1.0
// @param MobiusNRe_A 1
// @param MobiusNIm_A 0
// @param MobiusNRe_B 0
// @param MobiusNIm_B 0
// @param MobiusNRe_C 0
// @param MobiusNIm_C 0
// @param MobiusNRe_D 1
// @param MobiusNIm_D 0
// @param MobiusN_Power 2
// @param MobiusN_Dist 1
// @random 1
// A Möbius map (A·u + B)/(C·u + D) between a power and a root: u has the
// point's angle times power and its radius to the 4·dist/power; the result
// q is taken back with radius |q|^(power/(4·dist)) and angle (arg q +
// 2πk)/⌊power⌋, k = ⌊power·v⌋ (v uniform; for a fractional power some
// roots repeat), times the weight. A power below 1 in size becomes 1, as
// Fractorium makes it. At the map's pole (C·u + D = 0) Fractorium divides
// 0 by 0 (NaN); this divides by float epsilon instead, which puts the pole
// at 0. dist 0 makes the second exponent infinite and the radius 0 or
// infinite, as in Fractorium.
FJ_VARIATION(MobiusN) {
    const float power = fabsf(p[8]) < 1.0f ? 1.0f : p[8];
    const float e = 4.0f * p[9] / power;
    const float r = fj::power(in.r, e), a = in.phi * power;
    const float x = r * fj::cosine(a), y = r * fj::sine(a);
    const float ur = p[0] * x - p[1] * y + p[2], ui = p[0] * y + p[1] * x + p[3];
    const float vr = p[4] * x - p[5] * y + p[6], vi = p[4] * y + p[5] * x + p[7];
    const float k = 1.0f / fj::zeps(vr * vr + vi * vi);
    const float qx = (ur * vr + ui * vi) * k, qy = (ui * vr - ur * vi) * k;
    const float rq = fj::power(sqrtf(qx * qx + qy * qy), 1.0f / e);
    const float n = floorf(power * fj::rand01(rng));
    const float aq = (fj::arctan2(qy, qx) + n * FJ_2PI) / floorf(power);
    ox += w * rq * fj::cosine(aq);
    oy += w * rq * fj::sine(aq);
}
