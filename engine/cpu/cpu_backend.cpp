// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpu/cpu_backend.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <stdexcept>
#include <thread>

#include "codegen/variation_registry.h"
#include "cpu/hit_buffer.h"
#include "cpu/variation_table.h"
#include "huge_pages.h"
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

// Lanes' points as separate arrays: a warp's own slice of its block when all
// its lanes apply the same xform, else a group gathered from it. Either way
// each variation runs as one inlined loop over the lanes.
struct LaneSpan {
    float* x;
    float* y;
    float* c;
    Rng* rng;
    int count;
};

// Storage for a gathered group.
struct LaneGroup {
    float x[kLanes], y[kLanes], c[kLanes];
    Rng rng[kLanes];
    int count = 0;
    LaneSpan span() { return {x, y, c, rng, count}; }
};

void apply_xform(const XformProgram& prog, const float* P, const LaneSpan& g) {
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
    uint64_t rounds;       // of every block in this call
    uint64_t round_base;   // rounds the frame's blocks ran before this call
    int fuse;              // unplotted steps at each chain's start
    bool counts;           // hits also add to the count buffer (KernelKey::density_count)
    // Step palettes: each xform's hit word for each palette entry
    // (cpu::hit_word of its amounts), 256 per xform.
    std::vector<u64> palette_words;
};

// One block of lanes: its points and random streams, structure of arrays.
// Blocks live for a frame, so its later iterate calls (motion-blur time
// steps, passes) continue their chains, as the GPU's point pool does.
struct Block {
    std::vector<float> x, y, c;
    std::vector<int> state;  // fj::point_state
    std::vector<Rng> rng;
};

// Block `index` of T lanes with the streams and start points the GPU's
// fj_seed gives the same thread indices.
Block seed_block(uint64_t index, int T, uint64_t seed, float fresh_fraction, int fuse) {
    Block b;
    b.x.resize(T); b.y.resize(T); b.c.resize(T); b.state.resize(T); b.rng.resize(T);
    for (int i = 0; i < T; ++i) {
        b.rng[i] = make_rng(seed, index * T + i);
        b.x[i] = rand11(b.rng[i]);
        b.y[i] = rand11(b.rng[i]);
        b.c[i] = rand01(b.rng[i]);
        b.state[i] = first_chain_state(rand01(b.rng[i]), fresh_fraction, fuse);
    }
    return b;
}

class Worker {
public:
    // `targets`: where this thread's hits go (cpu/hit_buffer.h).
    Worker(const FrameJob& job, const cpu::HitTargets& targets)
        : job_(job), hits_(targets), group_end_(job.xforms.size() + 1) {}

    void run_block(Block& b, uint64_t block_index, std::atomic<uint64_t>& rounds_done) {
        const int T = job_.block;
        std::vector<float> nx(T), ny(T), nc(T);
        std::vector<int> ns(T);
        const bool exchanges = job_.key->shuffle == Shuffle::Ring || job_.key->shuffle == Shuffle::Full;
        for (uint64_t r = 0; r < job_.rounds; ++r) {
            for (int w = 0; w < T / kLanes; ++w) round_of_warp(b, w);
            if (exchanges)
                exchange(b, static_cast<uint32_t>(job_.round_base + r), static_cast<uint32_t>(block_index), nx, ny, nc, ns);
            if ((r & 63) == 63) rounds_done += 64;
        }
        rounds_done += job_.rounds & 63;
    }

    // Adds the hits still waiting; blocks hand them on to the next, so once
    // after the last.
    void flush_all() { hits_.flush_all(); }

