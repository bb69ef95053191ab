// @variation murl2
// @id 1070
// @origin Fractorium 1.0
// @param murl2_c 0
// @param murl2_power 1
// murl's relative: z → w·(1 + c)^(2/power)·z / (1 + c·z^power)^(2/power),
// principal powers throughout; c is kept in [-1, 1], and at −1 the result
// is the origin.
FJ_VARIATION(murl2) {
    const float c = fminf(fmaxf(p[0], -1.0f), 1.0f), power = p[1];
    const float angle = in.phi * power;
    const float r = c * fj::power(in.r2, 0.5f * power);
    const float ure = r * fj::cosine(angle) + 1.0f, uim = r * fj::sine(angle);
    // (1 + c·z^power)^(2/power): modulus |u|^(2/power), angle arg(u)·2/power.
    const float m = fj::power(ure * ure + uim * uim, 1.0f / power);
    const float a = fj::arctan2(uim, ure) * (2.0f / power);
    const float re = m * fj::cosine(a), im = m * fj::sine(a);
    const float scale = c == -1.0f ? 0.0f : w * fj::power(c + 1.0f, 2.0f / power);
    const float s = scale / (m * m);
    ox += s * (in.x * re + in.y * im);
    oy += s * (in.y * re - in.x * im);
}
