// @variation arcsech
// @id 1102
// @origin Fractorium 1.0
// The inverse hyperbolic secant, (w/π)·arcsech(z) = (w/π)·arccosh(u),
// u = 1/z, on arccosh's principal branch (Fractorium writes it
// log(u + √(u + 1)·√(u − 1)) with principal roots). Formed here as
// 2·log(√((u + 1)/2) + √((u − 1)/2)): both roots lie in the right half
// plane with imaginary parts of one sign, so their sum never cancels. 1/z
// goes through |z| so that tiny points do not overflow; the origin has no
// image (NaN). On the real axis, whose image beyond 1 and below 0 lies on
// the cut, u's imaginary zero takes the sign of x whatever the sign of
// y's, as std::complex's division (Smith's algorithm) leaves it in
// Fractorium: that zero picks the side of the cut.
FJ_VARIATION(arcsech) {
    const float inv = 1.0f / hypotf(in.x, in.y);
    const float ux = in.x * inv * inv, uy = in.y != 0.0f ? -in.y * inv * inv : copysignf(0.0f, in.x);
    float ar, ai, br, bi;
    fj::complex_sqrt(0.5f * (ux + 1.0f), 0.5f * uy, ar, ai);
    fj::complex_sqrt(0.5f * (ux - 1.0f), 0.5f * uy, br, bi);
    const float sr = ar + br, si = ai + bi;
    const float k = w * (1.0f / FJ_PI);
    ox += k * logf(sr * sr + si * si);
    oy += 2.0f * k * fj::arctan2(si, sr);
}
