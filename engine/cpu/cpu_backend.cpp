// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <thread>

#include "cpu/hit_buffer.h"
#include "cpu/worker.h"
#include "errors.h"
#include "host_info.h"
#include "huge_pages.h"
#include "iterate/common.h"
#include "parallel_for.h"
#include "post/post_cpu.h"

namespace fj {
namespace {

class CpuBackend final : public Backend {
public:
    explicit CpuBackend(const CpuBackendOptions& options) {
        threads_ = options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    }

    std::string name() const override { return "cpu"; }

    void begin_frame(const FramePlan& plan) override {
        hist_w_ = plan.hist_width;
        hist_h_ = plan.hist_height;
        hist_row0_ = plan.hist_row0;
        accum_.reset(static_cast<size_t>(hist_w_) * hist_h_ * 4);
        for (ThreadBuffers& own : thread_buffers_) own.stale = true;
        blocks_.clear();
        steps_seen_ = 0;
        // Made by the first iterate whose key asks for them.
        counts_ = {};
        passes_.clear();
    }

    IterationStats iterate(const IterationRequest& req) override {
        const auto t0 = std::chrono::steady_clock::now();
        if (!req.key || !req.layout || req.steps.empty())
            throw std::runtime_error("iterate: request lacks key, layout or time steps");
        if (req.key->form == KernelForm::Switch)
            throw InputError("the switch kernel (--kernel switch) runs on the CUDA backend only; the CPU backend "
                             "runs specialized code");
        cpu::FrameJob job;
        uint64_t total = 0;
        for (const IterationStep& step : req.steps) {
            if (!step.params || step.params->size() != req.steps[0].params->size())
                throw std::runtime_error("iterate: time steps need parameter blocks of one layout");
            job.step_params.push_back(step.params->data());
            total += step.samples;
            job.step_ends.push_back(total);
        }
        if (total == 0) throw std::runtime_error("iterate: no samples requested");
        if (req.steps.size() > 1 && !req.key->time_steps)
            throw std::runtime_error("iterate: several time steps need a kernel key with time_steps");
        job.first_step = steps_seen_;
        steps_seen_ += req.steps.size();
        job.key = req.key;
        for (size_t i = 0; i < req.key->xforms.size(); ++i)
            job.xforms.push_back(cpu::compile_xform(req.key->xforms[i], req.layout->xforms[i]));
        if (req.key->has_final) job.final_xform = cpu::compile_xform(req.key->final_xform, req.layout->final_xform);
        job.select = req.layout->select;
        job.proposal = req.layout->proposal;
        job.accept = req.layout->accept;
        job.palette = req.layout->palette;
        job.hist_w = hist_w_;
        job.hist_h = hist_h_;
        job.hist_row0 = hist_row0_;
        job.block = req.key->block_size;
        job.fuse = req.fuse;
        // The state word keeps a chain's steps left in 21 bits (iterate/common.h).
        if (req.fuse < 0 || req.fuse > 100000) throw std::runtime_error("iterate: fuse must be in 0..100000");
        job.counts = req.key->density_count;
        if (job.counts && counts_.empty()) counts_.reset(static_cast<size_t>(hist_w_) * hist_h_);
        if (req.key->palette_mode != PaletteMode::Linear) {
            const size_t xforms = job.xforms.size();
            job.palette_words.resize(job.step_params.size() * xforms * 256);
            u64* word = job.palette_words.data();
            for (const float* P : job.step_params)
                for (size_t x = 0; x < xforms; ++x) {
                    const float vis = P[job.xforms[x].base + XformLayout::kVisibility];
                    for (int i = 0; i < 256; ++i) {
                        float amount[4];
                        for (int k = 0; k < 4; ++k) amount[k] = hit_amount(vis, P[job.palette + 4 * i + k]);
                        *word++ = cpu::hit_word(amount);
                    }
                }
        }

        // Under warp-uniform xaos a lane moves once per M rounds on average.
        const double lazy = rounds_per_step(*req.flame, *req.key);
        if (blocks_.empty() || blocks_[0].x.size() != static_cast<size_t>(job.block)) {
            // The frame's first call makes its blocks: up to four per thread
            // balance the work, but no more than give every lane a whole
            // flam3 chain: shorter lanes need settled first chains
            // (iterate/common.h), which cost unplotted rounds.
            // A motion-blurred frame asks for a block per time step where
            // that fits, so that no block has to move between steps.
            const uint64_t frame_samples = std::max(req.frame_samples, total);
            const uint64_t whole_chains = frame_samples / (static_cast<uint64_t>(job.block) * FJ_CHAIN);
            const uint64_t count = std::clamp<uint64_t>(std::max<uint64_t>(whole_chains, req.steps.size()), threads_,
                                                        static_cast<uint64_t>(threads_) * 4);
            fresh_share_ = fresh_chain_fraction(
                static_cast<float>(static_cast<double>(frame_samples) / static_cast<double>(count * job.block)));
            blocks_.clear();
            for (uint64_t i = 0; i < count; ++i)
                blocks_.push_back(cpu::seed_block(i, job.block, req.seed, fresh_share_, job.fuse));
            planned_per_lane_ = 0;
            round_base_ = 0;
        }
        // Later calls (passes) continue the chains: the rounds through the
        // frame's samples so far, less those run, so that settling and fuses
        // spread over the calls as they fall. (With time steps, blocks
        // count their samples instead, and this is the estimate.)
        planned_per_lane_ += static_cast<double>(total) / static_cast<double>(blocks_.size() * job.block);
        const auto through = static_cast<uint64_t>(
            std::ceil(fresh_lane_rounds(static_cast<float>(planned_per_lane_), fresh_share_, job.fuse) * lazy));
        job.rounds = through > round_base_ ? through - round_base_ : 0;
        round_base_ += job.rounds;
        job.stall_rounds = static_cast<uint64_t>(std::ceil(FJ_STALL_ROUNDS * lazy));
        const uint64_t blocks = blocks_.size();
        job.blocks = blocks;

        const size_t cells = accum_.size() / 4;
        job.shared_hist = !private_histograms(cells);
        if (!job.shared_hist) thread_buffers_.resize(threads_);
        std::atomic<uint64_t> rounds_done{0}, plotted{0}, bad{0}, idle{0};
        auto work = [&](int tid) {
            cpu::HitTargets targets;
            targets.grid = accum_.data();
            targets.counts = job.counts ? counts_.data() : nullptr;
            targets.shared = job.shared_hist;
            if (!job.shared_hist) {
                // Made ready (and so first touched) by the thread that uses them.
                ThreadBuffers& own = thread_buffers_[tid];
                ready(own.words, cells, own.stale);
                targets.words = own.words.data();
                if (tid > 0) {
                    ready(own.grid, accum_.size(), own.stale);
                    targets.grid = own.grid.data();
                    ready(own.counts, counts_.size(), own.stale);
                    if (job.counts) targets.counts = own.counts.data();
                }
                own.stale = false;
            }
            cpu::Worker worker(job, targets);
            // A fixed share of the blocks per thread, not first come first
            // served: a cell's float sum past 2^24 rounds, so the image is the
            // same from run to run only if each thread adds the same hits.
            for (uint64_t bi = tid; bi < blocks; bi += threads_) worker.run_block(blocks_[bi], bi, rounds_done);
            worker.flush_all();
            plotted += worker.plotted;
            bad += worker.bad;
            idle += worker.idle;
        };
        std::atomic<bool> finished{false};
        std::atomic<uint64_t> planned{std::max<uint64_t>(1, blocks * job.rounds)};
        std::thread reporter;
        if (req.progress)
            reporter = std::thread([&] {
                while (!finished.load()) {
                    req.progress(std::min(1.0, static_cast<double>(rounds_done.load()) /
                                                   static_cast<double>(planned.load())));
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                }
            });
        // The item is the share: whichever thread runs work(t), share t
        // gets the same blocks and buffers.
        std::exception_ptr failure;
        try {
            const auto run = [&] { parallel_for(threads_, threads_, [&](int share, int) { work(share); }); };
            run();
            // Without time steps every block ran the planned rounds, which
            // plot the call's samples only where no step is retried: flam3
            // counts plotted samples, and a bad value's retries plot nothing
            // (a genome whose xforms often blow up plotted a fraction of its
            // samples, its image that much noisier; its settling lanes, whose
            // retries do not count either, may not have plotted at all), nor
            // do lazy lanes that stay put. More rounds make up the rest, as
            // the CUDA backend launches until its count is reached, each at
            // most what is left at a plot per lane and round: a rate measured
            // while lanes still settle would overshoot many times (a small
            // frame of such a genome plotted 38 times its samples). Every
            // block runs the same rounds, so the image stays the same from
            // run to run; top-ups that plot nothing count towards the stall
            // that ends the call short.
            const uint64_t lanes = blocks * static_cast<uint64_t>(job.block);
            uint64_t unplotted = 0;
            while (!req.key->time_steps && plotted.load() < total && unplotted < job.stall_rounds) {
                const uint64_t before = plotted.load();
                job.rounds = (total - before + lanes - 1) / lanes;
                round_base_ += job.rounds;
                planned += blocks * job.rounds;
                run();
                unplotted = plotted.load() == before ? unplotted + job.rounds : 0;
            }
        } catch (...) {
            failure = std::current_exception();
        }
        finished = true;
        if (reporter.joinable()) reporter.join();
        if (failure) std::rethrow_exception(failure);
        if (req.progress) req.progress(1.0);

        IterationStats stats;
        stats.samples = plotted.load();
        stats.bad_values = bad.load();
        stats.idle_lane_rounds = idle.load();
        stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        return stats;
    }

