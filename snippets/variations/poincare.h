// @variation poincare
// @id 1072
// @origin Fractorium 1.0
// @param poincare_c1r 1
// @param poincare_c1a -1
// @param poincare_c2r 1
// @param poincare_c2a 1
// Two inversions: in the circle of radius c1r centred at distance
// sqrt(1 + c1r²) in the direction c1a (taken modulo π), then in the circle
// of c2r and c2a; each such circle is orthogonal to the unit circle, so the
// unit disc maps to itself. As in Fractorium, the weight does not scale the
// result (any weight other than 0 gives the same). The angles are wrapped
// into [-π, π] first.
FJ_HD FJ_INLINE void fj_poincare_invert(float& x, float& y, float radius, float angle) {
    const float a = fj::modulo(fj::wrap_cyclic(angle, -FJ_PI, FJ_PI), FJ_PI);
    const float d = sqrtf(1.0f + radius * radius);
    const float cx = d * fj::cosine(a), cy = d * fj::sine(a);
    const float dx = x - cx, dy = y - cy;
    const float s = radius * radius / fj::zeps(dx * dx + dy * dy);
    x = cx + s * dx;
    y = cy + s * dy;
}

FJ_VARIATION(poincare) {
    (void)w;
    float x = in.x, y = in.y;
    fj_poincare_invert(x, y, p[0], p[1]);
    fj_poincare_invert(x, y, p[2], p[3]);
    ox += x;
    oy += y;
}
