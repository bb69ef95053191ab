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

#include "shared/complex.h"

FJ_VARIATION(arcsech) {
    float re, im;
    fj::arcsech(in.x, in.y, re, im);
    const float k = w * (1.0f / FJ_PI);
    ox += k * re;
    oy += k * im;
}
