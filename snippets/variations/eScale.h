// @variation eScale
// @id 1051
// @origin Fractorium 1.0
// @param eScale_scale 1
// @param eScale_angle 0
// Elliptic coordinates about the foci (±1, 0): mu picks the confocal
// ellipse, nu the place on it. mu is scaled by `scale`, and so is nu: the
// turn is cut at nu = −angle − π and shrinks by `scale` onto an arc centred
// on −angle.
// Fractorium keeps scale in (0, 1] (below 1e-6 it becomes FLT_EPSILON) and
// wraps angle into [0, 2π]; its final wrap of nu into [-π, π] changes no
// point and is left out.

#include "shared/coordinates.h"

FJ_VARIATION(eScale) {
    float scale = fminf(fmaxf(p[0], 0.0f), 1.0f);
    if (scale < 1e-6f) scale = FJ_FLT_EPSILON;
    const float angle = fj::wrap_cyclic(p[1], 0.0f, FJ_2PI);
    float ch, sh, mu, nu;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nu);
    if (in.y < 0.0f) nu = -nu;
    // scale·((nu + π + angle) mod 2π): the same as wrapping the scaled sum by
    // scale·2π, but with fmod exact in float.
    nu = scale * fj::modulo(nu + FJ_PI + angle, FJ_2PI) - angle - scale * FJ_PI;
    fj::sinh_cosh(mu * scale, sh, ch);
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
