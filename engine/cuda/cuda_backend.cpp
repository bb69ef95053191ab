// flamejit — the CUDA backend: context, pool, timed launches (kernels: kernel_modules.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/cuda_backend.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <future>
#include <limits>
#include <vector>

#include "cuda/driver_api.h"
#include "cuda/kernel_modules.h"
#include "cuda/nvrtc_api.h"
#include "errors.h"
#include "iterate/common.h"
#include "post/post_cuda.h"

namespace fj {
namespace {

// Each launch aims at this duration: long enough that launch overhead and the
// counter read-back are noise, short enough for smooth progress and to stay
// far from display watchdogs.
constexpr double kTargetLaunchMs = 75;
// The first launch of a frame is a probe: short, so a slow kernel cannot hang
// the first report.
constexpr unsigned int kFirstRounds = 8;
constexpr unsigned int kSeedBlock = 256;
// A frame's grid: lanes plot their share of its samples best when that is
// several thousand, because every settled first chain runs FJ_SETTLE
// unplotted rounds (iterate/common.h); at 8 blocks of 256 per SM, a 1080p
// frame of quality 100 gave each lane 767 samples, and 2 blocks per SM ran
// it 1.07-1.37x faster on an H100 (benchmarks/README.md). So a frame gets
// as many resident blocks per SM as leave each lane kLaneSamples, within
// kMinLanesPerSm (enough warps to hide latency) and the occupancy.
constexpr double kLaneSamples = 3.0 * FJ_SETTLE;
constexpr unsigned int kMinLanesPerSm = 512;

// A device allocation that grows on demand and frees itself.
class DeviceBuffer {
public:
    DeviceBuffer() = default;
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    ~DeviceBuffer() { release(); }

    // Ensures at least `bytes`; contents are lost when it grows.
    void reserve(size_t bytes) {
        if (bytes <= size_) return;
        release();
        CU_CHECK(cuMemAlloc(&ptr_, bytes));
        size_ = bytes;
    }
    void release() {
        // No CU_CHECK: called from destructors, where a dying context is not news.
        if (ptr_) cuda_driver().cuMemFree(ptr_);
        ptr_ = 0;
        size_ = 0;
    }
    CUdeviceptr get() const { return ptr_; }
    size_t size() const { return size_; }

private:
    CUdeviceptr ptr_ = 0;
    size_t size_ = 0;
};

// Where hits go: the kernels' FjAccumTarget parameter (iterate/accumulate.cuh),
// member for member, passed by value.
struct AccumTarget {
    CUdeviceptr grid = 0;
    CUdeviceptr packed = 0;
    CUdeviceptr carries = 0;
    unsigned int cache_bits = 0;
};
static_assert(sizeof(AccumTarget) == 32, "AccumTarget must match the device's FjAccumTarget");

// Counters the iterate kernel adds to: plotted, bad values, idle lane-rounds,
// packed carries (through AccumTarget::carries), blocks that plotted their
// stretch of a call of several time steps.
constexpr int kCounters = 5;
constexpr unsigned int kFlushBlock = 256;

// fj_iterate's time-step arguments (iterate_kernel.cuh).
struct StepsArgs {
    unsigned int stride = 0;  // floats between parameter blocks
    int count = 0;
    int first = 0;            // the frame's number of the call's first step
};

// Device `index` of the driver's, or an input error naming how many there are.
CUdevice checked_device(int index) {
    int count = 0;
    CU_CHECK(cuDeviceGetCount(&count));
    if (index < 0 || index >= count)
        throw InputError("CUDA device " + std::to_string(index) + " does not exist (" + std::to_string(count) +
                         " present)");
    CUdevice device = 0;
    CU_CHECK(cuDeviceGet(&device, index));
    return device;
}

class CudaBackend final : public Backend {
public:
    // The device is checked here; its primary context and the stream are made
    // on a thread of their own (make_context), which on a large GPU takes the
    // driver a good part of a second. Meanwhile this thread loads NVRTC and,
    // through prepare, compiles the first kernel, which needs no context;
    // the first call that does need it waits for it (make_current).
    explicit CudaBackend(const CudaBackendOptions& options)
        : device_(checked_device(options.device)),
          modules_(options.kernel_cache ? options.kernel_cache : std::make_shared<KernelCache>(options.cache_dir),
                   device_, options.arch.empty() ? device_arch(device_) : options.arch, options.max_blocks_per_sm,
                   options.start_linked),
          launch_rounds_(options.launch_rounds) {
        context_made_ = std::async(std::launch::async, [this] { make_context(); });
        try {
            nvrtc();  // fail now, with NVRTC's reason, rather than at the first frame
        } catch (...) {
            release_context();
            throw;
        }
    }

