// flamejit — how many strips a frame is rendered in.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/strips.h"

#include <algorithm>
#include <cstdio>
#include <string>

#include "errors.h"

namespace fj {
namespace {

// The largest strip of `rows` image rows: a strip clear of the frame's top
// and bottom holds the filter windows of its rows and a gutter on each side
// (band_plan); one at an edge holds less.
FramePlan largest_strip(const FramePlan& frame, int rows) {
    if (rows >= frame.height) return frame;
    FramePlan strip = band_plan(frame, 0, rows);
    const long long span =
        static_cast<long long>(rows - 1) * frame.supersample + frame.filter_width + 2LL * frame.gutter;
    strip.hist_height = static_cast<int>(std::min<long long>(frame.hist_height, span));
    return strip;
}

StripPlan strips_of(const FramePlan& frame, int count, const FrameBytes& bytes) {
    StripPlan plan;
    plan.count = count;
    plan.height = frame.height;
    plan.rows = (frame.height + count - 1) / count;
    const FramePlan largest = largest_strip(frame, plan.rows);
    plan.cells = histogram_cells(largest);
    plan.bytes = bytes(largest);
    return plan;
}

}  // namespace

std::string memory_size(double bytes) {
    const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 4) {
        bytes /= 1024;
        ++unit;
    }
    char text[32];
    std::snprintf(text, sizeof text, unit == 0 || bytes >= 100 ? "%.0f %s" : "%.1f %s", bytes, units[unit]);
    return text;
}

StripPlan plan_strips(const FramePlan& frame, int requested, double budget, const FrameBytes& bytes) {
    if (frame.height != frame.frame_height || frame.hist_row0 != 0)
        throw std::logic_error("plan_strips: the plan is a strip already");
    const std::string image = std::to_string(frame.width) + "x" + std::to_string(frame.height);
    if (requested > frame.height)
        throw InputError("image " + image + " has " + std::to_string(frame.height) + " rows, too few for " +
                         std::to_string(requested) + " strips");
    if (requested > 0) {
        StripPlan plan = strips_of(frame, requested, bytes);
        plan.budget = budget;
        if (plan.cells > kMaxHistogramCells)
            throw InputError("image " + image + " in " + std::to_string(plan.count) +
                             (plan.count == 1 ? " piece" : " strips") + " needs histograms of " +
                             message_number(plan.cells) + " cells, over the 2^31 one piece may have: ask for more strips");
        return plan;
    }
    // Counts that change the rows per strip, fewest strips first.
    for (int count = 1; count <= frame.height;) {
        StripPlan plan = strips_of(frame, count, bytes);
        plan.budget = budget;
        if (plan.cells <= kMaxHistogramCells && (budget <= 0 || plan.bytes <= budget)) return plan;
        if (plan.rows == 1) break;
        count = (frame.height + plan.rows - 2) / (plan.rows - 1);
    }
    const StripPlan thinnest = strips_of(frame, frame.height, bytes);
    if (thinnest.cells > kMaxHistogramCells)
        throw InputError("image " + image + " needs histograms of " + message_number(thinnest.cells) +
                         " cells even in strips of one row, over the 2^31 one piece may have");
    throw InputError("image " + image + " needs " + memory_size(thinnest.bytes) +
                     " even in strips of one row, more than the " + memory_size(budget) +
                     " memory budget");
}

}  // namespace fj
