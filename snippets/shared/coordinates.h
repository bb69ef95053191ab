// flamejit — elliptic and bipolar coordinates, for the variations that work in
// them.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// For elliptic and edisc: xmax = (r1 + r2)/2, the half sum of the distances to
// the foci (±1, 0), and xmax − 1 formed without cancellation — float cannot
// afford flam3's direct difference near the origin and between the foci.
// xmax − 1 = D / (2·xmax + 2), D = r1·r2 − (1 − r²) = 4y² / (r1·r2 + 1 − r²).
FJ_HD FJ_INLINE float elliptic_xmax_minus_one(const VarIn& in, float& xmax) {
    const float y2 = in.y * in.y;
    const float xp = in.x + 1.0f, xm = in.x - 1.0f;
    const float r1 = sqrtf(xp * xp + y2), r2 = sqrtf(xm * xm + y2);
    xmax = 0.5f * (r1 + r2);
    const float q = 1.0f - in.r2;
    const float d = q > 0.0f ? 4.0f * y2 / (r1 * r2 + q) : r1 * r2 - q;
    return d / (2.0f * xmax + 2.0f);
}

// Elliptic coordinates about the foci (±1, 0) of the point (x, y), for
// Fractorium's e* variations, from x and y²: cosh(mu) = (r1 + r2)/2 with r1,
// r2 the distances to the foci, sinh(mu) and mu ≥ 0, and nu in [0, π] (the
// caller signs it). The textbook acosh(cosh mu) and acos(x/cosh mu) lose
// half their digits near the segment between the foci and near the x axis
// beyond them; here sinh²(mu) = (r1·r2 − 1 + r²)/2 and tan²(nu/2) =
// (1 − x + r2)/(1 + x + r1), each sum rewritten where its terms would cancel.
FJ_HD FJ_INLINE void elliptic_coords(float x, float y2, float& ch, float& sh, float& mu, float& nu) {
    const float u = 1.0f - x, v = 1.0f + x;
    const float r1 = sqrtf(v * v + y2), r2 = sqrtf(u * u + y2);
    const float q = u * v - y2;
    const float d = q > 0.0f ? 4.0f * y2 / (r1 * r2 + q) : r1 * r2 - q;
    ch = 0.5f * (r1 + r2);
    sh = sqrtf(0.5f * d);
    mu = asinhf(sh);
    const float below = u >= 0.0f ? u + r2 : y2 / (r2 - u);
    const float above = v >= 0.0f ? v + r1 : y2 / (r1 - v);
    nu = 2.0f * arctan2(sqrtf(below), sqrtf(above));
}

// Bipolar coordinates about the foci (±1, 0), for Fractorium's b*
// variations: tau, the log of the ratio of the distances to the foci, and
// sigma, the angle they subtend, in [0, 2π) (past π below the x axis). Each
// comes from a quotient that keeps its precision far from the foci, where
// the textbook difference of logs and sum of angles cancel; tau is odd in
// x, and its log1p form is exact only on the side of the nearer focus, so
// it is taken there.
FJ_HD FJ_INLINE void bipolar_coords(float x, float y, float& tau, float& sigma) {
    const float ax = fabsf(x), y2 = y * y, d = ax - 1.0f;
    tau = copysignf(0.5f * log1pf(4.0f * ax / (d * d + y2)), x);
    sigma = arctan2(2.0f * y, (x - 1.0f) * (x + 1.0f) + y2);
    if (sigma < 0.0f) sigma += FJ_2PI;
}

// Back to the plane, x + iy = coth((tau − i·sigma)/2), in half-angle terms:
// cosh(tau) − cos(sigma) = 2(sinh²(tau/2) + sin²(sigma/2)) does not cancel
// far from the foci. Only a focus itself has an infinite tau; held at ±64
// it comes back as that focus instead of as 0/0. A zero divisor (the point
// at infinity) gets Fractorium's FLT_EPSILON guard.
FJ_HD FJ_INLINE void bipolar_point(float tau, float sigma, float& x, float& y) {
    float sh, ch;
    sinh_cosh(0.5f * fminf(fmaxf(tau, -64.0f), 64.0f), sh, ch);
    const float sn = fj::sine(0.5f * sigma), cn = fj::cosine(0.5f * sigma);
    float q = sh * sh + sn * sn;
    if (q == 0.0f) q = 0.5f * FJ_FLT_EPSILON;
    x = sh * ch / q;
    y = sn * cn / q;
}

}  // namespace fj
