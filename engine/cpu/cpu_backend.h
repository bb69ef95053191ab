// flamejit — the CPU backend: the GPU's iteration semantics on host threads.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Same snippets, same parameter block, same block/warp shape: a block of
// `block_size` lanes in warps of 32, one xform per warp per round (unless the
// key asks for per-thread selection), the ring exchange between the warps of
// a block, a float RGBA histogram. So its statistics, and the shuffle A/B,
// mean the same thing as on the GPU. The key's accumulation mode is a GPU
// strategy: here every mode but `none` adds each hit directly, and renders
// the same image (packed_carries stays 0).
#pragma once

#include <memory>
#include <span>

#include "backend.h"

namespace fj {

struct CpuBackendOptions {
    int threads = 0;  // 0 = all cores
};

std::unique_ptr<Backend> make_cpu_backend(const CpuBackendOptions& options);

// The current frame's accumulator of a CPU backend: hist_width × hist_height
// RGBA floats, row-major. For tests and measurements.
std::span<const float> cpu_accumulator(const Backend& backend);
// Its count buffer (flam3's count channel, one float per cell), empty unless
// the frame's key has density_count.
std::span<const float> cpu_counts(const Backend& backend);

}  // namespace fj
