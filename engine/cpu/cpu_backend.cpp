// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "codegen/variation_registry.h"
#include "cpu/variation_table.h"
#include "iterate/common.h"
#include "post/post_cpu.h"

namespace fj {
namespace {

constexpr int kLanes = cpu::kLanes;

// One variation call of an xform, resolved from the key once per frame.
struct VariationStep {
    cpu::BatchFn batch;
    int weight_offset;  // absolute, in the parameter block
    int param_offset;
    bool pre;
};

struct XformProgram {
    int base = 0;
    bool has_post = false;
    std::vector<VariationStep> steps;
};

XformProgram compile_xform(const XformShape& shape, const XformLayout& x) {
    const auto& registry = VariationRegistry::standard();
    XformProgram prog;
    prog.base = x.base;
    prog.has_post = shape.has_post;
    for (size_t v = 0; v < shape.variations.size(); ++v) {
        const VariationInfo* info = registry.by_id(shape.variations[v]);
        const cpu::VariationEntry* entry = info ? cpu::find_variation(info->name) : nullptr;
        if (!entry) throw std::runtime_error("variation id " + std::to_string(shape.variations[v]) + " has no host code");
        prog.steps.push_back({entry->batch, x.base + x.weight_offset[v], x.base + x.param_offset[v], info->pre});
    }
    return prog;
}

// The points of one group of lanes that share an xform this round, gathered
// into contiguous arrays so each variation runs as one inlined loop.
struct LaneGroup {
    float x[kLanes], y[kLanes], c[kLanes];
    Rng rng[kLanes];
    int count = 0;
};

void apply_xform(const XformProgram& prog, const float* P, LaneGroup& g) {
    const Affine* aff = reinterpret_cast<const Affine*>(P + prog.base + XformLayout::kAffine);
    float tx[kLanes], ty[kLanes], ox[kLanes], oy[kLanes];
    for (int i = 0; i < g.count; ++i) {
        apply_affine(*aff, g.x[i], g.y[i], tx[i], ty[i]);
        ox[i] = 0.0f;
        oy[i] = 0.0f;
    }
    for (const auto& s : prog.steps) {
        if (!s.pre || P[s.weight_offset] == 0.0f) continue;  // weight 0: skipped, as flam3 and the kernel do
        // A pre-variation moves the point itself: it reads and writes tx, ty.
        float px[kLanes], py[kLanes];
        std::copy(tx, tx + g.count, px);
        std::copy(ty, ty + g.count, py);
        s.batch({px, py, tx, ty, g.rng, aff, P + s.param_offset, P[s.weight_offset], g.count});
    }
    for (const auto& s : prog.steps)
        if (!s.pre && P[s.weight_offset] != 0.0f)
            s.batch({tx, ty, ox, oy, g.rng, aff, P + s.param_offset, P[s.weight_offset], g.count});
    const float* X = P + prog.base;
    const Affine* post = reinterpret_cast<const Affine*>(X + XformLayout::kPost);
    const float speed = X[XformLayout::kColorSpeed], color = X[XformLayout::kColor];
    for (int i = 0; i < g.count; ++i) {
        if (prog.has_post)
            apply_affine(*post, ox[i], oy[i], g.x[i], g.y[i]);
        else {
            g.x[i] = ox[i];
            g.y[i] = oy[i];
        }
        g.c[i] = speed * color + (1.0f - speed) * g.c[i];
    }
}

// Everything a worker needs for one frame, read-only while iterating.
struct FrameJob {
    const float* P;
    const KernelKey* key;
    std::vector<XformProgram> xforms;
    XformProgram final_xform;
    int select, proposal, accept, palette;  // offsets in the parameter block
    int hist_w, hist_h;
    bool shared_hist;     // all threads add into one histogram atomically
    int block;
    uint64_t rounds;
    uint64_t seed;
    float fresh_fraction;  // first chains that plot after the fuse (iterate/common.h)
    int fuse;              // unplotted steps at each chain's start
    bool counts;           // hits also add to the count buffer (KernelKey::density_count)
};

// One block of lanes: its points and random streams, structure of arrays.
struct Block {
    std::vector<float> x, y, c;
    std::vector<int> state;  // fj::point_state
    std::vector<Rng> rng;
};

class Worker {
public:
    // `counts` is the count buffer when job.counts, else unused.
    Worker(const FrameJob& job, float* hist, float* counts) : job_(job), hist_(hist), counts_(counts) {}

