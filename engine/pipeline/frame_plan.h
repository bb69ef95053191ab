// flamejit — the geometry and sample budget of one frame.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 3.1.1 rect.c semantics: the histogram is supersample× the image plus a
// gutter wide enough for the spatial filter and density estimation; the camera
// maps world coordinates to histogram cells with +y pointing down and the
// rotation about the centre; samples = quality · 4^zoom · W · H.
#pragma once

#include <cstdint>

#include "genome/flame.h"

namespace fj {

struct FramePlan {
    int width = 0, height = 0;   // output image
    int supersample = 1;
    int gutter = 0;              // histogram cells on each side beyond the image
    int de_offset = 0;           // cells skipped by the spatial filter (flam3 de_offset)
    int hist_width = 0, hist_height = 0;
    double world_to_cell[6] = {1, 0, 0, 0, 1, 0};  // a b c d e f
    double ppux = 0, ppuy = 0;   // pixels per unit (output pixels)
    double sample_density = 0;   // quality · 4^zoom
    uint64_t samples = 0;
};

// `quality_override` > 0 replaces the flame's quality. Throws
// std::runtime_error for sizes no memory could hold.
FramePlan plan_frame(const Flame& flame, double quality_override = 0);

}  // namespace fj
