// @variation blocky
// @id 1161
// @origin Fractorium 1.0
// @param blocky_x 1
// @param blocky_y 1
// @param blocky_mp 4
// block (the plane onto the square [-1, 1]²) with the coordinates scaled by
// x and y and divided by 1 + (cos x + cos y)/mp, which bulges the square's
// sides; the weight enters twice, as in Fractorium. mp at 0 becomes float
// epsilon, as Fractorium keeps it non-zero, and a zero divisor float
// epsilon too. asin(x/xmax) is formed as block forms it.

#include "shared/coordinates.h"

FJ_VARIATION(blocky) {
    const float mp = p[2] != 0.0f ? p[2] : FJ_FLT_EPSILON;
    const float r = w * w / fj::zeps((fj::cosine(in.x) + fj::cosine(in.y)) / mp + 1.0f);
    float ch, sh, mu, nux, nuy;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nux);
    fj::elliptic_coords(in.y, in.x * in.x, ch, sh, mu, nuy);
    ox += p[0] * r * (1.0f - nux * (2.0f / FJ_PI));
    oy += p[1] * r * (1.0f - nuy * (2.0f / FJ_PI));
}