    void run_block(uint64_t block_index, std::atomic<uint64_t>& rounds_done, const std::atomic<bool>& stop) {
        const int T = job_.block;
        Block b;
        b.x.resize(T); b.y.resize(T); b.c.resize(T); b.state.resize(T); b.rng.resize(T);
        for (int i = 0; i < T; ++i) {
            // Same streams and start points as the GPU's fj_seed for this thread index.
            b.rng[i] = make_rng(job_.seed, block_index * T + i);
            b.x[i] = rand11(b.rng[i]);
            b.y[i] = rand11(b.rng[i]);
            b.c[i] = rand01(b.rng[i]);
            b.state[i] = first_chain_state(rand01(b.rng[i]), job_.fresh_fraction, job_.fuse);
        }
        std::vector<float> nx(T), ny(T), nc(T);
        std::vector<int> ns(T);
        for (uint64_t r = 0; r < job_.rounds; ++r) {
            for (int w = 0; w < T / kLanes; ++w) round_of_warp(b, w);
            if (job_.key->shuffle == Shuffle::Ring || job_.key->shuffle == Shuffle::Full) exchange(b, static_cast<uint32_t>(r), static_cast<uint32_t>(block_index), nx, ny, nc, ns);
            if ((r & 63) == 63) {
                rounds_done += 64;
                if (stop.load(std::memory_order_relaxed)) return;
            }
        }
        rounds_done += job_.rounds & 63;
    }

    unsigned long long plotted = 0, bad = 0, idle = 0;

private:
    // Selection as fj_iterate does it: every lane draws, lane 0's draw
    // decides for the warp unless selection is per thread; under xaos the
    // warp draws from the proposal and each lane accepts for its own row.
    void round_of_warp(Block& b, int w) {
        const KernelKey& key = *job_.key;
        const int n = static_cast<int>(job_.xforms.size());
        const int first = w * kLanes;
        const bool uniform = key.shuffle != Shuffle::Divergent;
        int sel[kLanes];
        float warp_u = 0;
        for (int l = 0; l < kLanes; ++l) {
            Rng& rng = b.rng[first + l];
            const float u = rand01(rng);
            if (l == 0) warp_u = u;
            const int last = state_last(b.state[first + l]);
            if (key.xaos && uniform) {
                const int k = select_xform(job_.P + job_.proposal, n, warp_u);
                const bool moves = rand01(rng) < job_.P[job_.accept + last * n + k];
                sel[l] = moves ? k : -1;
                idle += !moves;
            } else {
                const float* S = job_.P + job_.select + (key.xaos ? last * n : 0);
                sel[l] = select_xform(S, n, uniform ? warp_u : u);
            }
        }
        for (int k = 0; k < n; ++k) {
            LaneGroup g;
            int lanes[kLanes];
            for (int l = 0; l < kLanes; ++l)
                if (sel[l] == k) {
                    const int t = first + l;
                    lanes[g.count] = t;
                    g.x[g.count] = b.x[t]; g.y[g.count] = b.y[t]; g.c[g.count] = b.c[t]; g.rng[g.count] = b.rng[t];
                    ++g.count;
                }
            if (g.count == 0) continue;
            apply_xform(job_.xforms[k], job_.P, g);
            const float vis = job_.P[job_.xforms[k].base + XformLayout::kVisibility];
            for (int i = 0; i < g.count; ++i) {
                const int t = lanes[i];
                b.x[t] = g.x[i]; b.y[t] = g.y[i]; b.c[t] = g.c[i]; b.rng[t] = g.rng[i];
                finish_point(b, t, k, vis);
            }
        }
        flush_hits();
    }

