// @variation juliaq
// @id 1026
// @origin Fractorium 1.0
// @param juliaq_power 3
// @param juliaq_divisor 2
// @random 1
// A generalised julia: radius r^(divisor/power), angle·divisor/power plus
// 2π·k/power, k uniform in 0..32766 as Fractorium draws it (for a whole
// power, a uniform choice of its roots). k/power is reduced modulo 1
// exactly first, which float cannot do after multiplying by 2π.
FJ_VARIATION(juliaq) {
    const float power = fj::zeps(p[0]);
    const float inv = p[1] / power;
    const float k = (float)(int)(fj::rand01(rng) * 32767.0f);
    const float a = in.phi * inv + fj::modulo(k, power) * (FJ_2PI / power);
    const float r = w * fj::power(in.r2, 0.5f * inv);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
