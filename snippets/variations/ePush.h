// @variation ePush
// @id 1049
// @origin Fractorium 1.0
// @param ePush_push 0
// @param ePush_dist 1
// @param ePush_rotate 0
// Elliptic coordinates about the foci (±1, 0): mu picks the confocal
// ellipse, nu the place on it. mu is scaled by dist and moved by push, nu
// turned by rotate (which Fractorium wraps into [-π, π]).

#include "shared/coordinates.h"

FJ_VARIATION(ePush) {
    const float rotate = fj::wrap_cyclic(p[2], -FJ_PI, FJ_PI);
    float ch, sh, mu, nu;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nu);
    if (in.y < 0.0f) nu = -nu;
    nu += rotate;
    fj::sinh_cosh(mu * p[1] + p[0], sh, ch);
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
