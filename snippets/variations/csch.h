// @variation csch
// @id 94
// @origin flam3 3.1.1
// Denominators use cosh 2u ± cos 2v = 2(sinh² u + cos² v or sin² v), which
// does not cancel next to the origin, and the hyperbolic argument is clamped to
// ±20 where the result has reached its limit to float precision; flam3 needs
// neither in double, and past its double's overflow has a bad point
// (shared/flam3_overflow.h).

#include "shared/flam3_overflow.h"

FJ_VARIATION(csch) {
    const bool past = fabsf(in.x) >= FJ_FLAM3_COSH_OVERFLOW;  // flam3's bad point
    const float x = fminf(fmaxf(in.x, -20.0f), 20.0f);
    const float sy = fj::sine(in.y), cy = fj::cosine(in.y);
    float sx, cx;
    fj::sinh_cosh(x, sx, cx);
    const float k = w / (sy * sy + sx * sx);
    ox = past ? fj::quiet_nan() : ox + k * sx * cy;
    oy = past ? fj::quiet_nan() : oy - k * cx * sy;
}
