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
// RGBA per cell; `coefs` width × width, row-major (row = y). Summed in double
// with double coefficients in flam3's order (tap columns outer, rows inner):
// the outermost taps can be residues below float's range whose sign decides
// whether flam3 draws a far pixel white (post_plan.cpp, tone.h), and the
// double sum feeds the double tone mapping on both backends.
// The sums live in locals: `out` might alias `coefs` as far as a compiler
// knows, which would keep them in memory.
FJ_HD FJ_INLINE void filter_pixel(const float* scaled, int hist_w, int x0, int y0, const double* coefs, int width,
                                  double out[4]) {
    double sum[4] = {0.0, 0.0, 0.0, 0.0};
    for (int i = 0; i < width; ++i)
        for (int j = 0; j < width; ++j) {
            const float* cell = scaled + 4 * ((long long)(y0 + j) * hist_w + x0 + i);
            const double w = coefs[j * width + i];
            for (int c = 0; c < 4; ++c) sum[c] += w * (double)cell[c];
        }
    for (int c = 0; c < 4; ++c) out[c] = sum[c];
}

}  // namespace fj
