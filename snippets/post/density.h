// flamejit — per-cell log-density scaling and density-estimation kernel choice.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 3.1.1 rect.c semantics (reference/flam3-behaviour.md §3.7, §3.8).
// The accumulator cell is RGBA where every hit adds visibility·palette·255;
// flam3 keeps a separate hit counter (visibility·255 per hit, blind to
// palette alpha and temporal weights) for choosing the DE kernel. Frames
// whose palette alpha and temporal weights are all 1 get the same counts from
// the alpha channel, so only the others keep a count buffer (KernelKey's
// density_count); the functions below read whichever the frame has.
#pragma once

#include "fj_device.h"

namespace fj {

// flam3 DE_THRESH: kernels for up to this many hits are indexed directly.
#define FJ_DE_THRESHOLD 100.0f

// What choosing a DE kernel needs from the bank.
struct DensitySelect {
    float max_filtered_counts;
    int max_index;        // kernel_count - 1
    float curve;
    int supersample;
    int half_width;       // the bank's square is (2·half_width+1)² coefficients
};

// Log scaling factor of a cell with accumulated alpha `a` (> 0): the cell's
// RGBA times this is k1·ln(1 + k2·a) in alpha.
FJ_HD FJ_INLINE float log_scale_factor(float a, float k1, float k2) {
    return k1 * log1pf(a * k2) / a;
}

// Hit count around (x, y) for kernel selection: the (2s+1)² neighbourhood,
// s = floor(os/2), scaled by (os/(os+1))² for even supersampling so that the
// count per output pixel matches across supersample settings. The caller
// keeps (x, y) at least os-1 cells inside the histogram. `counts` holds 255
// per full hit every `stride` floats: the count buffer (stride 1) or the
// accumulator's alpha (its address + 3, stride 4).
FJ_HD FJ_INLINE float density_around(const float* counts, int stride, int hist_w, int x, int y, int os) {
    int s = os / 2;
    float f = 0.0f;
    for (int dy = -s; dy <= s; ++dy)
        for (int dx = -s; dx <= s; ++dx)
            f += counts[stride * ((long long)(y + dy) * hist_w + (x + dx))] * (1.0f / 255.0f);
    if ((os & 1) == 0) {
        float r = (float)os / (float)(os + 1);
        f *= r * r;
    }
    return f;
}

// Kernel index for a hit count: one kernel per hit up to 100 hits, then
// kernels spaced by (f - 100)^curve; clamped to the narrowest kernel.
FJ_HD FJ_INLINE int de_kernel_index(float f, const DensitySelect& sel) {
    int k;
    if (f > sel.max_filtered_counts)
        k = sel.max_index;
    else if (f <= FJ_DE_THRESHOLD)
        k = (int)ceilf(f) - 1;
    else
        k = 100 + (int)floorf(powf(f - FJ_DE_THRESHOLD, sel.curve));
    if (k > sel.max_index) k = sel.max_index;
    if (k < 0) k = 0;
    return k;
}

// Splat radius in cells of a kernel of width h: offsets |d| ≤ ceil(h) - 1.
FJ_HD FJ_INLINE int de_splat_radius(float h) {
    return (int)ceilf(h) - 1;
}

}  // namespace fj
