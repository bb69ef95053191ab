// @variation arcsech2
// @id 1103
// @origin Fractorium 1.0
// arcsech at twice the scale, its two halves swapped over: with
// v = (2w/π)·arccosh(1/z) (principal branch, as in arcsech), a point whose
// v lies below the real axis moves up by 1, any other is mirrored in the
// imaginary axis and moves down by 1. The shifts of 1 are not weighted, as
// in Fractorium. arccosh is formed as in arcsech: Kahan's sum of two
// principal roots, which does not cancel; on the real axis 1/z's imaginary
// zero takes x's sign, as std::complex's division leaves it in Fractorium,
// and picks the side of the cut; the origin has no image (NaN).

#include "shared/complex.h"

FJ_VARIATION(arcsech2) {
    float re, im;
    fj::arcsech(in.x, in.y, re, im);
    const float k = w * (2.0f / FJ_PI);
    const float vx = k * re, vy = k * im;
    if (vy < 0.0f) {
        ox += vx;
        oy += vy + 1.0f;
    } else {
        ox -= vx;
        oy += vy - 1.0f;
    }
}