    unsigned long long plotted = 0, bad = 0, idle = 0;

private:
    // Selection as fj_iterate does it: every lane draws, lane 0's draw
    // decides for the warp unless selection is per thread; under xaos the
    // warp draws from the proposal and each lane accepts for its own row.
    // Each lane then takes its random draws in fj_iterate's order; the order
    // between lanes differs (lanes are processed stage by stage), which
    // changes nothing: every lane has its own stream and the histogram's
    // integer sums do not depend on the order of adds.
    void round_of_warp(Block& b, int w) {
        const KernelKey& key = *job_.key;
        const int n = static_cast<int>(job_.xforms.size());
        const int first = w * kLanes;
        int lanes[kLanes], applied[kLanes], moved = 0;
        if (key.shuffle == Shuffle::Divergent) {
            moved = divergent_selection(b, first, lanes, applied);
        } else {
            // Lane 0's draw decides; the other lanes draw only to advance.
            const float warp_u = rand01(b.rng[first]);
            for (int l = 1; l < kLanes; ++l) rand01(b.rng[first + l]);
            if (!key.xaos) {
                moved = apply_to_warp(b, first, select_xform(job_.P + job_.select, n, warp_u), lanes, applied);
            } else {
                // The warp proposes one xform; each lane accepts it for its
                // own row. The lanes that move are compacted without a branch
                // per lane: acceptance is a coin toss the predictor cannot learn.
                const int k = select_xform(job_.P + job_.proposal, n, warp_u);
                const float* accept = job_.P + job_.accept + k;
                for (int l = 0; l < kLanes; ++l) {
                    lanes[moved] = first + l;
                    moved += rand01(b.rng[first + l]) < accept[state_last(b.state[first + l]) * n];
                }
                idle += kLanes - moved;
                if (moved == kLanes) apply_to_warp(b, first, k, lanes, applied);
                else apply_gathered(b, lanes, moved, k, applied);
            }
        }
        finish_lanes(b, lanes, applied, moved);
        hits_.end_round();
    }

    // Xform k on all the warp's lanes, in the block's own arrays.
    int apply_to_warp(Block& b, int first, int k, int* lanes, int* applied) {
        apply_xform(job_.xforms[k], job_.P, {&b.x[first], &b.y[first], &b.c[first], &b.rng[first], kLanes});
        for (int l = 0; l < kLanes; ++l) {
            lanes[l] = first + l;
            applied[l] = k;
        }
        return kLanes;
    }

    // Xform k on `count` lanes of the block, gathered into one group.
    void apply_gathered(Block& b, const int* lanes, int count, int k, int* applied) {
        LaneGroup g;
        g.count = count;
        for (int i = 0; i < count; ++i) {
            const int t = lanes[i];
            applied[i] = k;
            g.x[i] = b.x[t]; g.y[i] = b.y[t]; g.c[i] = b.c[t]; g.rng[i] = b.rng[t];
        }
        apply_xform(job_.xforms[k], job_.P, g.span());
        for (int i = 0; i < count; ++i) {
            const int t = lanes[i];
            b.x[t] = g.x[i]; b.y[t] = g.y[i]; b.c[t] = g.c[i]; b.rng[t] = g.rng[i];
        }
    }

    // Per-thread selection (under xaos from each lane's row): lanes grouped
    // by xform with a counting sort (xforms in order, lanes in order within
    // each), no branch per lane, one pass whatever the xform count. Returns
    // the lanes that moved, all of them.
    int divergent_selection(Block& b, int first, int* lanes, int* applied) {
        const int n = static_cast<int>(job_.xforms.size());
        int sel[kLanes];
        for (int l = 0; l < kLanes; ++l) {
            const float* S = job_.P + job_.select + (job_.key->xaos ? state_last(b.state[first + l]) * n : 0);
            sel[l] = select_xform(S, n, rand01(b.rng[first + l]));
        }
        int* end = group_end_.data();  // counts (of xform k in end[k + 1]), then each xform's first, then end
        std::fill(end, end + n + 1, 0);
        for (int l = 0; l < kLanes; ++l) ++end[sel[l] + 1];
        for (int k = 1; k < n + 1; ++k) end[k] += end[k - 1];
        int order[kLanes];
        for (int l = 0; l < kLanes; ++l) order[end[sel[l]]++] = first + l;
        // end[k] is now where xform k's lanes end.
        for (int k = 0, begin = 0; k < n; begin = end[k++]) {
            const int count = end[k] - begin;
            if (count == 0) continue;
            std::copy_n(order + begin, count, lanes + begin);
            apply_gathered(b, lanes + begin, count, k, applied + begin);
        }
        return kLanes;
    }

