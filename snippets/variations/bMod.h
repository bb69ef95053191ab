// @variation bMod
// @id 1042
// @origin Fractorium 1.0
// @param bMod_radius 1
// @param bMod_distance 0
// Bipolar coordinates about the foci (±1, 0): tau, the log of the ratio of
// the distances to them, and sigma, the angle they subtend. Inside the band
// |tau| < radius, tau is shifted by distance·radius and wrapped back into the
// band, which cuts the plane along one circle of Apollonius and slides the
// rings between. Fractorium keeps radius at 0 or more and distance in [0, 2].

#include "shared/coordinates.h"

FJ_VARIATION(bMod) {
    const float radius = fmaxf(p[0], 0.0f);
    const float dist = fj::wrap_cyclic(p[1], 0.0f, 2.0f);
    float tau, sigma;
    fj::bipolar_coords(in.x, in.y, tau, sigma);
    if (fabsf(tau) < radius) tau = fj::modulo(tau + radius + dist * radius, 2.0f * radius) - radius;
    float px, py;
    fj::bipolar_point(tau, sigma, px, py);
    ox += w * px;
    oy += w * py;
}
