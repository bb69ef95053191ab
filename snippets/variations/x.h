// @variation x
// @id 1237
// @origin Fractorium 1.0
// @param x_hypergon 0
// @param x_hypergon_n 4
// @param x_hypergon_r 1
// @param x_star 0
// @param x_star_n 5
// @param x_star_slope 2
// @param x_lituus 0
// @param x_lituus_a 1
// @param x_super 0
// @param x_super_m 1
// @param x_super_n1 1
// @param x_super_n2 1
// @param x_super_n3 1
// The hypergon family's x: with R(angle) the sum of its polar curves
// (fj::polar_curves_radius: hypergon, star, lituus, superformula), the
// point keeps its angle and its radius r becomes √(r² + R²), times the
// weight: the plane pushed out by the curve, the origin onto it.
#include "shared/polar_curves.h"

FJ_VARIATION(x) {
    const float total = fj::polar_curves_radius(in.phi, p);
    const float r = w * sqrtf(in.r2 + total * total);
    ox += r * fj::cosine(in.phi);
    oy += r * fj::sine(in.phi);
}
