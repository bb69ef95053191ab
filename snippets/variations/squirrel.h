// @variation squirrel
// @id 1201
// @origin Fractorium 1.0
// @param squirrel_a 1
// @param squirrel_b 1
// (cos u·tan x, sin u·tan y), u = √(a·x² + b·y²) the point's distance in
// the quadratic form (a, b), times the weight: tangent's repeating
// branches, twisted by the elliptic angle u. As in Fractorium, a and b of
// 0 become float epsilon, a negative a·x² + b·y² counts as 0, and the
// tangents' arguments are held within ±8388607 (its float build's limit).
FJ_VARIATION(squirrel) {
    const float u = sqrtf(fmaxf(fj::zeps(p[0]) * in.x * in.x + fj::zeps(p[1]) * in.y * in.y, 0.0f));
    const float lim = 8388607.0f;
    ox += fj::cosine(u) * fj::tangent(fminf(fmaxf(in.x, -lim), lim)) * w;
    oy += fj::sine(u) * fj::tangent(fminf(fmaxf(in.y, -lim), lim)) * w;
}
