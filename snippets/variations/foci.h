// @variation foci
// @id 64
// @origin flam3 3.1.1
// flam3's w·(sinh x, sin y)/(cosh x − cos y), written with e = exp(−|x|) so
// that float neither overflows for large |x| nor cancels next to the origin.
// Where flam3's double exp overflows (x large) or its 1/(e^x/2) does (x
// large and negative), its 0·∞ gives a bad point (shared/flam3_overflow.h).

#include "shared/flam3_overflow.h"

FJ_VARIATION(foci) {
    const bool past = in.x >= FJ_FLAM3_EXP_OVERFLOW || in.x <= -FJ_FLAM3_COSH_OVERFLOW;  // flam3's bad point
    const float e = expf(-fabsf(in.x));
    const float m = -expm1f(-fabsf(in.x));  // 1 − e, exact near 0
    const float s = fj::sine(0.5f * in.y);
    const float k = w / (m * m + 4.0f * e * s * s);
    ox = past ? fj::quiet_nan() : ox + k * copysignf(m * (1.0f + e), in.x);
    oy += k * 2.0f * e * fj::sine(in.y);
}
