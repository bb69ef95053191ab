// @variation hypertile
// @id 1066
// @origin Fractorium 1.0
// @param hypertile_p 3
// @param hypertile_q 7
// @param hypertile_n 0
// One step of the hyperbolic {p, q} tiling in the Poincaré disc
// (fj::hyperbolic_move), towards the neighbour n·2π/p round from the first,
// times the weight. hypertile1 picks the neighbour at random; hypertile2
// turns the result instead.

#include "shared/hyperbolic.h"

FJ_VARIATION(hypertile) {
    const float step = FJ_2PI / fj::zeps(p[0]);
    const float r = fj::hyperbolic_tile_step(fj::zeps(p[0]), fj::zeps(p[1]));
    const float a = p[2] * step;
    float mx, my;
    fj::hyperbolic_move(in.x, in.y, r * fj::cosine(a), r * fj::sine(a), false, mx, my);
    ox += w * mx;
    oy += w * my;
}
