// flamejit — the two steps every backend implements.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A backend owns one accumulator (the histogram of a frame). `iterate` adds
// samples to it; `post_process` turns it into an image (with `end_pass`
// between the passes of a frame of several). Everything before
// (parsing, key, layout, packing, planning) and after (PNG) is backend-free.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "pipeline/frame_plan.h"
#include "post/post_plan.h"

namespace fj {

// Called now and then during iteration with the fraction done (0..1).
using ProgressFn = std::function<void(double)>;

// One time step of a call: its packed parameter block and its samples.
struct IterationStep {
    const std::vector<float>* params = nullptr;
    uint64_t samples = 0;
};

struct IterationRequest {
    const Flame* flame = nullptr;
    const KernelKey* key = nullptr;
    const ParamLayout* layout = nullptr;
    const FramePlan* plan = nullptr;
    // The time steps this call plots into the accumulator, all of one pass
    // of the frame: one for a still, a motion-blurred frame's steps
    // otherwise. Each block of lanes plots a stretch of them, mostly one
    // step for the whole call (fj::block_span_start, iterate/common.h).
    std::vector<IterationStep> steps;
    // The samples of all the frame's iterate calls, which continue the first
    // call's chains (passes); they set how many lanes start fresh chains
    // (iterate/common.h). 0: this call's samples.
    uint64_t frame_samples = 0;
    uint64_t seed = 0;
    // Unplotted steps at the start of every chain: flam3's 15 (FJ_FUSE), or
    // 100 (FJ_FUSE_EARLYCLIP) when it renders with earlyclip=1.
    int fuse = 15;
    ProgressFn progress;

    uint64_t samples() const {
        uint64_t total = 0;
        for (const IterationStep& step : steps) total += step.samples;
        return total;
    }
};

struct IterationStats {
    uint64_t samples = 0;     // points computed after the fuse
    uint64_t bad_values = 0;  // points reseeded for NaN or |v| > 1e10
    // Lane-rounds past the fuse that stayed put under warp-uniform xaos
    // selection (the lazy steps of param_layout.h); their share of these and
    // `samples` is the cost of that design.
    uint64_t idle_lane_rounds = 0;
    // --accumulate packed (CUDA): adds that carried out of a 16-bit field, so
    // counts were lost (iterate/common.h says when). 0 means the accumulator
    // is exact, as every other mode's.
    uint64_t packed_carries = 0;
    // Launch shape (CUDA; 0 on the CPU): kernel registers per thread,
    // resident blocks per SM from the occupancy API, threads in the pool.
    int registers = 0;
    int blocks_per_sm = 0;
    uint64_t threads = 0;
    // --accumulate shared (CUDA): slots of each block's shared-memory hit
    // cache, sized at load time from the occupancy (0: no room, uncached).
    unsigned int cache_slots = 0;
    // Iterate kernel launches the call took (CUDA; 0 on the CPU), and how
    // many of them ran a linked stand-in while the specialized kernel
    // compiled (CudaBackendOptions::start_linked).
    uint64_t launches = 0;
    uint64_t stand_in_launches = 0;
    double seconds = 0;
};

// Adds what `more` counts (samples, bad values, idle lane-rounds, carries,
// launches and seconds) to `total`; the launch shape stays the caller's.
inline void add_counts(IterationStats& total, const IterationStats& more) {
    total.samples += more.samples;
    total.bad_values += more.bad_values;
    total.idle_lane_rounds += more.idle_lane_rounds;
    total.packed_carries += more.packed_carries;
    total.launches += more.launches;
    total.stand_in_launches += more.stand_in_launches;
    total.seconds += more.seconds;
}

// Post-pass output: RGBA in flam3's output scale (colour 0..255 before
// truncation; alpha 0..1), row 0 at the top.
struct ImageF {
    int width = 0, height = 0;
    std::vector<float> rgba;
};

class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    // The kernel that coming frames will run, named before their begin_frame.
    // A backend that builds kernels may build this one now (the CUDA backend
    // compiles it while the device's context is still being made); iterate
    // builds whatever it was not told of, so calling this is optional.
    virtual void prepare(const KernelKey& key, const ParamLayout& layout) {
        (void)key;
        (void)layout;
    }
    // The same for a kernel needed later (the next flame's, a coming
    // structure of an animation): a backend that would start a frame on a
    // stand-in while its kernel compiles builds the kernel itself.
    virtual void prepare_ahead(const KernelKey& key, const ParamLayout& layout) { prepare(key, layout); }
    // Allocates and clears the accumulator for a frame.
    virtual void begin_frame(const FramePlan& plan) = 0;
    virtual IterationStats iterate(const IterationRequest& request) = 0;
    // Ends one of several passes of a frame (flam3's `passes`): the
    // histogram so far is log-scaled (density-estimated) with the plan's k1,
    // k2 and bank, added to the frame's sum of passes, and cleared for the
    // next pass. post_process then treats the histogram as the last pass.
    virtual void end_pass(const PostPlan& post) = 0;
    virtual ImageF post_process(const PostPlan& post) = 0;

    // Memory, for frames rendered in strips (pipeline/strips.h): what a
    // frame of `plan` would take where the backend keeps its histogram
    // (device memory for CUDA, host memory for the CPU), its post-pass and
    // image included, estimated from its buffers (`counts`: the key keeps
    // flam3's count channel); and what frames may take now: the free
    // memory there, plus what the backend keeps for frames already.
    virtual double frame_bytes(const FramePlan& plan, bool counts) const = 0;
    virtual double memory_for_frames() = 0;

    // Render state (pipeline/render_state.h): the histogram iterated so
    // far, RGBA floats per cell, and the count channel (empty unless the
    // frame keeps one); and a saved one put in place of the cleared
    // histogram of the frame just begun, for iteration to add to.
    virtual void save_histogram(std::vector<float>* rgba, std::vector<float>* counts) = 0;
    virtual void load_histogram(const std::vector<float>& rgba, const std::vector<float>& counts) = 0;
};

}  // namespace fj
