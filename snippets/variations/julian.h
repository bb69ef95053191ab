// @variation julian
// @id 32
// @origin flam3 3.1.1
// @param julian_power 1
// @param julian_dist 1
// @random 1
FJ_VARIATION(julian) {
    const float power = p[0], dist = p[1];
    const float rn = fabsf(power);
    const float cn = dist / power * 0.5f;
    const int t = fj::int_like_x86(rn * fj::rand01(rng));
    const float a = (in.phi + FJ_2PI * (float)t) / power;
    const float r = w * fj::power(in.r2, cn);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
