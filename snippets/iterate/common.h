// flamejit — iteration pieces shared by the GPU kernel and the CPU backend.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Both backends iterate the same way: warps of 32 lanes apply one xform per
// round, points then move between the warps of a block, and hits land in a
// float RGBA histogram. The pieces whose results must agree bit for bit on
// both sides live here.
#pragma once

#include "fj_device.h"

namespace fj {

// Iterations a fresh point runs before it may plot (flam3 uses 15 per chain).
#define FJ_FUSE 20

// flam3's bad value: NaN or a coordinate beyond 1e10 (written so NaN fails).
FJ_HD FJ_INLINE bool is_bad_point(float x, float y) {
    return !(fabsf(x) <= 1e10f && fabsf(y) <= 1e10f);
}

// The warp a lane's point moves to after round `round` under the ring
// shuffle. For a fixed lane the map from warp to destination is a rotation,
// so the whole block is permuted; every lane keeps its lane index, so shared
// memory accesses stay in the lane's bank. The offset is a hash of the lane
// and round: a fixed offset per lane would keep lanes that agree modulo the
// warp count together forever (cuburn's diagonal-shuffle flaw).
FJ_HD FJ_INLINE u32 ring_destination(u32 warp, u32 lane, u32 round, u32 warps, u32 salt) {
    u32 h = lane * 0x9E3779B1u ^ (round + salt) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return (warp + h % warps) % warps;
}

// Palette entry for colour coordinate c (flam3 rect.c): step takes entry
// (int)(c·256) clamped to [0, 255]; linear blends neighbouring entries.
// `palette` holds 256 RGBA entries already scaled by 255.
FJ_HD FJ_INLINE void palette_lookup(const float* palette, float c, bool linear, float out[4]) {
    const float scaled = c * 256.0f;
    int i = (int)scaled;
    if (!linear) {
        i = i < 0 ? 0 : (i > 255 ? 255 : i);
        for (int k = 0; k < 4; ++k) out[k] = palette[4 * i + k];
        return;
    }
    if (i < 0) {
        for (int k = 0; k < 4; ++k) out[k] = palette[k];
        return;
    }
    if (i >= 255) {
        for (int k = 0; k < 4; ++k) out[k] = palette[4 * 255 + k];
        return;
    }
    const float frac = scaled - (float)i;
    for (int k = 0; k < 4; ++k)
        out[k] = palette[4 * i + k] * (1.0f - frac) + palette[4 * (i + 1) + k] * frac;
}

// Histogram cell of a world point, or -1 outside. `camera` is the
// world-to-cell affine of the frame plan (rotation, y down, gutter included).
FJ_HD FJ_INLINE long long camera_cell(const float* camera, float x, float y, int hist_w, int hist_h) {
    const float cx = camera[0] * x + camera[1] * y + camera[2];
    const float cy = camera[3] * x + camera[4] * y + camera[5];
    if (!(cx >= 0.0f && cy >= 0.0f && cx < (float)hist_w && cy < (float)hist_h)) return -1;
    int ix = (int)cx, iy = (int)cy;
    // Float rounding can put a point just below the far edge onto it.
    if (ix >= hist_w) ix = hist_w - 1;
    if (iy >= hist_h) iy = hist_h - 1;
    return (long long)iy * hist_w + ix;
}

}  // namespace fj
