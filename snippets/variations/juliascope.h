// @variation juliascope
// @id 33
// @origin flam3 3.1.1
// @param juliascope_power 1
// @param juliascope_dist 1
// @random 1
FJ_VARIATION(juliascope) {
    const float power = p[0], dist = p[1];
    const float rn = fabsf(power);
    const float cn = dist / power * 0.5f;
    const int t = fj::int_like_x86(rn * fj::rand01(rng));
    // Odd branches mirror the angle: that is what makes the "scope".
    const float a = ((t & 1) == 0 ? FJ_2PI * (float)t + in.phi : FJ_2PI * (float)t - in.phi) / power;
    const float r = w * fj::power(in.r2, cn);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
