// @variation waves2b
// @id 1093
// @origin Fractorium 1.0
// @param waves2b_freqx 2
// @param waves2b_freqy 2
// @param waves2b_pwx 1
// @param waves2b_pwy 1
// @param waves2b_scalex 1
// @param waves2b_scaleinfx 1
// @param waves2b_scaley 1
// @param waves2b_scaleinfy 1
// @param waves2b_unity 1
// @param waves2b_jacok 0.25
// waves2 with a choice of wave and an amplitude that fades away from the
// axis: x moves by A(x)·wave(y), y by A(y)·wave(x), where
// A(v) = scaleinf + (scale − scaleinf)·unity/(unity + v²) is scale at v = 0
// and scaleinf far out. The quotient is Fractorium's guarded one: where
// unity + v² falls below float's epsilon (negative values included) it is
// 1/(unity + v²) instead. pw, clamped to [-10, 10], picks the wave: in
// [0, 1e-4), the Jacobi elliptic sn(freq·v | 1 − jacok) (Fractorium hands
// jacok, clamped to [-1, 1], to its sn as the complementary parameter); in
// (-1e-4, 0), the Bessel function J1(freq·v); otherwise
// sin(freq·sign(v)·|v|^pw), with v = 0 read as float's epsilon, sign +.
// (1e-4 in double lies just above 1e-4f, hence the ≤.)

// sn(u | m), m = 1 − mc, mc in [-1, 1], by the arithmetic-geometric mean
// (Abramowitz & Stegun 16.4): descend to a modulus so small that sn is a
// sine, then climb back through the stored c/a ratios.
FJ_HD FJ_INLINE float fj_waves2b_sn(float u, float mc) {
    if (mc == 0.0f) return tanhf(u);
    float shrink = 1.0f;
    if (mc < 0.0f) {
        // m > 1: sn(u | m) = sn(u·√m | 1/m)/√m, and the complement of 1/m is −mc/m.
        const float m = 1.0f - mc;
        shrink = sqrtf(m);
        u *= shrink;
        mc = -mc / m;
    }
    float a = 1.0f, b = sqrtf(mc), ratio[12];
    int n = 0;
    while (n < 12) {
        const float c = 0.5f * (a - b), mean = 0.5f * (a + b);
        b = sqrtf(a * b);
        a = mean;
        ratio[n++] = c / a;
        if (c <= 3e-4f * a) break;  // what is left moves the angle by about (c/a)²/4
    }
    float phi = a * u;
    for (int i = 0; i < n; ++i) phi *= 2.0f;
    while (n > 0) {
        --n;
        phi = 0.5f * (phi + asinf(ratio[n] * fj::sine(phi)));
    }
    return fj::sine(phi) / shrink;
}

// J1(v). Below |v| = 12: J1(v) = (1/π)∫₀^π cos(τ − v·sin τ) dτ by the
// trapezoid rule on 16 panels (the ends cancel), whose error there is of the
// order of J31(12) ≈ 1e-10. Beyond: Hankel's expansion through its v^-7 term.
FJ_HD FJ_INLINE float fj_waves2b_j1(float v) {
    const float av = fabsf(v);
    if (av < 12.0f) {
        float sum = 0.0f;
        for (int k = 1; k < 16; ++k) {
            const float t = (float)k * (FJ_PI / 16.0f);
            sum += fj::cosine(t - v * fj::sine(t));
        }
        return sum * (1.0f / 16.0f);
    }
    const float r = 1.0f / av, r2 = r * r;
    const float pp = 1.0f + r2 * (0.1171875f + r2 * (-0.14419556f + r2 * 0.67659259f));
    const float qq = r * (0.375f + r2 * (-0.10253906f + r2 * (0.27757645f - r2 * 1.9935317f)));
    // cos and sin of v − 3π/4, times √2.
    const float s = fj::sine(av), c = fj::cosine(av);
    const float j = sqrtf(r * (1.0f / FJ_PI)) * (pp * (s - c) + qq * (s + c));
    return v < 0.0f ? -j : j;
}

FJ_HD FJ_INLINE float fj_waves2b_wave(float v, float freq, float pw, float mc) {
    if (pw >= 0.0f && pw <= 1e-4f) return fj_waves2b_sn(v * freq, mc);
    if (pw < 0.0f && pw >= -1e-4f) return fj_waves2b_j1(v * freq);
    const float mag = fj::power(fj::zeps(fabsf(v)), pw);
    return fj::sine((v < 0.0f ? -mag : mag) * freq);
}

FJ_HD FJ_INLINE float fj_waves2b_amplitude(float v, float scale, float scaleinf, float unity) {
    const float d = unity + v * v;
    const float q = d < FJ_FLT_EPSILON ? 1.0f / d : unity / d;
    return q * (scale - scaleinf) + scaleinf;
}

FJ_VARIATION(waves2b) {
    const float pwx = fminf(fmaxf(p[2], -10.0f), 10.0f), pwy = fminf(fmaxf(p[3], -10.0f), 10.0f);
    const float mc = fminf(fmaxf(p[9], -1.0f), 1.0f);
    ox += w * (in.x + fj_waves2b_amplitude(in.x, p[4], p[5], p[8]) * fj_waves2b_wave(in.y, p[0], pwx, mc));
    oy += w * (in.y + fj_waves2b_amplitude(in.y, p[6], p[7], p[8]) * fj_waves2b_wave(in.x, p[1], pwy, mc));
}
