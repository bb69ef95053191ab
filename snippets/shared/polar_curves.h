// flamejit — the sum of polar curves that Fractorium's x, y and w build on.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// The radius at angle a of four curves, each scaled by its amplitude and
// summed (an amplitude of 0 leaves its curve out, poles and all), with
// q = hypergon, hypergon_n, hypergon_r, star, star_n, star_slope, lituus,
// lituus_a, super, super_m, super_n1, super_n2, super_n3, and t the angle
// from the nearest of n directions 2π/n apart (the first at π/n):
//   hypergon: a regular n-gon of the Poincaré disc, each side an arc of
//     the circle of radius r centred at distance D = √(1 + r²) in one of
//     those directions (so it meets the unit circle at right angles): where
//     the ray meets that circle, (D − √(D² − 1/cos² t))·cos t, else 1;
//   star: a regular n-pointed star with its points at radius 1 in those
//     directions and straight edges leaving them at angle s (the slope)
//     to the ray: tan s·√(1 + tan² t)/(tan t + tan s), i.e. sin s/sin(t + s);
//   lituus: |a/π + 1|^−lituus_a;
//   super: Gielis's superformula, (|cos(m·a/4)|^n2 + |sin(m·a/4)|^n3)^(−1/n1).
// As Fractorium stores and precomputes them: both n are whole numbers, at
// least 3; the slope is held to [float epsilon, π/2], and taken 0.05 less
// within 1e-6 of π/2, where its tangent has its pole; n1 0 divides through
// float epsilon.
FJ_HD FJ_INLINE float polar_curves_radius(float a, const float* q) {
    const float aa = fabsf(a);
    float total = 0.0f;
    if (q[0] != 0.0f) {
        const float n = fmaxf(floorf(q[1] + 0.5f), 3.0f);
        const float t = tangent(fj::modulo(aa, FJ_2PI / n) - FJ_PI / n);
        const float sec2 = t * t + 1.0f;
        const float d = sqrtf(1.0f + q[2] * q[2]);
        const float d2 = d * d;
        total += sec2 >= d2 ? q[0] : q[0] * (d - sqrtf(d2 - sec2)) / sqrtf(sec2);
    }
    if (q[3] != 0.0f) {
        const float n = fmaxf(floorf(q[4] + 0.5f), 3.0f);
        float slope = fminf(fmaxf(q[5], FJ_FLT_EPSILON), FJ_PI_2);
        if (fabsf(slope - FJ_PI_2) < 1e-6f) slope -= 0.05f;
        const float ts = tangent(slope);
        const float t = tangent(fabsf(fj::modulo(aa, FJ_2PI / n) - FJ_PI / n));
        total += q[3] * sqrtf(ts * ts * (1.0f + t * t) / ((t + ts) * (t + ts)));
    }
    if (q[6] != 0.0f) total += q[6] * fj::power(fabsf(a / FJ_PI + 1.0f), -q[7]);
    if (q[8] != 0.0f) {
        const float b = a * (q[9] * 0.25f);
        total += q[8] * fj::power(fj::power(fabsf(fj::cosine(b)), q[11]) + fj::power(fabsf(fj::sine(b)), q[12]), -1.0f / zeps(q[10]));
    }
    return total;
}

}  // namespace fj
