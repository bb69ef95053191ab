// flamejit — moves of the Poincaré disc, for the hypertile variations.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// For the hypertile variations: in the Poincaré disc, the distance from the
// centre to the centre of a neighbouring tile of the hyperbolic {p, q}
// tiling (1 where p and q make no hyperbolic tiling).
FJ_HD FJ_INLINE float hyperbolic_tile_step(float p, float q) {
    const float cs = fj::cosine(FJ_2PI / p);
    const float r2 = (1.0f - cs) / (cs + fj::cosine(FJ_2PI / q)) + 1.0f;
    return r2 > 0.0f ? 1.0f / sqrtf(r2) : 1.0f;
}

// The disc automorphism z → (z + conj(ρ)) / (ρ·z + 1), ρ = re + i·im,
// that carries the tile at the centre to the neighbour at −conj(ρ); the
// denominator guarded only where `guard` (hypertile does not guard it).
FJ_HD FJ_INLINE void hyperbolic_move(float x, float y, float re, float im, bool guard, float& mx, float& my) {
    const float a = x + re, b = y - im;
    const float c = re * x - im * y + 1.0f, d = re * y + im * x;
    const float den = c * c + d * d;
    const float s = 1.0f / (guard ? zeps(den) : den);
    mx = s * (a * c + b * d);
    my = s * (b * c - a * d);
}

}  // namespace fj
