// flamejit — the boundary between the host post-pass and its nvcc-compiled half.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// post_cuda.cu is compiled by nvcc as C++17 while the engine's headers are
// C++20, so the .cu sees only this header: plain values, already converted
// from the PostPlan by post_cuda_host.cpp (which implements post_process_cuda).
#pragma once

#include <cstddef>

#include "post/density.h"
#include "post/tone.h"

namespace fj {

struct CudaPostJob {
    int width = 0, height = 0, supersample = 1;
    int hist_width = 0, hist_height = 0, de_offset = 0;
    int filter_top = 0;                    // PostPlan::filter_top (de_offset but in a strip)
    float k1 = 0, k2 = 0;
    bool density_estimation = false;
    DensitySelect select{};
    const float* bank_coefs = nullptr;     // host: kernel_count × (2·half+1)²
    size_t bank_coef_count = 0;
    const int* bank_radius = nullptr;      // host: splat radius per kernel
    int kernel_count = 0;
    const double* filter_coefs = nullptr;  // host: filter_width²
    int filter_width = 0;
    ToneParamsT<double> tone{};            // filter and tone run in double, as on the CPU; its
                                           // curves are set on the device from `curves`
    const float* curves = nullptr;         // host: FJ_CURVE_ENTRIES × 4 (color_curves.h), or null
    bool earlyclip = false;                // tone-map cells before the filter (PostPlan)
    bool linear = false;                   // the filtered values, not toned (PostPlan)
    bool compact = true;                   // PostPlan::compact_cells
};

struct CudaPostTotals {
    long long visited_cells = 0;   // from cub::DeviceSelect (-1 without the compaction)
    double alpha_sum = 0;          // from cub::DeviceReduce
};

// The device buffers of one pass: `accum` hist_width × hist_height float4;
// `counts` one float per cell (flam3's count channel) or null, when alpha/255
// counts the hits; `passes` float4 per cell holding the log-scaled sum of a
// frame's earlier passes, or null for a frame of one pass.
struct CudaPostBuffers {
    const float* accum = nullptr;
    const float* counts = nullptr;
    float* passes = nullptr;
};

// Runs the post-pass on `stream` (a CUstream/cudaStream_t, 0 = default) over
// the device buffers and writes width·height RGBA floats to host_rgba. The
// pass is added into `passes` when given (which is then overwritten).
// Throws std::runtime_error naming the failed CUDA call.
void run_post_cuda(const CudaPostJob& job, const CudaPostBuffers& buffers, void* stream, float* host_rgba,
                   CudaPostTotals* totals);
// Log-scales (density-estimates) one pass and adds it into buffers.passes.
void run_scale_pass_cuda(const CudaPostJob& job, const CudaPostBuffers& buffers, void* stream);

}  // namespace fj