    // Bad values, fuse, final xform, plotting and chain ends of the lanes a
    // round moved (`applied` holds each one's xform); for each lane the same
    // operations and random draws, in the same order, as fj_iterate.
    void finish_lanes(Block& b, const int* lanes, const int* applied, int count) {
        LaneGroup f;  // the points to plot, with their streams
        int xform[kLanes];
        int plotting[kLanes];
        for (int i = 0; i < count; ++i) {
            const int t = lanes[i];
            if (!settle_point(b.x[t], b.y[t], b.state[t], applied[i], b.rng[t], bad)) continue;
            plotting[f.count] = t;
            xform[f.count] = applied[i];
            f.x[f.count] = b.x[t]; f.y[f.count] = b.y[t]; f.c[f.count] = b.c[t]; f.rng[f.count] = b.rng[t];
            ++f.count;
        }
        if (job_.key->has_final && f.count > 0) apply_final(f);
        for (int j = 0; j < f.count; ++j) {
            b.rng[plotting[j]] = f.rng[j];
            plot(f.x[j], f.y[j], f.c[j], xform[j]);
        }
        plotted += f.count;
        for (int i = 0; i < count; ++i) {
            const int t = lanes[i];
            end_chain_if_done(b.x[t], b.y[t], b.c[t], b.state[t], b.rng[t], job_.fuse);
        }
    }

    // The final xform on the points about to plot, each taking it with the
    // final xform's opacity; flam3 plots a bad final point as a random point.
    void apply_final(LaneGroup& f) {
        const float fo = job_.P[job_.final_xform.base + XformLayout::kVisibility];
        if (fo >= 1.0f) {
            apply_final_to(f, f.count);
            return;
        }
        LaneGroup g;
        int from[kLanes];
        for (int j = 0; j < f.count; ++j)
            if (rand01(f.rng[j]) < fo) {
                from[g.count] = j;
                g.x[g.count] = f.x[j]; g.y[g.count] = f.y[j]; g.c[g.count] = f.c[j]; g.rng[g.count] = f.rng[j];
                ++g.count;
            }
        apply_final_to(g, g.count);
        for (int i = 0; i < g.count; ++i) {
            const int j = from[i];
            f.x[j] = g.x[i]; f.y[j] = g.y[i]; f.c[j] = g.c[i]; f.rng[j] = g.rng[i];
        }
    }

    void apply_final_to(LaneGroup& g, int count) {
        if (count == 0) return;
        apply_xform(job_.final_xform, job_.P, g.span());
        for (int i = 0; i < count; ++i)
            if (is_bad_point(g.x[i], g.y[i])) {
                g.x[i] = rand11(g.rng[i]);
                g.y[i] = rand11(g.rng[i]);
            }
    }

    // Every accumulation mode but `none` adds the same integers here: the
    // modes are GPU strategies for getting hits into the grid (atomics,
    // warp sums, a shared-memory cache, packed words), and a thread's adds
    // here are already exact (cpu/hit_buffer.h), so `shared` and `packed`
    // render the image of `atomic` (packed's possible loss is a property of
    // its GPU words only). `none` (the compute ceiling) skips the add but not
    // the work before it.
    void plot(float x, float y, float c, int xform) {
        const long long cell = camera_cell(job_.P + ParamLayout::kCamera, x, y, job_.hist_w, job_.hist_h);
        const float vis = job_.P[job_.xforms[xform].base + XformLayout::kVisibility];
        if (cell < 0 || vis <= 0.0f || job_.key->accumulation == Accumulation::None) return;
        // flam3's count channel: visibility·255, blind to palette alpha and
        // temporal weights (iterate_kernel.cuh's fj_count).
        const float count = hit_amount(vis, 255.0f);
        float rgba[4], amount[4];
        if (job_.key->palette_mode != PaletteMode::Linear) {
            // palette_lookup's entry for a step palette, whose hit word was made once.
            const int i = std::clamp(static_cast<int>(c * 256.0f), 0, 255);
            const u64 word = job_.palette_words[xform * 256 + i];
            if (word != cpu::kNoWord) return hits_.add(cell, word, count);
            std::copy_n(job_.P + job_.palette + 4 * i, 4, rgba);
        } else {
            palette_lookup(job_.P + job_.palette, c, true, rgba);
        }
        for (int k = 0; k < 4; ++k) amount[k] = hit_amount(vis, rgba[k]);
        hits_.add(cell, amount, count);
    }

