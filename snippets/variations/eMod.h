// @variation eMod
// @id 1047
// @origin Fractorium 1.0
// @param eMod_radius 1
// @param eMod_distance 0
// Elliptic coordinates about the foci (±1, 0): mu picks the confocal
// ellipse, nu the place on it. Inside the band mu < radius, mu is shifted
// by distance·radius, up above the x axis and down below it (and on the axis
// beyond the right focus), and wrapped back into [-radius, radius]: the
// ellipses slide outwards and reappear at the segment between the foci; a
// negative mu crosses the segment to the point's mirror image. Fractorium
// keeps radius at 0 or more and distance in [0, 2].

#include "shared/coordinates.h"

FJ_VARIATION(eMod) {
    const float radius = fmaxf(p[0], 0.0f);
    const float dist = fj::wrap_cyclic(p[1], 0.0f, 2.0f);
    float ch, sh, mu, nu;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nu);
    if (in.y < 0.0f) nu = -nu;
    if (mu < radius) {
        const float shift = radius + dist * radius;
        mu = nu > 0.0f ? fj::modulo(mu + shift, 2.0f * radius) - radius : fj::modulo(mu - shift, 2.0f * radius) + radius;
    }
    fj::sinh_cosh(mu, sh, ch);
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
