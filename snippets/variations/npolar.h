// @variation npolar
// @id 1030
// @origin Fractorium 1.0
// @param npolar_parity 0
// @param npolar_n 1
// @random 1
// An n-fold polar map (as Fractorium outside its flam3 compatibility mode).
// Odd parity (|parity| mod 2 ≠ 0): a julia of power n, radius r^(1/n), the
// angle divided by n after adding 2π times a root index drawn below |n|.
// Even parity: the same julia of the point's polar coordinates (angle and
// log radius, each times w/π), its radius scaled by parity, taken back as
// x = w·log(r')/π, y = w·atan2(cos, sin)/π of the result. n = 0 reads as 1.
FJ_VARIATION(npolar) {
    const float n = p[1] == 0.0f ? 1.0f : p[1];
    const float upper = fabsf(n);
    // Fractorium's integer draw below |n| (truncated); below 1 it draws any
    // 32-bit integer, an angle uniform over the circle.
    const fj::u32 bits = fj::next_u32(rng);
    const float turns = upper >= 1.0f ? (float)(fj::u32)(((fj::u64)bits * (fj::u64)upper) >> 32)
                                      : (float)(bits >> 8) * (1.0f / 16777216.0f) * n;
    const float cn = 1.0f / n / 2.0f;
    const float v = w / FJ_PI;
    if (fj::modulo(fabsf(p[0]), 2.0f) != 0.0f) {
        const float angle = (in.phi + FJ_2PI * turns) / n;
        const float r = w * fj::power(in.r2, cn);
        ox += fj::cosine(angle) * r;
        oy += fj::sine(angle) * r;
    } else {
        const float x = v * in.theta, y = 0.5f * v * logf(in.r2);
        const float angle = (fj::arctan2(y, x) + FJ_2PI * turns) / n;
        const float r = w * fj::power(x * x + y * y, cn) * p[0];
        const float s = fj::sine(angle) * r, c = fj::cosine(angle) * r;
        ox += 0.5f * v * 2.0f * logf(r);
        oy += v * fj::arctan2(c, s);
    }
}