    ~CudaBackend() override { release_context(); }

    // Compiles (or finds in the cache) without the context, so this runs
    // while make_context does, or on another thread while a frame renders.
    void prepare(const KernelKey& key, const ParamLayout& layout) override { modules_.prepare(key, layout, true); }
    void prepare_ahead(const KernelKey& key, const ParamLayout& layout) override {
        modules_.prepare(key, layout, false);
    }

    std::string name() const override { return "cuda"; }

    void wait_for_compiles() { modules_.wait_for_background(); }

    void begin_frame(const FramePlan& plan) override {
        make_current();
        if (plan.hist_width <= 0 || plan.hist_height <= 0)
            throw std::runtime_error("begin_frame: empty histogram");
        hist_w_ = plan.hist_width;
        hist_h_ = plan.hist_height;
        hist_row0_ = plan.hist_row0;
        const size_t cells = static_cast<size_t>(hist_w_) * static_cast<size_t>(hist_h_);
        accum_.reserve(cells * sizeof(float) * 4);
        CU_CHECK(cuMemsetD32Async(accum_.get(), 0, cells * 4, stream_));
        CU_CHECK(cuStreamSynchronize(stream_));
        pool_seeded_ = false;
        round_base_ = 0;
        steps_seen_ = 0;
        // Cleared when first needed: the packed grid when a packed kernel
        // first needs it, the count buffer by the first iterate whose key
        // asks for it, the sum of passes by the first end_pass.
        packed_cleared_ = false;
        packed_flush_ = nullptr;
        counts_ready_ = false;
        passes_ready_ = false;
    }

