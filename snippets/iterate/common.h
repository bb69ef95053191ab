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

// A point's state word: last xform + 1 in bits 0..7 (0 = the chain's first
// step, which selects from row 0), consecutive bad values in bits 8..10,
// fuse rounds left from bit 11.
FJ_HD FJ_INLINE int point_state(int fuse, int bad, int last) { return (fuse << 11) | (bad << 8) | last; }
FJ_HD FJ_INLINE int state_last(int s) { return s & 0xff; }
FJ_HD FJ_INLINE int state_fuse(int s) { return s >> 11; }

// flam3's rules after an xform moved a point (flam3_iterate): a bad value
// becomes a random point and the step is retried (no plot, same previous
// xform) up to 4 times in a row; the 5th is accepted. Returns true when the
// point is past its fuse and is to be plotted; counts bad values.
FJ_HD FJ_INLINE bool settle_point(float& x, float& y, int& state, int applied, Rng& rng,
                                  unsigned long long& bad_values) {
    int fuse = state_fuse(state);
    if (is_bad_point(x, y)) {
        x = rand11(rng);
        y = rand11(rng);
        ++bad_values;
        const int consecutive = ((state >> 8) & 7) + 1;
        if (consecutive < 5) {
            state = point_state(fuse, consecutive, state_last(state));
            return false;
        }
    }
    const bool plot = fuse == 0;
    if (!plot) --fuse;
    state = point_state(fuse, 0, applied + 1);
    return plot;
}

// Index of the xform a draw u in [0,1) selects from a cumulative row.
FJ_HD FJ_INLINE int select_xform(const float* cumulative, int n, float u) {
    int k = 0;
    while (k + 1 < n && !(u < cumulative[k])) ++k;
    return k;
}

// What one hit adds to a channel. flam3 keeps its histogram in unsigned
// integers (bits=33, the default) and truncates after every add, so each
// contribution counts only its integer part. The small margin keeps entries
// meant to be integers (k/255 · 255 computed in float) from losing one.
FJ_HD FJ_INLINE float hit_amount(float visibility, float value) {
    return floorf(visibility * value + 1e-3f);
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

// The slot a thread's point moves to under the full shuffle: a keyed
// pseudo-random permutation of the block, fresh every round. Invertible
// steps on b bits (odd multiply, add, xor-shift) make a bijection of
// [0, 2^b); cycle-walking restricts it to [0, threads) for any block size.
FJ_HD FJ_INLINE u32 full_destination(u32 thread, u32 round, u32 threads, u32 salt) {
    u32 bits = 1;
    while ((1u << bits) < threads) ++bits;
    const u32 mask = (1u << bits) - 1u;
    u32 key = (round + 0x632BE5ABu) * 0x9E3779B1u ^ salt * 0x85EBCA77u;
    u32 x = thread;
    do {
        u32 k = key;
        for (int i = 0; i < 3; ++i) {
            k = k * 0x2C1B3C6Du + 0x297A2D39u;
            x = (x * ((k >> 8) | 1u)) & mask;
            x = (x + (k >> 16)) & mask;
            x ^= x >> (bits / 2 + 1);
        }
    } while (x >= threads);
    return x;
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
