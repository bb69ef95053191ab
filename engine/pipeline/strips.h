// flamejit — frames larger than memory, rendered in strips of rows.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A strip is a band of the image's rows whose histogram holds only the
// cells those rows depend on (band_plan, pipeline/frame_plan.h). Every
// strip iterates all of the frame's samples from the frame's seed, so it
// plots exactly the hits the whole frame plots into its cells: its pixels
// are the whole frame's, and strips meet without seams (flam3 renders its
// strips the same way, each from the same random state). The price is one
// iteration of the frame per strip; the histogram, the post-pass and the
// image never hold more than a strip.
#pragma once

#include <functional>
#include <string>

#include "pipeline/frame_plan.h"

namespace fj {

// The largest histogram one piece of a frame may have: both backends index
// cells with int.
inline constexpr double kMaxHistogramCells = 2147483647.0;

// Strips share the image's rows evenly: each has `rows` or `rows` − 1.
struct StripPlan {
    int count = 1;      // strips; 1: the whole frame at once
    int height = 0;     // the image's rows
    int rows = 0;       // image rows of the tallest strip
    double bytes = 0;   // memory of the largest strip (Backend::frame_bytes)
    double cells = 0;   // histogram cells of the largest strip
    double budget = 0;  // the memory budget it was planned for (0: none)

    int first_row(int index) const { return static_cast<int>(static_cast<long long>(index) * height / count); }
    int rows_of(int index) const { return first_row(index + 1) - first_row(index); }
};

// What a frame (or strip) of a plan takes in memory, in bytes.
using FrameBytes = std::function<double(const FramePlan&)>;

// `requested` > 0: that many strips; 0: as few as keep every strip within
// `budget` bytes (no bound when `budget` is 0). Throws InputError when more
// strips are asked than the image has rows (as flam3 refuses them), when the
// strips' histograms must hold more than kMaxHistogramCells, or when no
// strips fit the budget, not even of one row.
StripPlan plan_strips(const FramePlan& frame, int requested, double budget, const FrameBytes& bytes);

// Bytes as people read them: "512 MiB", "3.2 GiB".
std::string memory_size(double bytes);

}  // namespace fj