    IterationStats iterate(const IterationRequest& request) override {
        if (!request.key || !request.layout || request.steps.empty())
            throw std::runtime_error("iterate: request lacks key, layout or time steps");
        const size_t stride = request.steps[0].params ? request.steps[0].params->size() : 0;
        for (const IterationStep& step : request.steps)
            if (!step.params || step.params->size() != stride || stride == 0)
                throw std::runtime_error("iterate: time steps need parameter blocks of one layout");
        const uint64_t samples = request.samples();
        if (samples == 0) throw std::runtime_error("iterate: no samples requested");
        if (request.steps.size() > 1 && !request.key->time_steps)
            throw std::runtime_error("iterate: several time steps need a kernel key with time_steps");
        if (hist_w_ == 0) throw std::runtime_error("iterate: begin_frame was not called");
        make_current();
        const auto start = std::chrono::steady_clock::now();
        const LoadedKernel* kernel = &modules_.load(*request.key, *request.layout);
        if (request.fuse < 0 || request.fuse > 100000) throw std::runtime_error("iterate: fuse must be in 0..100000");
        // How many plotted steps each lane will run in the frame decides the
        // grid and the share of fresh first chains (fj::fresh_chain_fraction,
        // iterate/common.h).
        const uint64_t frame_samples = std::max(request.frame_samples, samples);
        const unsigned int grid = frame_grid(*kernel, frame_samples);
        const unsigned int pool = grid * kernel->block;
        prepare_pool(pool, grid, request.seed, *kernel,
                     fj::fresh_chain_fraction(static_cast<float>(static_cast<double>(frame_samples) / pool)),
                     request.fuse);
        // The rounds from the frame's start through this call's samples, as
        // the CPU backend plans them: lanes plot nothing during their fuse
        // and, settled ones, FJ_SETTLE rounds more, so a call of fewer
        // samples than lanes needs many more rounds than samples / pool (a
        // nearly empty frame ran its ~1000 settling rounds one launch each).
        // Under warp-uniform xaos a lane moves once per M rounds on average.
        planned_per_lane_ += static_cast<double>(samples) / pool;
        const double lazy = rounds_per_step(*request.flame, *request.key);
        const double through_rounds = std::ceil(
            fresh_lane_rounds(static_cast<float>(planned_per_lane_), fresh_share_, request.fuse) * lazy);
        if (request.key->density_count && !counts_ready_) {
            const size_t cells = static_cast<size_t>(hist_w_) * static_cast<size_t>(hist_h_);
            counts_.reserve(cells * sizeof(float));
            CU_CHECK(cuMemsetD32Async(counts_.get(), 0, cells, stream_));
            counts_ready_ = true;
        }

        // The steps' parameter blocks one after another, and where each
        // step's samples end on the call's line.
        std::vector<float> params;
        std::vector<unsigned long long> ends;
        params.reserve(stride * request.steps.size());
        for (const IterationStep& step : request.steps) {
            params.insert(params.end(), step.params->begin(), step.params->end());
            ends.push_back((ends.empty() ? 0 : ends.back()) + step.samples);
        }
        params_.reserve(params.size() * sizeof(float));
        CU_CHECK(cuMemcpyHtoDAsync(params_.get(), params.data(), params.size() * sizeof(float), stream_));
        step_ends_.reserve(ends.size() * sizeof(unsigned long long));
        CU_CHECK(cuMemcpyHtoDAsync(step_ends_.get(), ends.data(), ends.size() * sizeof(unsigned long long), stream_));
        CU_CHECK(cuMemsetD32Async(block_plotted_.get(), 0, 2 * static_cast<size_t>(grid), stream_));
        counters_.reserve(kCounters * sizeof(unsigned long long));
        CU_CHECK(cuMemsetD32Async(counters_.get(), 0, 2 * kCounters, stream_));
        prepare_packed(*kernel);
        StepsArgs steps_args;
        steps_args.stride = static_cast<unsigned int>(stride);
        steps_args.count = static_cast<int>(request.steps.size());
        steps_args.first = static_cast<int>(steps_seen_);
        steps_seen_ += request.steps.size();
        // Time steps: blocks count their samples and stop at their
        // stretch's end, so the call is done when every block is.
        const bool spans = request.key->time_steps;
        const auto done = [&](const unsigned long long* c) { return spans ? c[4] >= grid : c[0] >= samples; };

        IterationStats stats;
        // plotted, bad, idle lane-rounds, carries, finished blocks
        unsigned long long host_counters[kCounters] = {0, 0, 0, 0, 0};
        // The rounds a launch may run, the first too (a small call may ask
        // for less than a sample per lane): what the samples left need at
        // one per lane, which never passes the round where the call's
        // samples are plotted; and until the call plots its first sample,
        // what the chains need to reach them (which may pass that round by
        // a little, but a call whose lanes plot nothing for a while asks for
        // little: its first plotting rounds reach its samples anyway).
        const auto rounds_needed = [&](uint64_t left, uint64_t plotted) {
            const double by_samples = std::ceil(static_cast<double>(left) / pool);
            return plotted > 0 ? by_samples : std::max(by_samples, through_rounds - static_cast<double>(round_base_));
        };
        unsigned int rounds = next_rounds(launch_rounds_ ? launch_rounds_ : kFirstRounds, -1.0, rounds_needed(samples, 0));
        unsigned long long unplotted_rounds = 0;
        while (!done(host_counters)) {
            const unsigned long long plotted_before = host_counters[0];
            const auto launch_start = std::chrono::steady_clock::now();
            launch_iterate(*kernel, grid, steps_args, rounds, request.fuse);
            ++stats.launches;
            if (kernel->stand_in) ++stats.stand_in_launches;
            CU_CHECK(cuMemcpyDtoHAsync(host_counters, counters_.get(), sizeof host_counters, stream_));
            CU_CHECK(cuStreamSynchronize(stream_));
            const double ms = std::chrono::duration<double, std::milli>(
                                  std::chrono::steady_clock::now() - launch_start)
                                  .count();
            round_base_ += rounds;
            // A genome whose every point blows up would never reach the
            // budget; once the fuse and settling are surely over (lazy
            // xaos lanes settle M times slower), launches that plot
            // nothing end the loop (stats show the shortfall). Counted over
            // consecutive launches, so that fixed short launches stop too.
            unplotted_rounds = host_counters[0] == plotted_before ? unplotted_rounds + rounds : 0;
            if (unplotted_rounds >= FJ_STALL_ROUNDS * lazy) break;
            if (request.progress)
                request.progress(std::min(1.0, static_cast<double>(host_counters[0]) / static_cast<double>(samples)));
            // Blocks that plotted their stretch stop within a launch, so
            // with time steps only the timing bounds its length.
            const uint64_t left = spans ? std::numeric_limits<uint64_t>::max() / 2
                                        : samples - std::min<uint64_t>(samples, host_counters[0]);
            rounds = next_rounds(launch_rounds_ ? launch_rounds_ : rounds, launch_rounds_ ? -1.0 : ms,
                                 rounds_needed(left, host_counters[0]));
            if (kernel->stand_in) kernel = replacement(*kernel, request, grid);
        }
        stats.samples = host_counters[0];
        stats.bad_values = host_counters[1];
        stats.idle_lane_rounds = host_counters[2];
        stats.packed_carries = host_counters[3];
        stats.registers = kernel->registers;
        stats.blocks_per_sm = static_cast<int>(grid / sm_count(*kernel));
        stats.threads = pool;
        stats.cache_slots = kernel->cache_bits ? 1u << kernel->cache_bits : 0u;
        stats.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        return stats;
    }

