// @variation edisc
// @id 61
// @origin flam3 3.1.1
// xmax − 1 comes from fj::elliptic_xmax_minus_one (no cancellation).

#include "shared/coordinates.h"

FJ_VARIATION(edisc) {
    float xmax;
    const float xm1 = fj::elliptic_xmax_minus_one(in, xmax);
    const float a1 = log1pf(xm1 + sqrtf(xm1));
    const float a2 = -acosf(fminf(fmaxf(in.x / xmax, -1.0f), 1.0f));
    const float k = w / 11.57034632f;
    float sv = fj::sine(a1);
    if (in.y > 0.0f) sv = -sv;
    float sh, ch;
    fj::sinh_cosh(a2, sh, ch);
    ox += k * ch * fj::cosine(a1);
    oy += k * sh * sv;
}