    void exchange(Block& b, uint32_t round, uint32_t salt, std::vector<float>& nx, std::vector<float>& ny,
                  std::vector<float>& nc, std::vector<int>& ns) {
        const uint32_t T = static_cast<uint32_t>(job_.block);
        if (job_.key->shuffle == Shuffle::Ring) {
            // ring_destination, with each lane's offset reduced once.
            const uint32_t warps = T / kLanes;
            uint32_t offset[kLanes];
            for (uint32_t l = 0; l < kLanes; ++l) offset[l] = ring_offset(l, round, warps, salt);
            for (uint32_t w = 0; w < warps; ++w)
                for (uint32_t l = 0; l < kLanes; ++l) {
                    const uint32_t t = w * kLanes + l;
                    uint32_t to = w + offset[l];
                    if (to >= warps) to -= warps;
                    const uint32_t slot = to * kLanes + l;
                    nx[slot] = b.x[t]; ny[slot] = b.y[t]; nc[slot] = b.c[t]; ns[slot] = b.state[t];
                }
        } else {
            for (uint32_t t = 0; t < T; ++t) {
                const uint32_t slot = full_destination(t, round, T, salt);
                nx[slot] = b.x[t]; ny[slot] = b.y[t]; nc[slot] = b.c[t]; ns[slot] = b.state[t];
            }
        }
        b.x.swap(nx); b.y.swap(ny); b.c.swap(nc); b.state.swap(ns);
    }

    const FrameJob& job_;
    cpu::HitBuffer hits_;
    std::vector<int> group_end_;  // divergent_selection's counting sort, xforms + 1 entries
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
        for (ThreadBuffers& own : thread_buffers_) own.stale = true;
        blocks_.clear();
        // Made by the first iterate whose key asks for them.
        counts_.clear();
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
        job.fuse = req.fuse;
        // The state word keeps a chain's steps left in 21 bits (iterate/common.h).
        if (req.fuse < 0 || req.fuse > 100000) throw std::runtime_error("iterate: fuse must be in 0..100000");
        job.counts = req.key->density_count;
        if (job.counts && counts_.empty()) counts_.assign(static_cast<size_t>(hist_w_) * hist_h_, 0.0f);
        if (req.key->palette_mode != PaletteMode::Linear) {
            job.palette_words.resize(job.xforms.size() * 256);
            for (size_t x = 0; x < job.xforms.size(); ++x) {
                const float vis = job.P[job.xforms[x].base + XformLayout::kVisibility];
                for (int i = 0; i < 256; ++i) {
                    float amount[4];
                    for (int k = 0; k < 4; ++k) amount[k] = hit_amount(vis, job.P[job.palette + 4 * i + k]);
                    job.palette_words[x * 256 + i] = cpu::hit_word(amount);
                }
            }
        }

        // Under warp-uniform xaos a lane moves once per M rounds on average.
        const double lazy = req.key->xaos && req.key->shuffle != Shuffle::Divergent ? xaos_proposal_mass(*req.flame) : 1.0;
        if (blocks_.empty() || blocks_[0].x.size() != static_cast<size_t>(job.block)) {
            // The frame's first call makes its blocks: up to four per thread
            // balance the work, but no more than give every lane a whole
            // flam3 chain: shorter lanes need settled first chains
            // (iterate/common.h), which cost unplotted rounds.
            const uint64_t whole_chains = req.samples / (static_cast<uint64_t>(job.block) * FJ_CHAIN);
            const uint64_t count = std::clamp<uint64_t>(whole_chains, threads_, static_cast<uint64_t>(threads_) * 4);
            const float per_lane = static_cast<float>(static_cast<double>(req.samples) / (count * job.block));
            const float fresh = fresh_chain_fraction(per_lane);
            blocks_.clear();
            for (uint64_t i = 0; i < count; ++i) blocks_.push_back(seed_block(i, job.block, req.seed, fresh, job.fuse));
            job.rounds = static_cast<uint64_t>(std::ceil(fresh_lane_rounds(per_lane, job.fuse) * lazy));
            round_base_ = 0;
        } else {
            // Later calls continue the chains: a fuse only where one ends.
            const double per_lane = static_cast<double>(req.samples) / (blocks_.size() * job.block);
            job.rounds = static_cast<uint64_t>(std::ceil(per_lane * (1.0 + double(job.fuse) / FJ_CHAIN) * lazy));
        }
        job.round_base = round_base_;
        round_base_ += job.rounds;
        const uint64_t blocks = blocks_.size();