    ImageF post_process(const PostPlan& post) override {
        if (hist_w_ == 0) throw std::runtime_error("post_process: begin_frame was not called");
        make_current();
        fold_packed();
        CU_CHECK(cuStreamSynchronize(stream_));
        return post_process_cuda(post, frame_buffers(), stream_, nullptr);
    }

    double frame_bytes(const FramePlan& plan, bool counts) const override {
        // The histogram, the post-pass's scaled copy (or the sum of
        // passes) and its list of cells, the count channel, the image.
        // (--accumulate packed adds 8 bytes a cell.)
        const double cells = histogram_cells(plan);
        return cells * (2 * 4 * sizeof(float) + sizeof(int) + (counts ? sizeof(float) : 0)) +
               4.0 * sizeof(float) * plan.width * plan.height;
    }

    double memory_for_frames() override {
        make_current();
        size_t free = 0, total = 0;
        CU_CHECK(cuMemGetInfo(&free, &total));
        const size_t held = accum_.size() + counts_.size() + passes_.size() + packed_.size();
        return static_cast<double>(free) + static_cast<double>(held);
    }

    void save_histogram(std::vector<float>* rgba, std::vector<float>* counts) override {
        *rgba = download_accumulator();
        *counts = download_counts();
    }

    void load_histogram(const std::vector<float>& rgba, const std::vector<float>& counts) override {
        const size_t cells = static_cast<size_t>(hist_w_) * static_cast<size_t>(hist_h_);
        if (hist_w_ == 0 || rgba.size() != 4 * cells || (!counts.empty() && counts.size() != cells))
            throw std::runtime_error("load_histogram: not the histogram of the frame begun");
        make_current();
        CU_CHECK(cuMemcpyHtoDAsync(accum_.get(), rgba.data(), rgba.size() * sizeof(float), stream_));
        if (!counts.empty()) {
            counts_.reserve(cells * sizeof(float));
            CU_CHECK(cuMemcpyHtoDAsync(counts_.get(), counts.data(), cells * sizeof(float), stream_));
            counts_ready_ = true;
        }
        CU_CHECK(cuStreamSynchronize(stream_));
    }

