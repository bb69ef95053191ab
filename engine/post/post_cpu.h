// flamejit — the post-pass on the CPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Same computation as post_process_cuda, from the same snippets/post formulas:
// log-density scaling (with density estimation when the plan's bank has more
// than one kernel), the spatial filter down-sampling by the supersample, then
// tone mapping. Deterministic for any thread count.
#pragma once

#include "backend.h"
#include "post/post_plan.h"

namespace fj {

// One pass's histogram: `rgba` is hist_width × hist_height RGBA floats,
// row-major; `counts`, when the frame keeps flam3's count channel
// (KernelKey::density_count), one hit count per cell (255 per full hit),
// else null and density estimation counts hits from alpha.
struct HistogramView {
    const float* rgba = nullptr;
    const float* counts = nullptr;
};

// `threads` ≤ 0 means one per hardware thread. Throws std::runtime_error
// when the plan's sizes do not fit together.
ImageF post_process_cpu(const PostPlan& plan, const float* accum, int threads,
                        PostStats* stats = nullptr);
// The same for the last pass of a frame of several (flam3's passes):
// `passes`, when not null, holds the log-scaled sum of the earlier passes
// (4 floats per cell, from scale_pass_cpu); this pass is added to it (it is
// then overwritten) before the spatial filter.
ImageF post_process_cpu(const PostPlan& plan, const HistogramView& hist, float* passes, int threads,
                        PostStats* stats = nullptr);
// Log-scales (density-estimates) one pass with the plan's k1, k2 and bank
// and adds it into `passes` (4 floats per cell).
void scale_pass_cpu(const PostPlan& plan, const HistogramView& hist, float* passes, int threads);

// Checks that the plan's histogram, filter and offsets fit together (used by
// both backends before touching memory).
void check_post_plan(const PostPlan& plan);

}  // namespace fj
