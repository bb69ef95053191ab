// flamejit — the post-pass on the GPU (compiled ahead of time by nvcc, uses CUB).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Host-callable; the implementation lives in post_cuda.cu. The caller owns the
// CUDA context (the device's primary context, current on this thread) and
// passes the accumulator already on the device.
#pragma once

#include "backend.h"
#include "post/post_plan.h"

namespace fj {

// `d_accum` is a device pointer to hist_width × hist_height float4 (RGBA);
// `stream` a CUstream (0 = default). Throws std::runtime_error naming the
// CUDA call on failure.
ImageF post_process_cuda(const PostPlan& plan, const float* d_accum, void* stream);
// The same, also reporting what the pass saw (cells visited, density total),
// both taken from CUB reductions on the device.
ImageF post_process_cuda(const PostPlan& plan, const float* d_accum, void* stream,
                         PostStats* stats);

}  // namespace fj
