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

// A frame's device buffers: `accum` (float4 per cell); `counts`, one float
// per cell when the frame keeps flam3's count channel (else null: alpha/255
// counts hits); `passes`, float4 per cell, the log-scaled sum of the earlier
// passes of a frame of several (else null).
struct CudaFrameBuffers {
    const float* accum = nullptr;
    const float* counts = nullptr;
    float* passes = nullptr;
};
// The last (or only) pass: scaled, added to `passes` when given (which is
// then overwritten), filtered and tone-mapped.
ImageF post_process_cuda(const PostPlan& plan, const CudaFrameBuffers& buffers, void* stream,
                         PostStats* stats);
// An earlier pass: log-scaled (density-estimated) with the plan's k1, k2
// and bank, and added into buffers.passes.
void scale_pass_cuda(const PostPlan& plan, const CudaFrameBuffers& buffers, void* stream);

}  // namespace fj
