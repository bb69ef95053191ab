// @variation dust
// @id 1172
// @origin Fractorium 1.0
// @param dust_density 5
// @param dust_distortion 1
// @param dust_power 1
// Every point of a unit cell goes to one dot: the cell's whole coordinates
// ⌊|x|⌋ and ⌊|y|⌋, taken modulo density and divided by it, give X and Y
// in [0, 1), and the dot lies at angle 2π·(X + distortion·h(X, Y, 1)) and
// radius (Y + distortion·h(Y, X, 2))^power, times the weight: at most
// density² dots, scattered by the shader hash h(a, b, s), the fraction of
// 43758.5453·sin(12.9898·a + 78.233·b + s) (fj::shader_hash). A density of
// 0 becomes float epsilon, as in Fractorium. Where the radius is not a
// finite number (a negative base, or a zero one with a power ≤ 0), which
// Fractorium would plot as NaN or infinity, nothing is added.

#include "shared/hashes.h"

FJ_VARIATION(dust) {
    const float density = fj::zeps(p[0]);
    const float X = fj::modulo(floorf(fabsf(in.x)), density) / density;
    const float Y = fj::modulo(floorf(fabsf(in.y)), density) / density;
    const float a = (X + fj::shader_hash(X, Y, 1.0f) * p[1]) * FJ_2PI;
    const float r = expf(logf(Y + fj::shader_hash(Y, X, 2.0f) * p[1]) * p[2]);
    if (!(r <= FJ_FLT_MAX)) return;
    ox += w * fj::cosine(a) * r;
    oy += w * fj::sine(a) * r;
}
