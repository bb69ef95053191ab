// flamejit — the bands and tile types of Fractorium's Truchet variations.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// For Fractorium's Truchet variations, whose unit tiles hold two quarter
// arcs of radius 1/2 about opposite corners, drawn in the L^n norm: how far
// the point at offset (dx, dy) from a corner lies from that arc, in units of
// the band's half-width, |‖(dx, dy)‖ₙ − 1/2| / rmax with rmax = (2^(1/n) −
// 1)·width/2 (below 1 on the band). Both are divided by 2^(1/n) first:
// formed directly, 2^(1/n) overflows float for n below 1/128 and the bands
// there would vanish; divided, the norm becomes the power mean
// ((|dx|ⁿ + |dy|ⁿ)/2)^(1/n), at most 1. n in (0, 2], width > 0.
FJ_HD FJ_INLINE float truchet_arc_distance(float dx, float dy, float n, float width) {
    const float t = exp2f(-1.0f / n);
    const float mean = fj::power(0.5f * (fj::power(fabsf(dx), n) + fj::power(fabsf(dy), n)), 1.0f / n);
    return fabsf(mean - 0.5f * t) / (0.5f * (1.0f - t) * width);
}

// The tile type of Fractorium's Truchet variations from a tile's hashed
// value v: (32747·v + 12345) mod 65535, mod 2 (fmod's, so negative for a
// negative v); a result below 1 is the first kind. Each step is rounded on
// its own so that both backends get the same bits.
FJ_HD FJ_INLINE float truchet_tile(float v) {
    return fj::modulo(fj::modulo(add_rn(mul_rn(v, 32747.0f), 12345.0f), 65535.0f), 2.0f);
}

}  // namespace fj