    void end_pass(const PostPlan& post) override {
        if (hist_w_ == 0) throw std::runtime_error("end_pass: begin_frame was not called");
        make_current();
        const size_t cells = static_cast<size_t>(hist_w_) * static_cast<size_t>(hist_h_);
        if (!passes_ready_) {
            passes_.reserve(cells * sizeof(float) * 4);
            CU_CHECK(cuMemsetD32Async(passes_.get(), 0, cells * 4, stream_));
            passes_ready_ = true;
        }
        fold_packed();
        CU_CHECK(cuStreamSynchronize(stream_));
        scale_pass_cuda(post, frame_buffers(), stream_);
        // The next pass starts from an empty histogram, as in flam3.
        CU_CHECK(cuMemsetD32Async(accum_.get(), 0, cells * 4, stream_));
        if (counts_ready_) CU_CHECK(cuMemsetD32Async(counts_.get(), 0, cells, stream_));
        CU_CHECK(cuStreamSynchronize(stream_));
    }

    double atomic_ceiling(const IterationRequest& request, uint64_t adds, const std::vector<uint32_t>& cell_list) {
        if (hist_w_ == 0) throw std::runtime_error("atomic_ceiling: begin_frame was not called");
        make_current();
        const LoadedKernel& kernel = modules_.load(*request.key, *request.layout);
        if (!kernel.atomic_ceiling)
            throw std::runtime_error("atomic_ceiling: the kernel key was made without atomic_ceiling");
        const unsigned long long threads = static_cast<unsigned long long>(kernel.grid) * kernel.block;
        counters_.reserve(kCounters * sizeof(unsigned long long));
        prepare_packed(kernel);
        AccumTarget target = accum_target(kernel);
        unsigned int cells = static_cast<unsigned int>(static_cast<size_t>(hist_w_) * hist_h_);
        for (uint32_t cell : cell_list)
            if (cell >= cells) throw std::logic_error("atomic_ceiling: a listed cell lies outside the frame");
        DeviceBuffer list;
        if (!cell_list.empty()) {
            list.reserve(cell_list.size() * sizeof(uint32_t));
            CU_CHECK(cuMemcpyHtoDAsync(list.get(), cell_list.data(), cell_list.size() * sizeof(uint32_t), stream_));
        }
        CUdeviceptr list_ptr = list.get();
        unsigned int list_size = static_cast<unsigned int>(cell_list.size());
        unsigned int rounds = static_cast<unsigned int>(std::max<uint64_t>(1, adds / threads));
        unsigned long long seed = request.seed;
        void* args[] = {&target, &cells, &list_ptr, &list_size, &rounds, &seed};
        // One warm-up launch, then the timed one. The packed grid's flush is
        // per frame, not per hit, so it stays outside the timing.
        for (int pass = 0; pass < 2; ++pass) {
            const auto t0 = std::chrono::steady_clock::now();
            CU_CHECK(cuLaunchKernel(kernel.atomic_ceiling, kernel.grid, 1, 1, kernel.block, 1, 1,
                                    kernel.dynamic_shared, stream_, args, nullptr));
            CU_CHECK(cuStreamSynchronize(stream_));
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
            if (pass == 1) return static_cast<double>(threads) * rounds / std::max(s, 1e-9);
        }
        return 0;
    }

    std::vector<float> download_accumulator() {
        make_current();
        fold_packed();
        return download(accum_, static_cast<size_t>(hist_w_) * hist_h_ * 4);
    }

    std::vector<float> download_counts() {
        make_current();
        return counts_ready_ ? download(counts_, static_cast<size_t>(hist_w_) * hist_h_) : std::vector<float>();
    }

private:
    // Runs on the context thread: nothing else touches context_ or stream_
    // until context_made_ is waited for, and both stay null on failure.
    void make_context() {
        CUcontext context = nullptr;
        CU_CHECK(cuDevicePrimaryCtxRetain(&context, device_));
        CUstream stream = nullptr;
        try {
            CU_CHECK(cuCtxSetCurrent(context));
            CU_CHECK(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING));
        } catch (...) {
            cuda_driver().cuDevicePrimaryCtxRelease(device_);
            throw;
        }
        context_ = context;
        stream_ = stream;
    }

