// @variation eSwirl
// @id 1052
// @origin Fractorium 1.0
// @param eSwirl_in 0
// @param eSwirl_out 0
// Elliptic coordinates about the foci (±1, 0): each point travels along its
// confocal ellipse by out·mu + in/mu, so the ellipses swirl, fast near the
// segment between the foci (mu = 0) and far out. On the segment itself
// Fractorium divides by zero; here, as bSwirl does at its own zero, by
// FLT_EPSILON instead.

#include "shared/coordinates.h"

FJ_VARIATION(eSwirl) {
    float ch, sh, mu, nu;
    fj::elliptic_coords(in.x, in.y * in.y, ch, sh, mu, nu);
    if (in.y < 0.0f) nu = -nu;
    nu += mu * p[1] + p[0] / fj::zeps(mu);
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
