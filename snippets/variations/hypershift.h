// @variation hypershift
// @id 1112
// @origin Fractorium 1.0
// @param hypershift_shift 0.01
// A hyperbolic translation of the Poincaré disc along the real axis, the
// Möbius map M(z) = (z + s)/(1 + s·z) with s = shift: Fractorium inverts
// z, adds s, inverts again with scale 1 − s², and adds s, which is
// w·(M(z) − s) + s = w·(1 − s²)·z/(1 + s·z) + s; the added s is not
// weighted. Computed here in that closed form, which is defined at the
// origin (→ s, where Fractorium's first inversion divides by its epsilon
// and lands at w·(1 − s²)/s + s). At the pole z = −1/s the zero divisor
// gets the epsilon and the point lands at s, as in Fractorium.
// (Fractorium's flam3-compatibility mode also discards the sum so far.)
FJ_VARIATION(hypershift) {
    const float s = p[0], k = w * (1.0f - s * s);
    const float dx = 1.0f + s * in.x, dy = s * in.y;
    const float q = k / fj::zeps(dx * dx + dy * dy);
    // z·conj(1 + s·z) = x + s·|z|² + i·y.
    ox += q * (in.x + s * in.r2) + s;
    oy += q * in.y;
}
