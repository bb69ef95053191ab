// flamejit — 3D simplex noise, for crackle and dc_perlin.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"
#include "shared/hashes.h"

namespace fj {

// One corner's share of simplex noise: (0.6 − d²)⁴ times the dot product of
// the offset d with the corner's gradient, one of the twelve directions to
// the midpoints of a cube's edges, of unit length.
FJ_HD FJ_INLINE float simplex_corner(float x, float y, float z, u32 h) {
    float t = 0.6f - x * x - y * y - z * z;
    if (t <= 0.0f) return 0.0f;
    const u32 g = h % 12u, pair = g >> 2;  // pair 0: xy, 1: xz, 2: yz
    const float a = pair == 2u ? y : x, b = pair == 0u ? y : z;
    const float dot = ((g & 1u) ? -a : a) + ((g & 2u) ? -b : b);
    t *= t;
    return t * t * dot * 0.70710678f;
}

// 3D simplex noise (Perlin's 2001 design): smooth, zero at every lattice
// point of the skewed grid, within about ±1. Fractorium's crackle perturbs
// its cells with the same kind of noise drawn from its own tables of
// gradients; those tables are not reproduced here, so the jitter has the
// same character and amplitude but not Fractorium's values. Lattice
// coordinates are held within ±2^30 (beyond, float has no fraction left).
// The skew and unskew are products rounded on their own, never fused with
// the sums after them: inputs on a lattice (crackle's 2.5·column and
// 2.5·row with z 0) land exactly on the cells' faces, where floorf's pick
// of cell follows the last bit, and this noise (its corners reach 0.6,
// beyond their own cells) is not quite continuous across a face: the host
// and the device must pick alike.
FJ_HD FJ_INLINE float simplex_noise(float x, float y, float z) {
    const float skew = mul_rn(x + y + z, 1.0f / 3.0f);
    const float fi = floorf(x + skew), fj = floorf(y + skew), fk = floorf(z + skew);
    const float unskew = mul_rn(fi + fj + fk, 1.0f / 6.0f);
    // Offsets from the cell's first corner, in input space.
    const float x0 = x - (fi - unskew), y0 = y - (fj - unskew), z0 = z - (fk - unskew);
    // Which of the cell's six tetrahedra holds the point: step along the
    // axes in order of decreasing offset.
    int i1, j1, k1, i2, j2, k2;
    if (x0 >= y0) {
        if (y0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
        else if (x0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 0; k2 = 1; }
        else { i1 = 0; j1 = 0; k1 = 1; i2 = 1; j2 = 0; k2 = 1; }
    } else {
        if (y0 < z0) { i1 = 0; j1 = 0; k1 = 1; i2 = 0; j2 = 1; k2 = 1; }
        else if (x0 < z0) { i1 = 0; j1 = 1; k1 = 0; i2 = 0; j2 = 1; k2 = 1; }
        else { i1 = 0; j1 = 1; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
    }
    const float g = 1.0f / 6.0f;
    const float limit = 1073741824.0f;
    const int i = (int)fminf(fmaxf(fi, -limit), limit), j = (int)fminf(fmaxf(fj, -limit), limit),
              k = (int)fminf(fmaxf(fk, -limit), limit);
    const float n = simplex_corner(x0, y0, z0, lattice_hash(i, j, k)) +
                    simplex_corner(x0 - i1 + g, y0 - j1 + g, z0 - k1 + g, lattice_hash(i + i1, j + j1, k + k1)) +
                    simplex_corner(x0 - i2 + 2.0f * g, y0 - j2 + 2.0f * g, z0 - k2 + 2.0f * g,
                                   lattice_hash(i + i2, j + j2, k + k2)) +
                    simplex_corner(x0 - 1.0f + 3.0f * g, y0 - 1.0f + 3.0f * g, z0 - 1.0f + 3.0f * g,
                                   lattice_hash(i + 1, j + 1, k + 1));
    return 32.0f * n;
}

}  // namespace fj