    // Waits for make_context; its failure is thrown here, to every caller.
    void await_context() {
        if (context_made_.valid()) {
            try {
                context_made_.get();
            } catch (const std::exception& e) {
                context_error_ = e.what();
                throw;
            }
        }
        if (!context_) throw std::runtime_error(context_error_);
    }

    void make_current() {
        await_context();
        CU_CHECK(cuCtxSetCurrent(context_));
    }

    // Everything the device holds for this backend, then the context.
    void release_context() {
        if (context_made_.valid()) context_made_.wait();  // a failed make_context left nothing to free
        if (!context_) return;
        const DriverApi& api = cuda_driver();
        api.cuCtxSetCurrent(context_);
        if (stream_) api.cuStreamSynchronize(stream_);
        accum_.release();
        packed_.release();
        counts_.release();
        passes_.release();
        points_.release();
        rng_.release();
        params_.release();
        step_ends_.release();
        block_plotted_.release();
        block_steps_.release();
        block_rounds_.release();
        counters_.release();
        modules_.unload_all();
        if (stream_) api.cuStreamDestroy(stream_);
        api.cuDevicePrimaryCtxRelease(device_);
        context_ = nullptr;
        stream_ = nullptr;
    }

    std::vector<float> download(const DeviceBuffer& buffer, size_t floats) {
        std::vector<float> host(floats);
        CU_CHECK(cuMemcpyDtoHAsync(host.data(), buffer.get(), floats * sizeof(float), stream_));
        CU_CHECK(cuStreamSynchronize(stream_));
        return host;
    }

    CudaFrameBuffers frame_buffers() {
        CudaFrameBuffers b;
        b.accum = reinterpret_cast<const float*>(accum_.get());
        b.counts = counts_ready_ ? reinterpret_cast<const float*>(counts_.get()) : nullptr;
        b.passes = passes_ready_ ? reinterpret_cast<float*>(passes_.get()) : nullptr;
        return b;
    }

    // Grows the launch towards kTargetLaunchMs (at most 4× per step, so one
    // noisy measurement cannot overshoot far), and never past the rounds
    // the call still `needed`. ms < 0 keeps `rounds` (a fixed launch shape).
    static unsigned int next_rounds(unsigned int rounds, double ms, double needed) {
        const double scale = ms < 0 ? 1.0 : ms > 0 ? std::clamp(kTargetLaunchMs / ms, 0.25, 4.0) : 4.0;
        const double wanted = std::max(1.0, std::floor(rounds * scale));
        return static_cast<unsigned int>(std::clamp(std::min(wanted, needed), 1.0, 1.0e6));
    }

    AccumTarget accum_target(const LoadedKernel& kernel) const {
        AccumTarget t;
        t.grid = accum_.get();
        t.packed = kernel.accumulation == Accumulation::Packed ? packed_.get() : 0;
        t.carries = counters_.get() + 3 * sizeof(unsigned long long);
        t.cache_bits = kernel.cache_bits;
        return t;
    }

    // A packed kernel adds into a grid of 64-bit words beside the float one:
    // allocated and cleared once per frame, folded into the float grid
    // (fold_packed) before anything reads that.
    void prepare_packed(const LoadedKernel& kernel) {
        if (kernel.accumulation != Accumulation::Packed) return;
        const size_t cells = static_cast<size_t>(hist_w_) * static_cast<size_t>(hist_h_);
        if (!packed_cleared_) {
            packed_.reserve(cells * sizeof(unsigned long long));
            CU_CHECK(cuMemsetD32Async(packed_.get(), 0, cells * 2, stream_));
            packed_cleared_ = true;
        }
        packed_flush_ = kernel.packed_flush;
    }

