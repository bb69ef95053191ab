// @variation coth_spiral
// @id 1101
// @origin Fractorium 1.0
// @param coth_spiral_a 4
// @random 1
// Ignores the point: draws t uniform in [-π, π) and lands on the spiral
// w·coth((1 + i·a)·t/2) = w·(sinh t − i·sin(a·t))/(cosh t − cos(a·t)).
// Fractorium divides by cos(a·t) − cosh t, which cancels in float near
// t = 0 and rounds to 0 for |t| below about 3e-4, where its guard then puts
// the point far off the spiral; the half-angle form of the bipolar helper
// (cosh t − cos(a·t) = 2·(sinh²(t/2) + sin²(a·t/2))) does not cancel.
// t = 0 itself gives the origin, as in Fractorium.

#include "shared/coordinates.h"

FJ_VARIATION(coth_spiral) {
    const float t = (fj::rand01(rng) - 0.5f) * FJ_2PI;
    float x, y;
    fj::bipolar_point(t, p[0] * t, x, y);
    ox += w * x;
    oy -= w * y;
}
