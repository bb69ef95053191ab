// flamejit — the spatial filter applied at one output pixel.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 3.1.1 end of render_rectangle (reference/flam3-behaviour.md §3.9):
// output pixel (px, py) is the filter-weighted sum of the log-scaled
// accumulator over a width² window starting at cell
// (de_offset + px·os, de_offset + py·os).
#pragma once

#include "fj_device.h"

namespace fj {

// `scaled` is the log-scaled (or DE-splatted) accumulator, hist_w cells wide,
// RGBA per cell; `coefs` width × width, row-major (row = y).
FJ_HD FJ_INLINE void filter_pixel(const float* scaled, int hist_w, int x0, int y0,
                                  const float* coefs, int width, float out[4]) {
    float r = 0.0f, g = 0.0f, b = 0.0f, a = 0.0f;
    for (int j = 0; j < width; ++j) {
        const float* row = scaled + 4 * ((long long)(y0 + j) * hist_w + x0);
        const float* k = coefs + j * width;
        for (int i = 0; i < width; ++i) {
            float w = k[i];
            r += w * row[4 * i + 0];
            g += w * row[4 * i + 1];
            b += w * row[4 * i + 2];
            a += w * row[4 * i + 3];
        }
    }
    out[0] = r;
    out[1] = g;
    out[2] = b;
    out[3] = a;
}

}  // namespace fj