    void fold_packed() {
        if (!packed_flush_) return;
        CUdeviceptr grid = accum_.get(), packed = packed_.get();
        unsigned int cells = static_cast<unsigned int>(static_cast<size_t>(hist_w_) * hist_h_);
        void* args[] = {&grid, &packed, &cells};
        const unsigned int blocks = std::min<unsigned int>((cells + kFlushBlock - 1) / kFlushBlock, 65535u);
        CU_CHECK(cuLaunchKernel(packed_flush_, blocks, 1, 1, kFlushBlock, 1, 1, 0, stream_, args, nullptr));
        // The words are zero now; a later iterate (another pass) adds
        // to them again and sets the flush back.
        packed_flush_ = nullptr;
    }

    // The kernel that a stand-in (KernelModules, starting linked) gives way
    // to once it is compiled, loaded, and able to run the frame's grid with
    // its pool; the stand-in until then. Its hit cache (--accumulate shared)
    // is flushed at each launch's end and its packed words are the same, so
    // the accumulator carries over.
    const LoadedKernel* replacement(const LoadedKernel& current, const IterationRequest& request, unsigned int grid) {
        const LoadedKernel* ready = modules_.upgrade(*request.key, *request.layout);
        if (!ready || ready->block != current.block || grid > ready->grid) return &current;
        prepare_packed(*ready);
        return ready;
    }

    static unsigned int sm_count(const LoadedKernel& kernel) { return kernel.grid / kernel.blocks_per_sm; }

    // The blocks a frame of `frame_samples` iterates with (kLaneSamples).
    static unsigned int frame_grid(const LoadedKernel& kernel, uint64_t frame_samples) {
        if (kernel.fixed_blocks) return kernel.grid;
        const unsigned int sms = sm_count(kernel);
        const double lanes_per_sm = static_cast<double>(frame_samples) / (sms * kLaneSamples);
        const unsigned int fewest = std::max(1u, kMinLanesPerSm / kernel.block);
        const double blocks = std::floor(lanes_per_sm / kernel.block);
        const unsigned int per_sm = static_cast<unsigned int>(
            std::clamp(blocks, static_cast<double>(fewest), static_cast<double>(kernel.blocks_per_sm)));
        return std::min(kernel.grid, per_sm * sms);
    }

    // The pool lives across iterate calls of one frame; a new frame, or a
    // pool or grid larger than the pool's, starts fresh points (and fresh
    // per-block tracks).
    void prepare_pool(unsigned int pool, unsigned int grid, uint64_t seed, const LoadedKernel& kernel,
                      float fresh_fraction, int fuse) {
        if (pool_seeded_ && pool <= pool_size_ && grid <= pool_blocks_) return;
        points_.reserve(static_cast<size_t>(pool) * sizeof(float) * 4);
        rng_.reserve(static_cast<size_t>(pool) * sizeof(unsigned long long));
        CUdeviceptr points = points_.get(), rng = rng_.get();
        unsigned long long seed_arg = seed;
        unsigned int count = pool;
        void* args[] = {&points, &rng, &seed_arg, &count, &fresh_fraction, &fuse};
        CU_CHECK(cuLaunchKernel(kernel.seed, (pool + kSeedBlock - 1) / kSeedBlock, 1, 1,
                                kSeedBlock, 1, 1, 0, stream_, args, nullptr));
        // Per block: samples plotted in the call, the step its points are
        // on (all bits set: -1, none yet), rounds run in the frame.
        const size_t blocks = grid;
        block_plotted_.reserve(blocks * sizeof(unsigned long long));
        block_steps_.reserve(blocks * sizeof(int));
        block_rounds_.reserve(blocks * sizeof(unsigned int));
        CU_CHECK(cuMemsetD32Async(block_steps_.get(), 0xffffffffu, blocks, stream_));
        CU_CHECK(cuMemsetD32Async(block_rounds_.get(), 0, blocks, stream_));
        pool_size_ = pool;
        pool_blocks_ = grid;
        pool_seeded_ = true;
        fresh_share_ = fresh_fraction;
        planned_per_lane_ = 0;
    }