    void end_pass(const PostPlan& post) override {
        merge_private_histograms();
        if (passes_.empty()) passes_.assign(accum_.size(), 0.0f);
        scale_pass_cpu(post, histogram(), passes_.data(), threads_);
        accum_.clear();
        counts_.clear();
    }

    ImageF post_process(const PostPlan& post) override {
        merge_private_histograms();
        return post_process_cpu(post, histogram(), passes_.empty() ? nullptr : passes_.data(), threads_);
    }

    double frame_bytes(const FramePlan& plan, bool counts) const override {
        const double cells = histogram_cells(plan);
        // The histogram, the post-pass's scaled copy (or the sum of
        // passes), the count channel; the threads' packed words (their
        // float grids take few pages); the image.
        double bytes = cells * (2 * 4 * sizeof(float) + (counts ? sizeof(float) : 0));
        if (private_histograms(static_cast<size_t>(cells))) bytes += cells * sizeof(u64) * threads_;
        return bytes + 4.0 * sizeof(float) * plan.width * plan.height;
    }

    double memory_for_frames() override {
        double held = static_cast<double>(accum_.size() + counts_.size() + passes_.size()) * sizeof(float);
        for (const ThreadBuffers& own : thread_buffers_) held += static_cast<double>(own.words.size()) * sizeof(u64);
        return available_memory() + held;
    }

