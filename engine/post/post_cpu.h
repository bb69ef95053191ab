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

// `accum` is hist_width × hist_height RGBA floats, row-major; `threads` ≤ 0
// means one per hardware thread. Throws std::runtime_error when the plan's
// sizes do not fit together.
ImageF post_process_cpu(const PostPlan& plan, const float* accum, int threads,
                        PostStats* stats = nullptr);

// Checks that the plan's histogram, filter and offsets fit together (used by
// both backends before touching memory).
void check_post_plan(const PostPlan& plan);

}  // namespace fj
