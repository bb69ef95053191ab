// flamejit — one flame or frame to one image: plan, iterate each time sample, post-process.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/renderer.h"

#include <algorithm>
#include <chrono>
#include <exception>
#include <future>
#include <mutex>

#include "atomic_file.h"
#include "codegen/param_layout.h"
#include "codegen/switch_kernel.h"
#include "cpu/cpu_backend.h"
#include "cuda/cuda_backend.h"
#include "cuda/driver_api.h"
#include "cuda/kernel_cache.h"
#include "elapsed.h"
#include "errors.h"
#include "iterate/common.h"
#include "post/post_plan.h"

namespace fj {

bool parse_backend_choice(const std::string& text, BackendChoice* out) {
    if (text == "auto") *out = BackendChoice::Auto;
    else if (text == "cuda") *out = BackendChoice::Cuda;
    else if (text == "cpu") *out = BackendChoice::Cpu;
    else return false;
    return true;
}

Renderer::Renderer(const RenderOptions& options) : options_(options) {
    std::string why_not;
    const bool want_cuda = options.backend != BackendChoice::Cpu;
    if (options.devices.empty()) throw std::logic_error("RenderOptions::devices is empty");
    if (want_cuda && cuda_device_available(&why_not)) {
        CudaBackendOptions cuda;
        cuda.device = options.devices[0];
        cuda.arch = options.kernel.arch;
        cuda.max_blocks_per_sm = options.max_blocks_per_sm;
        cuda.start_linked = options.kernel.start_linked;
        kernel_cache_ = std::make_shared<KernelCache>();
        cuda.kernel_cache = kernel_cache_;  // one for all the devices
        try {
            backend_ = make_cuda_backend(cuda);
        } catch (const InputError&) {
            throw;
        } catch (const std::exception& e) {
            why_not = e.what();  // NVRTC unusable: as good as no device
        }
        // Devices asked for by name: a failure of any of them is the render's.
        for (size_t i = 1; backend_ && i < options.devices.size(); ++i) {
            cuda.device = options.devices[i];
            helpers_.push_back(make_cuda_backend(cuda));
        }
    }
    if (!backend_) {
        if (options.backend == BackendChoice::Cuda)
            throw std::runtime_error("CUDA backend requested but unavailable: " + why_not);
        if (want_cuda) {
            fall_back_to_cpu(why_not);
            return;
        }
        backend_ = make_cpu_backend({options.threads});
    }
    backend_name_ = backend_->name();
}

template <typename Body>
auto Renderer::falling_back(const Body& body) -> decltype(body()) {
    // A device that cannot make its context or hold a frame before any
    // frame rendered on it is as good as none.
    if (options_.backend != BackendChoice::Auto || backend_name_ != "cuda" || cuda_proven_) return body();
    try {
        return body();
    } catch (const CudaError& e) {
        fall_back_to_cpu(e.what());
    }
    return body();
}

void Renderer::fall_back_to_cpu(const std::string& why) {
    // Compiles ahead (compile_ahead) may be using the backend about to go.
    std::unique_lock lock(backends_mutex_);
    helpers_.clear();
    backend_ = make_cpu_backend({options_.threads});
    backend_name_ = backend_->name();
    fallback_reason_ = why;
    if (options_.on_cpu_fallback) options_.on_cpu_fallback(why);
}

Renderer::~Renderer() = default;

uint64_t Renderer::kernels_compiled() const { return kernel_cache_ ? kernel_cache_->compiles() : 0; }

bool Renderer::compile_ahead(const KernelKey& key, const ParamLayout& layout) {
    std::shared_lock lock(backends_mutex_);
    if (backend_name_ != "cuda") return false;
    backend_->prepare_ahead(key, layout);
    for (auto& helper : helpers_) helper->prepare_ahead(key, layout);
    return true;
}

FrameOptions Renderer::frame_options() const {
    FrameOptions f;
    f.quality = options_.quality;
    f.pixel_aspect = options_.pixel_aspect;
    f.kernel = options_.kernel;
    // The sorted exchange has been measured against the ring on the CPU only
    // (benchmarks/README.md, "The sorted exchange"); on a GPU the ring stays
    // until it is measured there.
    f.kernel.sort_idle_frames = options_.kernel.sort_idle_frames && backend_name_ == "cpu";
    return f;
}

RenderResult Renderer::render(const Flame& flame) {
    const auto t0 = std::chrono::steady_clock::now();
    const PreparedFrame frame = prepare_still(flame, frame_options());
    RenderResult result = render(frame, options_.seed);
    result.seconds = seconds_since(t0);
    return result;
}

PreparedFrame check_still(const Flame& flame, const FrameOptions& options) {
    PreparedFrame frame = prepare_still(flame, options);
    try {
        make_post_plan(frame.post_flame, frame.plan);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
    return frame;
}

PreparedFrame Renderer::check(const Flame& flame) const { return check_still(flame, frame_options()); }

namespace {

// Resumed runs draw streams sample_seed(seed, kResumedRuns + runs so far):
// far past any time sample's. Device i > 0 of several draws its share of a
// call's samples from sample_seed(the call's seed, kDeviceShares + i).
constexpr size_t kResumedRuns = size_t(1) << 40;
constexpr size_t kDeviceShares = size_t(1) << 41;

// A stream per time sample: splitmix64 of the frame seed and the index.
uint64_t sample_seed(uint64_t seed, size_t index) {
    uint64_t z = seed + 0x9E3779B97F4A7C15ull * (index + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// The post-pass plan of one pass: the frame's (tone, filter) with the pass's
// k1, k2 and density estimator. `frame_post` holds the bank of the frame's
// post flame; a pass whose estimator differs gets its own.
PostPlan pass_post_plan(const PostPlan& frame_post, const Flame& post_flame, const FramePass& pass,
                        double k2_scale) {
    PostPlan post = frame_post;
    post.k1 = pass.k1;
    post.k2 = pass.k2 * k2_scale;
    if (pass.estimator_radius != post_flame.estimator_radius || pass.estimator_minimum != post_flame.estimator_minimum ||
        pass.estimator_curve != post_flame.estimator_curve) {
        try {
            post.density = pass.estimator_radius > 0 ? make_density_bank(pass.estimator_radius, pass.estimator_minimum,
                                                                         pass.estimator_curve, post.supersample)
                                                     : DensityBank{};
        } catch (const std::runtime_error& e) {
            throw InputError(e.what());
        }
    }
    if (post.density.kernel_count > 0) post.density.curve = pass.select_curve;
    return post;
}

}  // namespace

RenderResult Renderer::render(const PreparedFrame& frame, uint64_t seed) {
    return render(frame, seed, nullptr, nullptr);
}

RenderResult Renderer::render(const PreparedFrame& frame, uint64_t seed, const RenderState* resume,
                              RenderState* save) {
    if (histogram_cells(frame.plan) > kMaxHistogramCells)
        throw InputError("histogram of " + std::to_string(frame.plan.hist_width) + "x" +
                         std::to_string(frame.plan.hist_height) + " cells is too large for one piece (size " +
                         std::to_string(frame.plan.width) + "x" + std::to_string(frame.plan.height) +
                         ", supersample " + std::to_string(frame.plan.supersample) + "): render it in strips");
    return render_plan(frame, seed, frame.plan, resume, save);
}

StripPlan Renderer::plan_strips(const PreparedFrame& frame, int requested, double budget, int state_copies) {
    if (budget <= 0) {
        // Every device holds the whole histogram of a strip.
        budget = 0.9 * falling_back([&] {
            double least = backend_->memory_for_frames();
            for (auto& helper : helpers_) least = std::min(least, helper->memory_for_frames());
            return least;
        });
    }
    const bool counts = frame.key.density_count;
    // Render states are host memory: the budget's on the CPU backend only.
    const double state_bytes_per_cell =
        backend_name_ == "cpu" ? state_copies * (4.0 + (counts ? 1 : 0)) * sizeof(float) : 0.0;
    return fj::plan_strips(frame.plan, requested, budget, [&](const FramePlan& plan) {
        return backend_->frame_bytes(plan, counts) + state_bytes_per_cell * histogram_cells(plan);
    });
}

RenderResult Renderer::render_strip(const PreparedFrame& frame, uint64_t seed, const StripPlan& strips, int index,
                                    const RenderState* resume, RenderState* save) {
    if (strips.count == 1) return render(frame, seed, resume, save);
    if (index < 0 || index >= strips.count) throw std::logic_error("render_strip: no such strip");
    return render_plan(frame, seed, band_plan(frame.plan, strips.first_row(index), strips.rows_of(index)), resume,
                       save);
}

RenderResult Renderer::render_plan(const PreparedFrame& frame, uint64_t seed, const FramePlan& plan,
                                   const RenderState* resume, RenderState* save) {
    RenderResult result = falling_back([&] { return render_plan_once(frame, seed, plan, resume, save); });
    cuda_proven_ = backend_name_ == "cuda";
    return result;
}

RenderResult Renderer::render_plan_once(const PreparedFrame& frame, uint64_t seed, const FramePlan& plan,
                                        const RenderState* resume, RenderState* save) {
    const auto t0 = std::chrono::steady_clock::now();
    std::string identity;
    if (resume || save) identity = frame_identity(frame, plan);
    if (resume && resume->identity != identity)
        throw InputError("the render state holds another frame: xforms, palette, camera, size, supersample or the "
                         "histogram's margin (filter and estimator radius) differ (the post-pass's other settings "
                         "may change)");
    const auto& registry = VariationRegistry::standard();
    PostPlan post;
    try {
        post = make_post_plan(frame.post_flame, plan);
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
    post.transparent = options_.transparent;
    post.earlyclip = options_.earlyclip;
    post.linear = options_.linear;
    if (!options_.emit_cu.empty())
        write_file_atomically(options_.emit_cu,
                              kernel_source(frame.key, frame.layout, registry, SnippetSource::standard()));

    const auto prepare_start = std::chrono::steady_clock::now();
    backend_->prepare(frame.key, frame.layout);
    for (auto& helper : helpers_) helper->prepare(frame.key, frame.layout);
    const double prepare_seconds = seconds_since(prepare_start);
    backend_->begin_frame(plan);
    for (auto& helper : helpers_) helper->begin_frame(plan);
    if (resume) backend_->load_histogram(resume->rgba, resume->counts);
    // A resumed state's samples count towards the frame's (one time sample).
    const uint64_t held = resume ? resume->plotted : 0, asked = resume ? resume->requested : 0;
    RenderResult result;
    const size_t n = frame.samples.size();
    uint64_t frame_samples = 0;
    for (const TimeSample& sample : frame.samples) frame_samples += std::max<uint64_t>(sample.samples, 1);
    const uint64_t wanted = frame_samples;
    frame_samples = wanted > asked ? wanted - asked : 0;
    for (size_t p = 0; p < frame.passes.size(); ++p) {
        const FramePass& pass = frame.passes[p];
        // One call per pass: the backend spreads its time steps over its
        // lanes (IterationRequest::steps).
        IterationRequest req;
        req.flame = &frame.post_flame;
        req.key = &frame.key;
        req.layout = &frame.layout;
        req.plan = &plan;
        for (size_t i = pass.first; i < pass.first + pass.count; ++i)
            req.steps.push_back({&frame.samples[i].params,
                                 resume ? frame_samples : std::max<uint64_t>(frame.samples[i].samples, 1)});
        req.frame_samples = frame_samples;
        req.seed = resume ? sample_seed(seed, kResumedRuns + resume->runs) : n == 1 ? seed : sample_seed(seed, pass.first);
        // flam3 lets chains settle longer when it clips early (rect.c).
        req.fuse = options_.earlyclip ? FJ_FUSE_EARLYCLIP : FJ_FUSE;
        if (options_.progress)
            req.progress = [this, &pass, n](double f) {
                options_.progress((static_cast<double>(pass.first) + f * static_cast<double>(pass.count)) / n);
            };
        const IterationStats stats = req.samples() > 0 ? iterate(req) : IterationStats{};
        add_counts(result.stats, stats);
        // The launch shape is the kernel's, the same for every pass.
        result.stats.registers = stats.registers;
        result.stats.blocks_per_sm = stats.blocks_per_sm;
        result.stats.threads = stats.threads;
        result.stats.cache_slots = stats.cache_slots;
        // k2 was made for the requested samples. Every step gets its share
        // of what was plotted (blocks count their samples), so the weighted
        // counts scale as the totals do.
        const double requested = static_cast<double>(resume ? wanted : req.samples());
        const double plotted = static_cast<double>(held + stats.samples);
        const PostPlan pass_post = pass_post_plan(post, frame.post_flame, pass, plotted > 0 ? requested / plotted : 1.0);
        result.histogram_samples += held + stats.samples;
        result.histogram_bad_values += (resume ? resume->bad_values : 0) + stats.bad_values;
        gather_histograms();
        if (p + 1 < frame.passes.size()) {
            backend_->end_pass(pass_post);
            continue;
        }
        if (save) {
            backend_->save_histogram(&save->rgba, &save->counts);
            save->identity = identity;
            save->hist_width = plan.hist_width;
            save->hist_height = plan.hist_height;
            save->requested = std::max(wanted, asked);
            save->plotted = held + stats.samples;
            save->bad_values = result.histogram_bad_values;
            save->runs = (resume ? resume->runs : 0) + (stats.samples > 0 ? 1 : 0);
            save->streams = resume ? resume->streams : std::vector<uint64_t>{};
            if (stats.samples > 0) save->streams.push_back(req.seed);
        }
        // Iteration is done: a progress display can say the post-pass runs,
        // which may take a while (a wide spatial filter, a large frame).
        if (options_.progress) options_.progress(1.0);
        const auto post_start = std::chrono::steady_clock::now();
        result.image = backend_->post_process(pass_post);
        result.post_seconds = seconds_since(post_start);
    }
    result.prepare_seconds = prepare_seconds;
    result.backend = backend_name_;
    result.shuffle = frame.key.shuffle;
    result.time_samples = static_cast<int>(n);
    result.seconds = seconds_since(t0);
    return result;
}

namespace {

// Share i of n of `total`, the first total % n shares one larger.
uint64_t share_of(uint64_t total, size_t i, size_t n) {
    return total / n + (i < total % n ? 1 : 0);
}

// The devices' counts and threads (their seconds are replaced by the call's).
void add_stats(IterationStats& total, const IterationStats& more) {
    add_counts(total, more);
    total.threads += more.threads;
}

}  // namespace

IterationStats Renderer::iterate(const IterationRequest& request) {
    const size_t n = helpers_.size() + 1;
    // A call too small to give every device some samples of every time
    // step runs on the first alone.
    bool splits = n > 1;
    for (const IterationStep& step : request.steps) splits = splits && step.samples >= n;
    if (!splits) return backend_->iterate(request);

    const auto t0 = std::chrono::steady_clock::now();
    std::vector<IterationRequest> shares(n, request);
    std::mutex progress_lock;
    std::vector<double> done(n, 0.0);
    const double samples = static_cast<double>(request.samples());
    for (size_t i = 0; i < n; ++i) {
        IterationRequest& share = shares[i];
        for (size_t s = 0; s < share.steps.size(); ++s) share.steps[s].samples = share_of(request.steps[s].samples, i, n);
        share.frame_samples = share_of(request.frame_samples, i, n);
        if (i > 0) share.seed = sample_seed(request.seed, kDeviceShares + i);
        if (request.progress)
            share.progress = [&, i, weight = static_cast<double>(share.samples()) / samples](double f) {
                std::lock_guard lock(progress_lock);
                done[i] = f * weight;
                double sum = 0;
                for (double d : done) sum += d;
                request.progress(sum);
            };
    }
    std::vector<std::future<IterationStats>> running;
    for (size_t i = 1; i < n; ++i)
        running.push_back(std::async(std::launch::async, [&, i] { return helpers_[i - 1]->iterate(shares[i]); }));
    IterationStats stats;
    std::exception_ptr failure;
    try {
        stats = backend_->iterate(shares[0]);
    } catch (...) {
        failure = std::current_exception();
    }
    for (auto& device : running) {
        try {
            add_stats(stats, device.get());
        } catch (...) {
            if (!failure) failure = std::current_exception();
        }
    }
    if (failure) std::rethrow_exception(failure);
    stats.seconds = seconds_since(t0);
    return stats;
}

void Renderer::gather_histograms() {
    if (helpers_.empty()) return;
    std::vector<float> rgba, counts, more_rgba, more_counts;
    backend_->save_histogram(&rgba, &counts);
    for (auto& helper : helpers_) {
        helper->save_histogram(&more_rgba, &more_counts);
        if (more_rgba.size() != rgba.size() || (!more_counts.empty() && more_counts.size() * 4 != rgba.size()))
            throw std::logic_error("gather_histograms: the devices' histograms differ in size");
        for (size_t c = 0; c < rgba.size(); ++c) rgba[c] += more_rgba[c];
        if (!more_counts.empty()) {
            counts.resize(more_counts.size(), 0.0f);
            for (size_t c = 0; c < counts.size(); ++c) counts[c] += more_counts[c];
        }
        // Emptied for the frame's next pass; its points go on.
        std::fill(more_rgba.begin(), more_rgba.end(), 0.0f);
        std::fill(more_counts.begin(), more_counts.end(), 0.0f);
        helper->load_histogram(more_rgba, more_counts);
    }
    backend_->load_histogram(rgba, counts);
}

}  // namespace fj
