// @variation y
// @id 1238
// @origin Fractorium 1.0
// @param y_hypergon 0
// @param y_hypergon_n 4
// @param y_hypergon_r 1
// @param y_star 0
// @param y_star_n 5
// @param y_star_slope 2
// @param y_lituus 0
// @param y_lituus_a 1
// @param y_super 0
// @param y_super_m 1
// @param y_super_n1 1
// @param y_super_n2 1
// @param y_super_n3 1
// The hypergon family's y: with R(angle) the sum of its polar curves
// (fj::polar_curves_radius: hypergon, star, lituus, superformula), the
// point keeps its angle and its radius r becomes R²/r, times the weight:
// the inversion in the curve. Where R is 0 the result is 0, also at the
// origin, where Fractorium's 0/0 is NaN (with the default amplitudes, all
// 0, its y is 0 everywhere else).
#include "shared/polar_curves.h"

FJ_VARIATION(y) {
    const float total = fj::polar_curves_radius(in.phi, p);
    const float r = total != 0.0f ? w * (total * total) / in.r : 0.0f;
    ox += r * fj::cosine(in.phi);
    oy += r * fj::sine(in.phi);
}
