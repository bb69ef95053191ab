// @variation eCollide
// @id 1045
// @origin Fractorium 1.0
// @param eCollide_a 0
// @param eCollide_num 1
// Elliptic coordinates about the foci (±1, 0): mu picks the confocal
// ellipse, nu the place on it. |nu|'s range [0, π] is cut into num sectors,
// and inside each nu turns by a·π/num, forwards in even sectors and
// backwards in odd ones, wrapping within the sector; the point keeps its
// ellipse. As in Fractorium, points on the x axis count as below it.
// Fractorium wraps a into [0, 1] and rounds num to a whole number, 1 or more.

#include "shared/coordinates.h"

FJ_VARIATION(eCollide) {
    const float a = fj::wrap_cyclic(p[0], 0.0f, 1.0f);
    const float num = fminf(fmaxf(floorf(p[1] + 0.5f), 1.0f), 2147483647.0f);
    const float width = FJ_PI / num, turn = a * width;
    float ch, sh, mu, nu;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nu);
    // The sector from the same exact fmod as the wrap below, so that the two
    // agree on which sector a point on an edge belongs to.
    const float sector = roundf((nu - fj::modulo(nu, width)) / width);
    const bool even = fj::modulo(sector, 2.0f) == 0.0f;
    nu = sector * width + fj::modulo(even ? nu + turn : nu - turn, width);
    if (!(in.y > 0.0f)) nu = -nu;
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
