// @variation bCollide
// @id 1044
// @origin Fractorium 1.0
// @param bCollide_a 0
// @param bCollide_num 1
// Bipolar coordinates about the foci (±1, 0) (bMod says more): the range of
// sigma, the angle the foci subtend, is cut into sectors π/num wide, and
// inside each sigma turns by a·π/num, forwards in even sectors and backwards
// in odd ones, wrapping within the sector. As in Fractorium, the wrap uses
// C's fmod, so in the first sector a negative turn is not wrapped and those
// points cross sigma = 0 instead. Fractorium wraps a into [-1, 1] and keeps
// num at FLT_EPSILON or more.

#include "shared/coordinates.h"

FJ_VARIATION(bCollide) {
    const float a = fj::wrap_cyclic(p[0], -1.0f, 1.0f);
    const float num = fminf(fmaxf(p[1], FJ_FLT_EPSILON), 2147483647.0f);
    const float width = FJ_PI / num, turn = a * width;
    float tau, sigma;
    fj::bipolar_coords(in.x, in.y, tau, sigma);
    // The sector from the same exact fmod as the wrap below, so that the two
    // agree on which sector a point on an edge belongs to.
    const float sector = roundf((sigma - fj::modulo(sigma, width)) / width);
    const bool even = fj::modulo(sector, 2.0f) == 0.0f;
    sigma = sector * width + fj::modulo(even ? sigma + turn : sigma - turn, width);
    float px, py;
    fj::bipolar_point(tau, sigma, px, py);
    ox += w * px;
    oy += w * py;
}
