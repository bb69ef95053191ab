// flamejit — complex functions in float without cancellation.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// The principal square root of a + ib: the sign of b, zero included, picks
// the side of the cut along the negative axis.
FJ_HD FJ_INLINE void complex_sqrt(float a, float b, float& re, float& im) {
    const float t = sqrtf(0.5f * (hypotf(a, b) + fabsf(a)));
    const float other = t > 0.0f ? 0.5f * fabsf(b) / t : 0.0f;
    re = a >= 0.0f ? t : other;
    im = copysignf(a >= 0.0f ? other : t, b);
}

// arcsech(x + iy) = arccosh(u), u = 1/z, on its principal branch (for
// arcsech and arcsech2, whose comments say why it is formed this way):
// 2·log(√((u + 1)/2) + √((u − 1)/2)), whose two roots never cancel. 1/z goes
// through |z|; on the real axis u's imaginary zero takes the sign of x,
// which picks the side of the cut.
FJ_HD FJ_INLINE void arcsech(float x, float y, float& re, float& im) {
    const float inv = 1.0f / hypotf(x, y);
    const float ux = x * inv * inv, uy = y != 0.0f ? -y * inv * inv : copysignf(0.0f, x);
    float ar, ai, br, bi;
    complex_sqrt(0.5f * (ux + 1.0f), 0.5f * uy, ar, ai);
    complex_sqrt(0.5f * (ux - 1.0f), 0.5f * uy, br, bi);
    const float sr = ar + br, si = ai + bi;
    re = logf(sr * sr + si * si);
    im = 2.0f * arctan2(si, sr);
}

}  // namespace fj
