// @variation bSwirl
// @id 1043
// @origin Fractorium 1.0
// @param bSwirl_in 0
// @param bSwirl_out 0
// Bipolar coordinates about the foci (±1, 0) (bMod says more): sigma, the
// angle the foci subtend, turns by out·tau + in/tau, so the circles of
// Apollonius around each focus swirl, fast near the y axis (tau = 0, where
// Fractorium divides by FLT_EPSILON instead) and far out near the foci.

#include "shared/coordinates.h"

FJ_VARIATION(bSwirl) {
    float tau, sigma;
    fj::bipolar_coords(in.x, in.y, tau, sigma);
    // A focus (infinite tau) would turn by inf or NaN; any large tau maps
    // back onto the focus whatever the angle.
    tau = fminf(fmaxf(tau, -64.0f), 64.0f);
    sigma += tau * p[1] + p[0] / fj::zeps(tau);
    float px, py;
    fj::bipolar_point(tau, sigma, px, py);
    ox += w * px;
    oy += w * py;
}
