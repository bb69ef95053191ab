// @variation hypertile2
// @id 1068
// @origin Fractorium 1.0
// @param hypertile2_p 3
// @param hypertile2_q 7
// @random 1
// hypertile's step along the real axis, then the result turned back by
// 2π·k/p, k uniform in 0..32766 as Fractorium draws it (for a whole p, one
// of its p turns). k/p is reduced modulo 1 exactly first, which float
// cannot do after multiplying by 2π.

#include "shared/hyperbolic.h"

FJ_VARIATION(hypertile2) {
    const float sides = fj::zeps(p[0]);
    const float r = fj::hyperbolic_tile_step(sides, fj::zeps(p[1]));
    float mx, my;
    fj::hyperbolic_move(in.x, in.y, r, 0.0f, true, mx, my);
    const float k = (float)(int)(fj::rand01(rng) * 32767.0f);
    const float t = fj::modulo(k, sides) * (FJ_2PI / sides);
    const float c = fj::cosine(t), s = fj::sine(t);
    ox += w * (mx * c + my * s);
    oy += w * (my * c - mx * s);
}
