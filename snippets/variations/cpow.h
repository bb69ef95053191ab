// @variation cpow
// @id 59
// @origin flam3 3.1.1
// @param cpow_r 1
// @param cpow_i 0
// @param cpow_power 1
// @random 1
FJ_VARIATION(cpow) {
    const float power = p[2];
    const float lnr = 0.5f * logf(in.r2);
    const float va = FJ_2PI / power, vc = p[0] / power, vd = p[1] / power;
    const float a = vc * in.phi + vd * lnr + va * floorf(power * fj::rand01(rng));
    const float m = w * expf(vc * lnr - vd * in.phi);
    ox += m * fj::cosine(a);
    oy += m * fj::sine(a);
}