    void launch_iterate(const LoadedKernel& kernel, unsigned int grid, StepsArgs steps, unsigned int rounds, int fuse) {
        CUdeviceptr params = params_.get(), ends = step_ends_.get(), plotted = block_plotted_.get();
        CUdeviceptr on_steps = block_steps_.get(), block_rounds = block_rounds_.get();
        CUdeviceptr points = points_.get(), rng = rng_.get();
        CUdeviceptr counters = counters_.get();
        AccumTarget target = accum_target(kernel);
        // Null unless the kernel was built with FJ_DENSITY_COUNT.
        CUdeviceptr counts = counts_ready_ ? counts_.get() : 0;
        int hist_w = hist_w_, hist_h = hist_h_, hist_row0 = hist_row0_;
        unsigned int round_base = round_base_;
        void* args[] = {&params, &steps.stride, &ends,     &steps.count, &steps.first, &plotted,
                        &on_steps, &block_rounds, &points,   &rng,         &target,      &hist_w,
                        &hist_h,   &hist_row0,    &rounds,   &round_base,  &counters,    &counts, &fuse};
        CU_CHECK(cuLaunchKernel(kernel.iterate, grid, 1, 1, kernel.block, 1, 1, kernel.dynamic_shared,
                                stream_, args, nullptr));
    }

    CUdevice device_ = 0;
    KernelModules modules_;
    CUcontext context_ = nullptr;
    CUstream stream_ = nullptr;
    std::future<void> context_made_;
    std::string context_error_;  // why make_context failed, for every later caller
    unsigned int launch_rounds_ = 0;
    DeviceBuffer accum_, packed_, points_, rng_, params_, step_ends_, block_plotted_, block_steps_,
        block_rounds_, counters_;
    bool packed_cleared_ = false;
    CUfunction packed_flush_ = nullptr;  // set while the packed grid holds hits
    // flam3's count channel (float per cell) and the sum of a frame's
    // finished passes (float4 per cell); both only when a frame needs them.
    DeviceBuffer counts_, passes_;
    bool counts_ready_ = false, passes_ready_ = false;
    int hist_w_ = 0, hist_h_ = 0, hist_row0_ = 0;
    unsigned int pool_size_ = 0, pool_blocks_ = 0;
    bool pool_seeded_ = false;
    unsigned int round_base_ = 0;  // launched rounds of the frame (without time steps)
    // The pool's share of fresh first chains, and the samples per lane its
    // frame's calls have asked for so far (for rounds_needed in iterate).
    float fresh_share_ = 1;
    double planned_per_lane_ = 0;
    uint64_t steps_seen_ = 0;      // the frame's time steps in the calls so far
};

}  // namespace

std::unique_ptr<Backend> make_cuda_backend(const CudaBackendOptions& options) {
    return std::make_unique<CudaBackend>(options);
}

void cuda_wait_for_compiles(Backend& backend) {
    auto* cuda = dynamic_cast<CudaBackend*>(&backend);
    if (!cuda) throw std::runtime_error("cuda_wait_for_compiles: not a CUDA backend");
    cuda->wait_for_compiles();
}

std::vector<float> cuda_download_accumulator(Backend& backend) {
    auto* cuda = dynamic_cast<CudaBackend*>(&backend);
    if (!cuda) throw std::runtime_error("cuda_download_accumulator: not a CUDA backend");
    return cuda->download_accumulator();
}

std::vector<float> cuda_download_counts(Backend& backend) {
    auto* cuda = dynamic_cast<CudaBackend*>(&backend);
    if (!cuda) throw std::runtime_error("cuda_download_counts: not a CUDA backend");
    return cuda->download_counts();
}

double cuda_atomic_ceiling(Backend& backend, const IterationRequest& request, uint64_t adds,
                           const std::vector<uint32_t>& cell_list) {
    auto* cuda = dynamic_cast<CudaBackend*>(&backend);
    if (!cuda) throw std::runtime_error("cuda_atomic_ceiling: not a CUDA backend");
    return cuda->atomic_ceiling(request, adds, cell_list);
}

}  // namespace fj
