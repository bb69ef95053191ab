// @variation eJulia
// @id 1046
// @origin Fractorium 1.0
// @param eJulia_power 2
// @random 1
// julia in elliptic coordinates about the foci (±1, 0): the point is
// cosh(mu + i·nu), and the variation returns cosh((mu + i·nu + 2πik)/power)
// for a random k, one of |power| roots. A negative power works on the
// inverted point z/|z|²; as in Fractorium, the origin inverts through a
// FLT_EPSILON guard to 1/sqrt(FLT_EPSILON) up the y axis. Fractorium rounds
// power to a whole number and makes 0 into ±1.

#include "shared/coordinates.h"

FJ_VARIATION(eJulia) {
    float power = floorf(p[0] + 0.5f);
    if (power == 0.0f) power = p[0] < 0.0f ? -1.0f : 1.0f;
    float x = in.x, y2 = in.y * in.y;
    if (power < 0.0f) {
        const float s = 1.0f / fj::zeps(in.r2), ys = in.y * s;
        x *= s;
        y2 = in.r2 != 0.0f ? ys * ys : s;
    }
    float ch, sh, mu, nu;
    fj::elliptic_coords(x, y2, ch, sh, mu, nu);
    if (in.y < 0.0f) nu = -nu;
    nu = (nu + FJ_2PI * floorf(fj::rand01(rng) * power)) / power;
    fj::sinh_cosh(mu / power, sh, ch);
    ox += w * ch * fj::cosine(nu);
    oy += w * sh * fj::sine(nu);
}
