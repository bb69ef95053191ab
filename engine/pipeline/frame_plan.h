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

// flam3-animate's interlaced fields (fields=1): a frame made of two
// renders of half its rows each, the even rows' field and the odd rows'.
enum class Field { Both, Even, Odd };

struct FramePlan {
    int width = 0, height = 0;   // output image (a field's: half the frame's rows)
    int supersample = 1;
    int gutter = 0;              // histogram cells on each side beyond the image
    int de_offset = 0;           // cells skipped by the spatial filter (flam3 de_offset)
    int filter_width = 1;        // the spatial filter's taps per axis
    int hist_width = 0, hist_height = 0;
    // A strip of a frame (band_plan) is the frame's image rows from
    // `first_row` on (`height` of the frame's `frame_height`), drawn from the
    // frame's histogram rows from `hist_row0` on (`hist_height` of them).
    // The camera and the samples stay the frame's. A whole frame: 0,
    // height, 0.
    int first_row = 0, frame_height = 0, hist_row0 = 0;
    double world_to_cell[6] = {1, 0, 0, 0, 1, 0};  // a b c d e f
    double ppux = 0, ppuy = 0;   // pixels per unit (output pixels)
    double pixel_aspect = 1;     // a pixel's width over its height (flam3's pixel_aspect)
    Field field = Field::Both;
    double sample_density = 0;   // quality · 4^zoom
    uint64_t samples = 0;
};

// The pixel aspects plan_frame takes.
inline constexpr double kMinPixelAspect = 0.01, kMaxPixelAspect = 100;

// `quality_override` > 0 replaces the flame's quality; `pixel_aspect`
// (kMinPixelAspect..kMaxPixelAspect) is flam3-render's: ppux is ppu / pixel_aspect, and the spatial
// filter narrows rows by it (post/post_plan.h). A `field` of an even-height
// frame is flam3's (rect.c): half the rows (and samples) at half ppuy, so
// the same picture, moved by -0.5/ppux (even) or +0.5/ppux (odd) along y
// (ppux, not ppuy, as flam3 has it), and the spatial filter's rows
// narrowed by 2. Throws std::runtime_error for values no frame can be
// rendered with. The whole histogram may be larger than any memory: it is
// rendered in strips then (pipeline/strips.h).
FramePlan plan_frame(const Flame& flame, double quality_override = 0, double pixel_aspect = 1,
                     Field field = Field::Both);

// The strip of `frame` (a whole frame's plan) that makes its image rows
// [first_row, first_row + rows). Its histogram holds every cell those
// rows' pixels depend on: the spatial filter's window, widened by the
// gutter, which the density estimator's reach (and the neighbourhood it
// chooses kernels by) never exceeds, and cut at the frame's edges. The
// backends then plot the same hits into those cells as for the whole
// frame, so the strip's pixels are the whole frame's (pipeline/strips.h).
FramePlan band_plan(const FramePlan& frame, int first_row, int rows);

// Cells of a plan's histogram.
double histogram_cells(const FramePlan& plan);

// How far apart, in histogram cells, the points flamejit iterates (floats:
// 24 significant bits) can lie where the picture's coordinates are largest:
// its centre plus the reach of its corners. Deep zooms away from the origin
// (cells per unit times the centre's magnitude near 2^23 or more) put the
// picture's points on a grid this coarse, where flam3's doubles would not.
// `flame` is the frame's (its centre), `plan` its plan.
double point_grid_cells(const Flame& flame, const FramePlan& plan);

}  // namespace fj
