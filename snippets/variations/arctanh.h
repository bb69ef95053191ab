// @variation arctanh
// @id 1105
// @origin Fractorium 1.0
// The inverse hyperbolic tangent, (w/π)·log((1 + z)/(1 − z)) =
// (2w/π)·artanh(z), on its principal branch (cuts along the real axis
// beyond ±1). The real part, the log of the ratio of the distances to −1
// and 1, is taken in log1p form on the side of the nearer of the two (odd
// in x), which does not cancel near the origin or far out; the imaginary
// part is the angle of (1 + z)·(1 − z̄) = 1 − |z|² + 2iy. On the real axis
// the quotient's imaginary zero takes the sign of −x whatever the sign of
// y's, as std::complex's division (Smith's algorithm) leaves it in
// Fractorium: the cut beyond 1 goes to Im = −w, the one below −1 to +w.
// ±1 have no image (infinite).
FJ_VARIATION(arctanh) {
    const float ax = fabsf(in.x), d = ax - 1.0f;
    const float tau = copysignf(0.5f * log1pf(4.0f * ax / (d * d + in.y * in.y)), in.x);
    const float y = in.y != 0.0f ? in.y : copysignf(0.0f, -in.x);
    const float angle = fj::arctan2(2.0f * y, (1.0f - in.x) * (1.0f + in.x) - y * y);
    const float k = w * (1.0f / FJ_PI);
    ox += k * tau;
    oy += k * angle;
}
