// @variation polynomial
// @id 1230
// @origin Fractorium 1.0
// @param polynomial_powx 1
// @param polynomial_powy 1
// @param polynomial_lcx 0
// @param polynomial_lcy 0
// @param polynomial_scx 0
// @param polynomial_scy 0
// Each coordinate v through a power that keeps its sign, plus a line:
// sign(v)·(|w|·|v|)^pow + lc·v + sc, x and y with their own pow, lc and sc. As in Fractorium the
// weight enters only inside the power, so lc and sc are not scaled by it
// (weight 1 and pow 1 with lc 0 and sc 0 is linear). Where a coordinate is
// 0 its power term is 0 (the sign's 0), also for a negative pow, where
// Fractorium's 0·∞ is NaN.
FJ_HD FJ_INLINE float fj_polynomial_term(float v, float aw, float pw, float lc, float sc) {
    const float power = v != 0.0f ? copysignf(fj::power(aw * fabsf(v), pw), v) : 0.0f;
    return power + lc * v + sc;
}

FJ_VARIATION(polynomial) {
    const float aw = fabsf(w);
    ox += fj_polynomial_term(in.x, aw, p[0], p[2], p[4]);
    oy += fj_polynomial_term(in.y, aw, p[1], p[3], p[5]);
}