    void save_histogram(std::vector<float>* rgba, std::vector<float>* counts) override {
        merge_private_histograms();
        rgba->assign(accum_.data(), accum_.data() + accum_.size());
        counts->assign(counts_.data(), counts_.data() + counts_.size());
    }

    void load_histogram(const std::vector<float>& rgba, const std::vector<float>& counts) override {
        const size_t cells = accum_.size() / 4;
        if (rgba.size() != accum_.size() || (!counts.empty() && counts.size() != cells))
            throw std::runtime_error("load_histogram: not the histogram of the frame begun");
        std::copy(rgba.begin(), rgba.end(), accum_.data());
        if (!counts.empty()) {
            counts_.reset(cells);
            std::copy(counts.begin(), counts.end(), counts_.data());
        }
    }

    std::span<const float> accumulator() const {
        merge_private_histograms();
        return {accum_.data(), accum_.size()};
    }

    std::span<const float> counts() const {
        merge_private_histograms();
        return {counts_.data(), counts_.size()};
    }

private:
    // Private histograms avoid contention: each thread's packed words and
    // float grid (the first thread's is the frame's). They live for the
    // frame (a frame of several passes iterates once per pass) and are
    // summed once, before the post-pass. When they would not fit in a
    // sensible share of memory, all threads add atomically into one.
    bool private_histograms(size_t cells) const {
        constexpr size_t kPrivateBudget = size_t(4) << 30;
        return cells * (4 * sizeof(float) * (threads_ - 1) + sizeof(u64) * threads_) <= kPrivateBudget;
    }

