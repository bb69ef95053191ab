// @variation hypertile1
// @id 1067
// @origin Fractorium 1.0
// @param hypertile1_p 3
// @param hypertile1_q 7
// @random 1
// hypertile towards one of the ⌊p⌋ neighbouring tiles, chosen at random (as
// Fractorium outside its flam3 compatibility mode).

#include "shared/hyperbolic.h"

FJ_VARIATION(hypertile1) {
    const float sides = fj::zeps(p[0]);
    const float r = fj::hyperbolic_tile_step(sides, fj::zeps(p[1]));
    const float a = floorf(fj::rand01(rng) * truncf(p[0])) * (FJ_2PI / sides);
    float mx, my;
    fj::hyperbolic_move(in.x, in.y, r * fj::cosine(a), r * fj::sine(a), true, mx, my);
    ox += w * mx;
    oy += w * my;
}
