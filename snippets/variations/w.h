// @variation w
// @id 1239
// @origin Fractorium 1.0
// @param w_angle 0
// @param w_hypergon 0
// @param w_hypergon_n 4
// @param w_hypergon_r 1
// @param w_star 0
// @param w_star_n 5
// @param w_star_slope 2
// @param w_lituus 0
// @param w_lituus_a 1
// @param w_super 0
// @param w_super_m 1
// @param w_super_n1 1
// @param w_super_n2 1
// @param w_super_n3 1
// The hypergon family's w: with R(angle) the sum of its polar curves
// (fj::polar_curves_radius: hypergon, star, lituus, superformula), a
// point inside the curve (r ≤ R(a), a its angle) is turned by `angle`
// and rescaled to the same fraction of the curve's radius at its new
// angle a′: radius r·R(a′)/R(a); a point outside is kept. Times the weight.
// angle wraps into [−π, π] as Fractorium stores it, and a′ = a + angle
// wraps once into the same range. Where R(a) is 0 only the origin is
// inside; there, where Fractorium's 0/0 is NaN, the origin stays.
#include "shared/polar_curves.h"

FJ_VARIATION(w) {
    const float turn = fj::wrap_cyclic(p[0], -FJ_PI, FJ_PI);
    const float total = fj::polar_curves_radius(in.phi, p + 1);
    if (in.r <= total && total != 0.0f) {
        float a = in.phi + turn;
        if (a < -FJ_PI) a += FJ_2PI;
        if (a > FJ_PI) a -= FJ_2PI;
        const float r = w * fj::polar_curves_radius(a, p + 1) * in.r / total;
        ox += r * fj::cosine(a);
        oy += r * fj::sine(a);
    } else {
        ox += w * in.x;
        oy += w * in.y;
    }
}