        // Private histograms avoid contention: each thread's packed words
        // and float grid (the first thread's is the frame's). They live for
        // the frame (an animation frame iterates once per time step) and are
        // summed once, before the post-pass. When they would not fit in a
        // sensible share of memory, all threads add atomically into one.
        constexpr size_t kPrivateBudget = size_t(4) << 30;
        const size_t cells = accum_.size() / 4;
        job.shared_hist = cells * (4 * sizeof(float) * (threads_ - 1) + sizeof(u64) * threads_) > kPrivateBudget;
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
            Worker worker(job, targets);
            // A fixed share of the blocks per thread, not first come first
            // served: a cell's float sum past 2^24 rounds, so the image is the
            // same from run to run only if each thread adds the same hits.
            for (uint64_t bi = tid; bi < blocks; bi += threads_) worker.run_block(blocks_[bi], bi, rounds_done);
            worker.flush_all();
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

    std::span<const float> accumulator() const {
        merge_private_histograms();
        return accum_;
    }

    std::span<const float> counts() const {
        merge_private_histograms();
        return counts_;
    }

private:
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
                if (own->grid.size() == accum_.size())
                    for (size_t i = 4 * begin; i < 4 * end; ++i) accum_[i] += own->grid[i];
                if (own->counts.size() == counts_.size() && !counts_.empty())
                    for (size_t i = begin; i < end; ++i) counts_[i] += own->counts[i];
                for (size_t i = begin; i < end; ++i) {
                    u64 word = own->words[i];
                    if (word) cpu::spill_word(word, &accum_[4 * i]);
                }
            }
        };
        std::vector<std::thread> pool;
        const size_t share = (cells + threads_ - 1) / threads_;
        for (int t = 1; t < threads_; ++t)
            pool.emplace_back(merge, std::min(cells, t * share), std::min(cells, (t + 1) * share));
        merge(0, std::min(cells, share));
        for (auto& t : pool) t.join();
        for (ThreadBuffers& own : thread_buffers_) own.stale = true;
    }

    // Sized to n and zeroed, reusing the allocation: a stale buffer's
    // contents must go, a fresh allocation is zero already.
    template <class V>
    static void ready(V& v, size_t n, bool stale) {
        if (v.size() != n)
            v.assign(n, 0);
        else if (stale)
            std::fill(v.begin(), v.end(), 0);
    }

    HistogramView histogram() const { return {accum_.data(), counts_.empty() ? nullptr : counts_.data()}; }

    int threads_ = 1;
    int hist_w_ = 0, hist_h_ = 0;
    // Summed into accum_ when it is read; mutable so that reading is const.
    mutable HugePageVector<float> accum_;
    // flam3's count channel, one float per cell, for frames whose key asks
    // for it (else empty).
    mutable HugePageVector<float> counts_;
    // A thread's private accumulation: its packed words (cpu/hit_buffer.h)
    // and, for all but the first thread, which adds into accum_ and counts_,
    // its own float grid and count buffer.
    struct ThreadBuffers {
        HugePageVector<u64> words;
        HugePageVector<float> grid;
        HugePageVector<float> counts;
        bool stale = true;  // merged into accum_ already, or left from an earlier frame
    };
    mutable std::vector<ThreadBuffers> thread_buffers_;
    // The frame's blocks of points, made by its first iterate call, and the
    // rounds they have run (the exchanges' round numbers go on from there).
    std::vector<Block> blocks_;
    uint64_t round_base_ = 0;
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