    // Bad values, fuse, final xform and plotting of one point; the same order
    // of operations (and random draws) as fj_iterate.
    void finish_point(Block& b, int t, int applied, float vis) {
        Rng& rng = b.rng[t];
        if (!settle_point(b.x[t], b.y[t], b.state[t], applied, rng, bad)) {
            end_chain_if_done(b.x[t], b.y[t], b.c[t], b.state[t], rng, job_.fuse);
            return;
        }
        LaneGroup f;
        f.count = 1;
        f.x[0] = b.x[t]; f.y[0] = b.y[t]; f.c[0] = b.c[t];
        if (job_.key->has_final) {
            const float fo = job_.P[job_.final_xform.base + XformLayout::kVisibility];
            if (fo >= 1.0f || rand01(rng) < fo) {
                f.rng[0] = rng;
                apply_xform(job_.final_xform, job_.P, f);
                rng = f.rng[0];
                if (is_bad_point(f.x[0], f.y[0])) {
                    f.x[0] = rand11(rng);
                    f.y[0] = rand11(rng);
                }
            }
        }
        plot(f.x[0], f.y[0], f.c[0], vis);
        ++plotted;
        end_chain_if_done(b.x[t], b.y[t], b.c[t], b.state[t], rng, job_.fuse);
    }

    // Every accumulation mode but `none` adds the same integers here: the
    // modes are GPU strategies for getting hits into the grid (atomics,
    // warp sums, a shared-memory cache, packed words), and a thread's adds
    // here are already exact, so `shared` and `packed` render the image of
    // `atomic` (packed's possible loss is a property of its GPU words only).
    // `none` (the compute ceiling) skips the add but not the work before it.
    // Hits wait in a per-warp buffer with their cells prefetched: the
    // histogram is far larger than the caches, and 32 misses in flight cost
    // little more than one.
    void plot(float x, float y, float c, float vis) {
        const long long cell = camera_cell(job_.P + ParamLayout::kCamera, x, y, job_.hist_w, job_.hist_h);
        if (cell < 0 || vis <= 0.0f || job_.key->accumulation == Accumulation::None) return;
        Hit& hit = hits_[hit_count_++];
        hit.cell = hist_ + 4 * cell;
        __builtin_prefetch(hit.cell, 1);
        float rgba[4];
        palette_lookup(job_.P + job_.palette, c, job_.key->palette_mode == PaletteMode::Linear, rgba);
        for (int k = 0; k < 4; ++k) hit.amount[k] = hit_amount(vis, rgba[k]);
        // flam3's count channel: visibility·255, blind to palette alpha and
        // temporal weights (iterate_kernel.cuh's fj_count).
        hit.count = job_.counts ? counts_ + cell : nullptr;
        hit.count_amount = hit_amount(vis, 255.0f);
    }

    void flush_hits() {
        for (int i = 0; i < hit_count_; ++i) {
            float* h = hits_[i].cell;
            for (int k = 0; k < 4; ++k) {
                if (job_.shared_hist)
                    std::atomic_ref<float>(h[k]).fetch_add(hits_[i].amount[k], std::memory_order_relaxed);
                else
                    h[k] += hits_[i].amount[k];
            }
            if (float* n = hits_[i].count) {
                if (job_.shared_hist)
                    std::atomic_ref<float>(*n).fetch_add(hits_[i].count_amount, std::memory_order_relaxed);
                else
                    *n += hits_[i].count_amount;
            }
        }
        hit_count_ = 0;
    }

    void exchange(Block& b, uint32_t round, uint32_t salt, std::vector<float>& nx, std::vector<float>& ny,
                  std::vector<float>& nc, std::vector<int>& ns) {
        const uint32_t T = static_cast<uint32_t>(job_.block);
        const bool ring = job_.key->shuffle == Shuffle::Ring;
        for (uint32_t t = 0; t < T; ++t) {
            const uint32_t slot = ring ? ring_destination(t >> 5, t & 31, round, T / kLanes, salt) * 32u + (t & 31)
                                       : full_destination(t, round, T, salt);
            nx[slot] = b.x[t]; ny[slot] = b.y[t]; nc[slot] = b.c[t]; ns[slot] = b.state[t];
        }
        b.x.swap(nx); b.y.swap(ny); b.c.swap(nc); b.state.swap(ns);
    }

