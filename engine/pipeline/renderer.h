// flamejit — one flame to one image: plan, key, pack, iterate, post-process.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The renderer keeps its backend across flames, so a multi-flame file (or an
// animation) pays device start-up and kernel compiles once per structure.
// A frame (pipeline/prepared_frame.h) is iterated into one accumulator
// pass by pass, one iterate call holding all of a pass's time samples:
// every pass but the last ends with the backend's end_pass, the last with
// the post-pass. Each pass's k2 is scaled by its requested over its plotted
// sample count, because backends plot whole rounds and so a little more
// than asked.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "backend.h"
#include "codegen/kernel_key.h"
#include "pipeline/prepared_frame.h"
#include "pipeline/render_state.h"
#include "pipeline/strips.h"

namespace fj {

class KernelCache;

enum class BackendChoice { Auto, Cuda, Cpu };
bool parse_backend_choice(const std::string& text, BackendChoice* out);

struct RenderOptions {
    BackendChoice backend = BackendChoice::Auto;
    double quality = 0;          // > 0 overrides the genome's
    double pixel_aspect = 1;     // a pixel's width over its height (pipeline/frame_plan.h)
    uint64_t seed = 0;
    int threads = 0;             // CPU backend; 0 = all cores
    // CUDA devices by index. With several, each frame's samples are split
    // evenly between them (a fixed share each, so a seed gives one image),
    // iterated on all at once, and their histograms summed on the first,
    // which runs the post-pass. The CPU backend ignores them.
    std::vector<int> devices = {0};
    KernelOptions kernel;        // shuffle, block size, arch (arch empty = the device's)
    // CUDA: this many resident blocks per SM, at most what the occupancy
    // allows (0: chosen per frame from its samples, cuda_backend.cpp); a
    // fixed pool for sanitizers and launch A/B runs.
    int max_blocks_per_sm = 0;
    std::string emit_cu;         // write the generated kernel source here
    bool transparent = false;    // alpha from density, no background (flam3's transparency=1)
    bool earlyclip = false;      // tone-map before the spatial filter, 100-step fuse (flam3's earlyclip=1)
    bool linear = false;         // images of the filtered values, not tone-mapped (PostPlan::linear)
    // The fraction of the frame iterated; 1 once more, just before the post-pass.
    ProgressFn progress;
    // With BackendChoice::Auto, called with the reason when the renderer
    // uses the CPU instead of CUDA: when it is made (no usable driver,
    // device or NVRTC), or at its first frame (the device's context or
    // memory failed before any frame rendered on it; that frame is then
    // rendered on the CPU).
    std::function<void(const std::string& why)> on_cpu_fallback;
};

struct RenderResult {
    ImageF image;
    IterationStats stats;
    std::string backend;
    double seconds = 0;          // whole render, excluding PNG writing
    // Parts of `seconds`: the kernel's compile or cache load and module load
    // (0 once the backend holds it), and the last pass's post-pass with the
    // image's copy to the host.
    double prepare_seconds = 0, post_seconds = 0;
    int time_samples = 1;
    // The exchange the frame's kernel made (--shuffle auto chooses per frame).
    Shuffle shuffle = Shuffle::Ring;
    // What the image was made of: the samples and bad values plotted into
    // its histogram, a resumed render state's included (stats counts this
    // render's iteration only).
    uint64_t histogram_samples = 0, histogram_bad_values = 0;
};

// `flame` prepared as a still, its post-pass planned: the InputError a render
// of it would throw, without a renderer.
PreparedFrame check_still(const Flame& flame, const FrameOptions& options);

class Renderer {
public:
    explicit Renderer(const RenderOptions& options);
    ~Renderer();
    // Throws InputError for impossible flames, other exceptions for failures.
    RenderResult render(const Flame& flame);
    // Throws the InputError render(flame) would, without rendering; returns
    // the frame prepared with frame_options().
    PreparedFrame check(const Flame& flame) const;
    // A frame prepared with this renderer's frame_options(). Time sample i
    // of a frame with several draws its random numbers from (seed, i).
    // Throws InputError when its histogram is too large for one piece
    // (kMaxHistogramCells): such frames are rendered in strips.
    RenderResult render(const PreparedFrame& frame, uint64_t seed);
    // The same with render state (pipeline/render_state.h), for frames of
    // one pass and one time sample: `resume` (or null) is a state of this
    // frame, whose histogram the render starts from, iterating only the
    // samples the frame asks for beyond the state's, with streams no earlier
    // run drew (none: the state is only tone-mapped again); `save` (or null)
    // receives the histogram before the post-pass. Throws InputError for a
    // state of another frame.
    RenderResult render(const PreparedFrame& frame, uint64_t seed, const RenderState* resume, RenderState* save);
    // The strips `frame` is rendered in (pipeline/strips.h): `requested` > 0
    // of them, or (0) as few as fit in `budget` bytes of the backend's
    // memory (budget 0: 90 % of what it has free now), with room on the CPU
    // backend for `state_copies` render states of a strip (resumed, saved)
    // beside it.
    StripPlan plan_strips(const PreparedFrame& frame, int requested, double budget, int state_copies = 0);
    // Strip `index` of `strips`: the strip's rows of the frame's image, as
    // render(frame, seed) makes them. The progress callback sees each
    // strip's fraction. `resume` and `save` as for render, with states of
    // this strip.
    RenderResult render_strip(const PreparedFrame& frame, uint64_t seed, const StripPlan& strips, int index,
                              const RenderState* resume = nullptr, RenderState* save = nullptr);
    // Builds, on the calling thread, the kernel of a frame this renderer
    // will render later, for every device it renders on, so that the frame
    // finds it built (pipeline/compile_ahead.h). Thread-safe. Returns false,
    // doing nothing, where kernels are not compiled (CPU). Throws what the
    // compile throws.
    bool compile_ahead(const KernelKey& key, const ParamLayout& layout);
    FrameOptions frame_options() const;
    void set_progress(ProgressFn progress) { options_.progress = std::move(progress); }
    // Where the next renders write their kernel source (RenderOptions::emit_cu).
    void set_emit_cu(std::string path) { options_.emit_cu = std::move(path); }
    // The backend in use ("cuda" or "cpu") and, for auto, why CUDA was not used.
    const std::string& backend_name() const { return backend_name_; }
    const std::string& fallback_reason() const { return fallback_reason_; }
    // How many devices each frame's samples are split between (1 on the CPU).
    int device_count() const { return static_cast<int>(helpers_.size()) + 1; }
    // Kernels NVRTC compiled for this renderer (its own and ahead of its
    // frames), finding them neither in memory nor in the kernel cache's folder.
    uint64_t kernels_compiled() const;

private:
    // The frame rendered into the histogram of `plan` (the frame's own or a
    // strip's), with render state (the frame's own plan only).
    RenderResult render_plan(const PreparedFrame& frame, uint64_t seed, const FramePlan& plan,
                             const RenderState* resume = nullptr, RenderState* save = nullptr);
    RenderResult render_plan_once(const PreparedFrame& frame, uint64_t seed, const FramePlan& plan,
                                  const RenderState* resume, RenderState* save);
    // body(); under auto, while no frame has rendered on CUDA, a driver
    // failure in it puts the CPU backend in place of the devices (reported
    // through on_cpu_fallback) and runs body() again.
    template <typename Body>
    auto falling_back(const Body& body) -> decltype(body());
    void fall_back_to_cpu(const std::string& why);
    // One pass's iteration, on every device when there are several.
    IterationStats iterate(const IterationRequest& request);
    // The other devices' histograms added to the first's.
    void gather_histograms();

    RenderOptions options_;
    std::unique_ptr<Backend> backend_;
    // The devices after the first (RenderOptions::devices): they iterate
    // their shares of each pass, the first backend sums and post-processes.
    std::vector<std::unique_ptr<Backend>> helpers_;
    std::string backend_name_;
    std::string fallback_reason_;
    std::shared_ptr<KernelCache> kernel_cache_;  // CUDA: the devices' one
    bool cuda_proven_ = false;  // a frame rendered on CUDA: later failures are errors
    // Held by compile_ahead while it uses the backends, and by the
    // renderer's thread while it replaces them (falling back to the CPU).
    std::shared_mutex backends_mutex_;
};

}  // namespace fj
