// @variation eRotate
// @id 1050
// @origin Fractorium 1.0
// @param eRotate_rotate 0
// Elliptic coordinates about the foci (±1, 0): each point travels along its
// confocal ellipse by the angle rotate (nu += rotate; Fractorium wraps rotate
// into [-π, π] and the sum into one turn, which changes no point, so the
// latter is left out).

#include "shared/coordinates.h"

FJ_VARIATION(eRotate) {
    const float rotate = fj::wrap_cyclic(p[0], -FJ_PI, FJ_PI);
    float ch, sh, mu, nu;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nu);
    if (in.y < 0.0f) nu = -nu;
    nu += rotate;
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
