// @variation interference2
// @id 1227
// @origin Fractorium 1.0
// @param interference2_a1 1
// @param interference2_b1 1
// @param interference2_c1 0
// @param interference2_p1 1
// @param interference2_t1 0
// @param interference2_a2 1
// @param interference2_b2 1
// @param interference2_c2 0
// @param interference2_p2 1
// @param interference2_t2 0
// Two periodic waves added, each applied to x and to y alike: with
// s = sin(b·v + c), type t = 0 gives a·|s|^p, 1 a triangle wave
// 2a·(|asin s|/π)^p (from 0 to a at p = 1), 2 a square wave a·(1 or ε^p),
// ε float epsilon where s is negative. Times the weight. t1 and t2 are
// whole numbers held to [0, 2]. As Fractorium, the sine and triangle take
// |s| (the original did not, and gave NaN for negative s and fractional p).
// Where p is negative, a base (|s|, or the triangle's |asin s|/π) below
// float epsilon is taken at float epsilon: at 0 Fractorium's power is
// infinite.

FJ_HD FJ_INLINE float fj_interference2_wave(float a, float b, float c, float p, float t, float v) {
    const float s = fj::sine(b * v + c);
    if (t == 2.0f) return a * fj::power(s < 0.0f ? FJ_FLT_EPSILON : 1.0f, p);
    const float base = t == 1.0f ? fabsf(asinf(s)) * (1.0f / FJ_PI) : fabsf(s);
    const float guarded = p < 0.0f ? fmaxf(base, FJ_FLT_EPSILON) : base;
    return (t == 1.0f ? 2.0f * a : a) * fj::power(guarded, p);
}

FJ_VARIATION(interference2) {
    const float t1 = fminf(fmaxf(floorf(p[4] + 0.5f), 0.0f), 2.0f);
    const float t2 = fminf(fmaxf(floorf(p[9] + 0.5f), 0.0f), 2.0f);
    const float x = fj_interference2_wave(p[0], p[1], p[2], p[3], t1, in.x) +
                    fj_interference2_wave(p[5], p[6], p[7], p[8], t2, in.x);
    const float y = fj_interference2_wave(p[0], p[1], p[2], p[3], t1, in.y) +
                    fj_interference2_wave(p[5], p[6], p[7], p[8], t2, in.y);
    ox += w * x;
    oy += w * y;
}
