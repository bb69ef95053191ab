// @variation elliptic
// @id 62
// @origin flam3 3.1.1
// xmax − 1 comes from fj::elliptic_xmax_minus_one (no cancellation).

#include "shared/coordinates.h"

FJ_VARIATION(elliptic) {
    float xmax;
    const float xm1 = fj::elliptic_xmax_minus_one(in, xmax);
    const float a = in.x / xmax;
    const float b = 1.0f - a * a;
    const float k = w / FJ_PI_2;
    const float s = sqrtf(xm1);
    const float l = log1pf(xm1 + s);
    ox += k * fj::arctan2(a, b < 0.0f ? 0.0f : sqrtf(b));
    oy += in.y > 0.0f ? k * l : -k * l;
}
