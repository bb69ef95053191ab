// @variation glynnia2
// @id 1180
// @origin Fractorium 1.0
// @random 1
// A square root with a random inversion, flipped by half plane: with √z
// the principal square root and even odds, a point above the x axis goes
// to w·conj(√z) or w/conj(√z), a point on or below it to −w·√z or −w/√z.
// Fractorium writes √z through √(r + x), which float rounds to 0 near the
// negative x axis (there its float build divides by 0); here √z comes from
// fj::complex_sqrt, which does not cancel. On the negative x axis itself,
// where Fractorium's float guard returns about the origin, the lower half's
// limit is taken. At the origin 1/√z becomes 0/epsilon, 0.

#include "shared/complex.h"

FJ_VARIATION(glynnia2) {
    const bool upper = in.y > 0.0f;
    float sr, si;
    // y ≤ 0 as −|y|: the negative axis joins the lower half.
    fj::complex_sqrt(in.x, upper ? in.y : -fabsf(in.y), sr, si);
    if (fj::rand01(rng) > 0.5f) {
        ox += (upper ? w : -w) * sr;
        oy -= w * si;
    } else {
        const float s = w / fj::zeps(in.r);  // 1/√z = conj(√z)/|z|
        ox += (upper ? s : -s) * sr;
        oy += s * si;
    }
}