    struct Hit {
        float* cell;
        float amount[4];
        float* count;  // null without a count buffer
        float count_amount;
    };

    const FrameJob& job_;
    float* hist_;
    float* counts_;
    Hit hits_[kLanes];  // one warp-round's hits: each lane plots at most once
    int hit_count_ = 0;
};

class CpuBackend final : public Backend {
public:
    explicit CpuBackend(const CpuBackendOptions& options) {
        threads_ = options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    }

    std::string name() const override { return "cpu"; }

    void begin_frame(const FramePlan& plan) override {
        hist_w_ = plan.hist_width;
        hist_h_ = plan.hist_height;
        accum_.assign(static_cast<size_t>(hist_w_) * hist_h_ * 4, 0.0f);
        private_hist_.clear();
        // Made by the first iterate whose key asks for them.
        counts_.clear();
        private_counts_.clear();
        passes_.clear();
    }

    IterationStats iterate(const IterationRequest& req) override {
        const auto t0 = std::chrono::steady_clock::now();
        FrameJob job;
        job.P = req.params->data();
        job.key = req.key;
        for (size_t i = 0; i < req.key->xforms.size(); ++i)
            job.xforms.push_back(compile_xform(req.key->xforms[i], req.layout->xforms[i]));
        if (req.key->has_final) job.final_xform = compile_xform(req.key->final_xform, req.layout->final_xform);
        job.select = req.layout->select;
        job.proposal = req.layout->proposal;
        job.accept = req.layout->accept;
        job.palette = req.layout->palette;
        job.hist_w = hist_w_;
        job.hist_h = hist_h_;
        job.block = req.key->block_size;
        job.seed = req.seed;
        job.fuse = req.fuse;
        // The state word keeps a chain's steps left in 21 bits (iterate/common.h).
        if (req.fuse < 0 || req.fuse > 100000) throw std::runtime_error("iterate: fuse must be in 0..100000");
        job.counts = req.key->density_count;
        if (job.counts && counts_.empty()) counts_.assign(static_cast<size_t>(hist_w_) * hist_h_, 0.0f);

        // Up to four blocks per thread balance the work, but no more than give
        // every lane a whole flam3 chain: shorter lanes need settled first
        // chains (iterate/common.h), which cost unplotted rounds.
        const uint64_t whole_chains = req.samples / (static_cast<uint64_t>(job.block) * FJ_CHAIN);
        const uint64_t blocks = std::clamp<uint64_t>(whole_chains, threads_, static_cast<uint64_t>(threads_) * 4);
        const uint64_t lanes = blocks * job.block;
        const float per_lane = static_cast<float>(static_cast<double>(req.samples) / lanes);
        job.fresh_fraction = fresh_chain_fraction(per_lane);
        // Under warp-uniform xaos a lane moves once per M rounds on average.
        const double lazy = req.key->xaos && req.key->shuffle != Shuffle::Divergent ? xaos_proposal_mass(*req.flame) : 1.0;
        job.rounds = static_cast<uint64_t>(std::ceil(fresh_lane_rounds(per_lane, job.fuse) * lazy));

        // Private histograms avoid contention; they live for the frame (an
        // animation frame iterates once per time step) and are summed once,
        // before the post-pass. When they would not fit in a sensible share
        // of memory, all threads add atomically into one.
        constexpr size_t kPrivateBudget = size_t(4) << 30;
        job.shared_hist = accum_.size() * sizeof(float) * (threads_ - 1) > kPrivateBudget;
        if (!job.shared_hist && private_hist_.empty()) private_hist_.resize(threads_ - 1);
        if (!job.shared_hist && job.counts && private_counts_.empty()) private_counts_.resize(threads_ - 1);
        std::atomic<uint64_t> next_block{0}, rounds_done{0}, plotted{0}, bad{0}, idle{0};
        std::atomic<bool> stop{false};
        auto work = [&](int tid) {
            float* hist = accum_.data();
            float* counts = counts_.data();
            if (tid > 0 && !job.shared_hist) {
                std::vector<float>& own = private_hist_[tid - 1];
                if (own.size() != accum_.size()) own.assign(accum_.size(), 0.0f);
                hist = own.data();
                if (job.counts) {
                    std::vector<float>& own_counts = private_counts_[tid - 1];
                    if (own_counts.size() != counts_.size()) own_counts.assign(counts_.size(), 0.0f);
                    counts = own_counts.data();
                }
            }
            Worker worker(job, hist, counts);
            for (uint64_t bi; (bi = next_block++) < blocks;) worker.run_block(bi, rounds_done, stop);
            plotted += worker.plotted;
            bad += worker.bad;
            idle += worker.idle;
        };
        std::vector<std::thread> pool;
        for (int t = 1; t < threads_; ++t) pool.emplace_back(work, t);
        std::thread reporter;
        std::atomic<bool> finished{false};
        if (req.progress)
            reporter = std::thread([&] {
                const double total = static_cast<double>(blocks * job.rounds);
                while (!finished.load()) {
                    req.progress(std::min(1.0, static_cast<double>(rounds_done.load()) / total));
                    std::this_thread::sleep_for(std::chrono::milliseconds(100));
                }
            });
        work(0);
        for (auto& t : pool) t.join();
        finished = true;
        if (reporter.joinable()) reporter.join();
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
        std::fill(accum_.begin(), accum_.end(), 0.0f);
        std::fill(counts_.begin(), counts_.end(), 0.0f);
    }

