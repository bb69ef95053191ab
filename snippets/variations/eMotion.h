// @variation eMotion
// @id 1048
// @origin Fractorium 1.0
// @param eMotion_move 0
// @param eMotion_rotate 0
// Elliptic coordinates about the foci (±1, 0): mu picks the confocal
// ellipse, nu the place on it. Below the x axis mu grows by `move`, on and
// above it mu shrinks by `move`; a point pushed past the segment between the
// foci (mu ≤ 0) comes out on its other side, as (-mu, -nu). Then nu turns
// by `rotate`, which Fractorium wraps into [0, 2π].

#include "shared/coordinates.h"

FJ_VARIATION(eMotion) {
    const float move = p[0];
    const float rotate = fj::wrap_cyclic(p[1], 0.0f, FJ_2PI);
    float ch, sh, mu, nu;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nu);
    if (in.y < 0.0f) nu = -nu;
    mu += nu < 0.0f ? move : -move;
    if (mu <= 0.0f) {
        mu = -mu;
        nu = -nu;
    }
    nu += rotate;
    fj::sinh_cosh(mu, sh, ch);
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