    // Sums the threads' buffers into the frame's, each thread a share of
    // the cells. They stay allocated (an animation's next frame reuses them)
    // and are zeroed by their thread when next used.
    void merge_private_histograms() const {
        std::vector<const ThreadBuffers*> pending;
        for (ThreadBuffers& own : thread_buffers_)
            if (!own.stale) pending.push_back(&own);
        if (pending.empty()) return;
        const size_t cells = accum_.size() / 4;
        auto merge = [&](size_t begin, size_t end) {
            for (const ThreadBuffers* own : pending) {
                // A thread's float grid takes only spills and hits that do
                // not pack, so most of it is zero pages: adding only what is
                // there leaves the frame's empty cells untouched.
                if (own->grid.size() == accum_.size())
                    for (size_t i = 4 * begin; i < 4 * end; ++i)
                        if (own->grid[i] != 0.0f) accum_[i] += own->grid[i];
                if (own->counts.size() == counts_.size() && !counts_.empty())
                    for (size_t i = begin; i < end; ++i) counts_[i] += own->counts[i];
                for (size_t i = begin; i < end; ++i) {
                    u64 word = own->words[i];
                    if (word) cpu::spill_word(word, &accum_[4 * i]);
                }
            }
        };
        const size_t share = (cells + threads_ - 1) / threads_;
        parallel_for(threads_, threads_, [&](int t, int) {
            merge(std::min(cells, t * share), std::min(cells, (t + 1) * share));
        });
        for (ThreadBuffers& own : thread_buffers_) own.stale = true;
    }

    // Sized to n and zero: a stale buffer's contents must go, a new or
    // already cleared one is zero.
    template <class T>
    static void ready(ZeroedArray<T>& v, size_t n, bool stale) {
        if (v.size() != n || stale) v.reset(n);
    }

    HistogramView histogram() const { return {accum_.data(), counts_.empty() ? nullptr : counts_.data()}; }

    int threads_ = 1;
    int hist_w_ = 0, hist_h_ = 0, hist_row0_ = 0;
    // Summed into accum_ when it is read; mutable so that reading is const.
    mutable ZeroedArray<float> accum_;
    // flam3's count channel, one float per cell, for frames whose key asks
    // for it (else empty).
    mutable ZeroedArray<float> counts_;
    // A thread's private accumulation: its packed words (cpu/hit_buffer.h)
    // and, for all but the first thread, which adds into accum_ and counts_,
    // its own float grid and count buffer.
    struct ThreadBuffers {
        ZeroedArray<u64> words;
        ZeroedArray<float> grid;
        ZeroedArray<float> counts;
        bool stale = true;  // merged into accum_ already, or left from an earlier frame
    };
    mutable std::vector<ThreadBuffers> thread_buffers_;
    // The frame's blocks of points, made by its first iterate call, and the
    // rounds they have run (the exchanges' round numbers go on from there).
    std::vector<cpu::Block> blocks_;
    uint64_t round_base_ = 0;
    // The frame's time steps in the calls so far (FrameJob::first_step).
    uint64_t steps_seen_ = 0;
    // The frame's share of fresh first chains, and the mean samples per lane
    // its calls have asked for so far.
    float fresh_share_ = 1.0f;
    double planned_per_lane_ = 0;
    // The log-scaled sum of the frame's finished passes (empty for one pass).
    std::vector<float> passes_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const CpuBackendOptions& options) {
    return std::make_unique<CpuBackend>(options);
}

std::span<const float> cpu_accumulator(const Backend& backend) {
    const auto* cpu = dynamic_cast<const CpuBackend*>(&backend);
    if (!cpu) throw std::runtime_error("cpu_accumulator: not a CPU backend");
    return cpu->accumulator();
}

std::span<const float> cpu_counts(const Backend& backend) {
    const auto* cpu = dynamic_cast<const CpuBackend*>(&backend);
    if (!cpu) throw std::runtime_error("cpu_counts: not a CPU backend");
    return cpu->counts();
}

}  // namespace fj
