// @variation block
// @id 1160
// @origin Fractorium 1.0
// The plane onto the square [-1, 1]²: each output coordinate is
// (2/π)·asin(x/xmax), xmax half the summed distances to the foci (±1, 0),
// and likewise for y with the foci (0, ±1), times the weight. asin(x/xmax)
// is π/2 − ν, ν the angular elliptic coordinate, which
// fj::elliptic_coords forms without the cancellation that Fractorium's
// √(1 − (x/xmax)²) suffers near the axis beyond the foci.

#include "shared/coordinates.h"

FJ_VARIATION(block) {
    float ch, sh, mu, nux, nuy;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nux);
    fj::elliptic_coords(in.y, in.x * in.x, ch, sh, mu, nuy);
    ox += w * (1.0f - nux * (2.0f / FJ_PI));
    oy += w * (1.0f - nuy * (2.0f / FJ_PI));
}