    ImageF post_process(const PostPlan& post) override {
        merge_private_histograms();
        return post_process_cpu(post, histogram(), passes_.empty() ? nullptr : passes_.data(), threads_);
    }

    const std::vector<float>& accumulator() const {
        merge_private_histograms();
        return accum_;
    }

    const std::vector<float>& counts() const {
        merge_private_histograms();
        return counts_;
    }

private:
    void merge_private_histograms() const {
        for (const auto& h : private_hist_)
            for (size_t i = 0; i < h.size(); ++i) accum_[i] += h[i];
        private_hist_.clear();
        for (const auto& h : private_counts_)
            for (size_t i = 0; i < h.size(); ++i) counts_[i] += h[i];
        private_counts_.clear();
    }

    HistogramView histogram() const { return {accum_.data(), counts_.empty() ? nullptr : counts_.data()}; }

    int threads_ = 1;
    int hist_w_ = 0, hist_h_ = 0;
    // Summed into accum_ when it is read; mutable so that reading is const.
    mutable std::vector<float> accum_;
    mutable std::vector<std::vector<float>> private_hist_;
    // flam3's count channel, one float per cell, for frames whose key asks
    // for it (else empty), with per-thread copies like the histogram.
    mutable std::vector<float> counts_;
    mutable std::vector<std::vector<float>> private_counts_;
    // The log-scaled sum of the frame's finished passes (empty for one pass).
    std::vector<float> passes_;
};

}  // namespace

std::unique_ptr<Backend> make_cpu_backend(const CpuBackendOptions& options) {
    return std::make_unique<CpuBackend>(options);
}

const std::vector<float>& cpu_accumulator(const Backend& backend) {
    const auto* cpu = dynamic_cast<const CpuBackend*>(&backend);
    if (!cpu) throw std::runtime_error("cpu_accumulator: not a CPU backend");
    return cpu->accumulator();
}

const std::vector<float>& cpu_counts(const Backend& backend) {
    const auto* cpu = dynamic_cast<const CpuBackend*>(&backend);
    if (!cpu) throw std::runtime_error("cpu_counts: not a CPU backend");
    return cpu->counts();
}

}  // namespace fj
