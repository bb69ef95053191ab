// flamejit — one CPU thread's iteration: fj_iterate's rounds on blocks of lanes.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The CPU backend (cpu_backend.h) plans a frame's call into a FrameJob and
// hands each of its threads a Worker and a fixed share of the frame's
// blocks; a Worker runs the kernel's rounds on them (selection, the xform on
// the lanes of a warp as one batch, final xform, plotting, the exchange) and
// adds its hits through its HitBuffer.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "cpu/hit_buffer.h"
#include "cpu/variation_table.h"

namespace fj::cpu {

// One variation call of an xform, resolved from the key once per frame.
struct VariationStep {
    BatchFn batch;
    int weight_offset;  // absolute, in the parameter block
    int param_offset;
    UseEffect effect;
};

struct XformProgram {
    int base = 0;
    bool has_post = false;
    bool passes_point = false;  // XformShape::passes_point
    bool mixes_color = false;   // fj::writes_color
    std::vector<VariationStep> steps;  // in application_order
    size_t first_sum_step = 0;         // the first step that does not change the transformed point
};

// An xform's variation calls, resolved from the key and layout.
XformProgram compile_xform(const XformShape& shape, const XformLayout& x);

// Everything a worker needs for one iterate call, read-only while iterating.
struct FrameJob {
    // The call's time steps (IterationRequest::steps): their parameter
    // blocks, the ends of their stretches of the call's line of samples
    // (fj::step_at), and the frame's number for the first of them.
    std::vector<const float*> step_params;
    std::vector<u64> step_ends;
    uint64_t first_step = 0;
    const KernelKey* key;
    std::vector<XformProgram> xforms;
    XformProgram final_xform;
    int select, proposal, accept, palette;  // offsets in the parameter block
    int hist_w, hist_h;
    int hist_row0;        // the frame's cell row of the histogram's row 0 (FramePlan)
    bool shared_hist;     // all threads add into one histogram atomically
    int block;
    uint64_t blocks;       // in the frame
    // Every block runs `rounds` rounds (the backend runs more, all blocks
    // alike, until the call's samples are plotted); with the key's
    // time_steps, each block runs until it has plotted its stretch of the
    // line (fj::block_span_start), and `rounds` is only the estimate that
    // progress reports against.
    uint64_t rounds;
    // Rounds without a plot after which a block (with time steps) or the
    // call gives up (FJ_STALL_ROUNDS, times the rounds a lane takes per step).
    uint64_t stall_rounds;
    int fuse;              // unplotted steps at each chain's start
    bool counts;           // hits also add to the count buffer (KernelKey::density_count)
    // Step palettes: each xform's hit word for each palette entry
    // (cpu::hit_word of its amounts), 256 per xform, for each time step.
    std::vector<u64> palette_words;
};

// One block of lanes: its points and random streams, structure of arrays.
// Blocks live for a frame, so its later iterate calls (passes) continue
// their chains, as the GPU's point pool does.
struct Block {
    std::vector<float> x, y, c;
    std::vector<int> state;  // fj::point_state
    std::vector<Rng> rng;
    int64_t step = -1;       // the frame's time step its points are on (-1: none yet)
    uint64_t rounds = 0;     // run in the frame: the exchanges' round numbers
};

// Block `index` of T lanes with the streams and start points the GPU's
// fj_seed gives the same thread indices.
Block seed_block(uint64_t index, int T, uint64_t seed, float fresh_fraction, int fuse);

struct LaneSpan;
struct LaneGroup;

class Worker {
public:
    // `targets`: where this thread's hits go (cpu/hit_buffer.h).
    Worker(const FrameJob& job, const HitTargets& targets)
        : job_(job), hits_(targets), visibility_(job.xforms.size()), count_amount_(job.xforms.size()),
          group_end_(job.xforms.size() + 1), chosen_(job.block), sorted_chosen_(job.block) {}

    // The block's rounds of this call (FrameJob::rounds says how many, or
    // with time steps its stretch of the line).
    void run_block(Block& b, uint64_t block_index, std::atomic<uint64_t>& rounds_done);

    // Adds the hits still waiting; blocks hand them on to the next, so once
    // after the last.
    void flush_all() { hits_.flush_all(); }

    unsigned long long plotted = 0, bad = 0, idle = 0;

private:
    // Points the worker at step s of the call; with time steps, a block that
    // moves there from another step first lets its points leave the old
    // attractor (fj::refuse_state).
    void enter_step(Block& b, int s);

    // Selection as fj_iterate does it: every lane draws, lane 0's draw
    // decides for the warp unless selection is per thread, and a young point
    // (iterate/common.h, FJ_YOUNG) decides for itself from its own row;
    // under xaos the warp draws from the proposal and each lane that is not
    // young accepts for its own row.
    // Each lane then takes its random draws in fj_iterate's order; the order
    // between lanes differs (lanes are processed stage by stage), which
    // changes nothing: every lane has its own stream and the histogram's
    // integer sums do not depend on the order of adds.
    void round_of_warp(Block& b, int w);

    // Xform k on all the warp's lanes, in the block's own arrays.
    void run_warp(Block& b, int first, int k);

    // Xform k on `count` lanes of the block, gathered into one group.
    void run_gathered(Block& b, const int* lanes, int count, int k);

    // Threads [first, first + count)'s own draws for the points they hold,
    // into out: from each point's row under xaos, with the thread's stream
    // (divergent and sorted selection).
    void own_draws(Block& b, int first, int count, int* out) const;

    // Per-thread selection (own_draws), run by run_selected.
    void run_divergent(Block& b, int first);

    // Lane l of the warp moved by xform sel[l], or staying for -1: lanes
    // grouped by xform with a counting sort (xforms in order, lanes in order
    // within each), one pass whatever the xform count; each group then runs
    // as one, a whole warp of one xform in place.
    void run_selected(Block& b, int first, const int* sel);

    // Bad values, fuse, final xform, plotting and chain ends of lanes that
    // xform k just moved, in the arrays it moved them in; for each lane the
    // same operations and random draws, in the same order, as fj_iterate.
    void finish(LaneSpan g, int k);

    // The final xform on the points about to plot, each taking it with the
    // final xform's opacity; flam3 plots a bad final point as a random point.
    void apply_final(LaneGroup& f);

    void apply_final_to(LaneGroup& g, int count);

    // Plots point j of x, y, c (moved by xform k) where keep[j] is set.
    // Every accumulation mode but `none` adds the same integers here: the
    // modes are GPU strategies for getting hits into the grid (atomics,
    // warp sums, a shared-memory cache, packed words), and a thread's adds
    // here are already exact (cpu/hit_buffer.h), so `shared` and `packed`
    // render the image of `atomic` (packed's possible loss is a property of
    // its GPU words only). `none` (the compute ceiling: the accumulator for
    // free) finds every hit's cell and amounts, as the GPU kernel does, and
    // folds them into none_sink_ instead of adding them.
    void plot(const float* x, const float* y, const float* c, const int* keep, int n, int k);
    // plot's body, chosen once per call: Fold for `none`, so that the
    // modes that add test nothing more per hit.
    template <bool Fold>
    void plot_cells(const float* x, const float* y, const float* c, const int* keep, int n, int k);

    // The sorted exchange (fj_sort_points): every thread draws an xform for
    // the point it holds (from the point's row under xaos), then the
    // block's points move, with their xforms (chosen_), to the slots of a
    // stable counting sort by xform over the block's threads.
    void sort_by_xform(Block& b, std::vector<float>& nx, std::vector<float>& ny, std::vector<float>& nc,
                       std::vector<int>& ns);

    // Moves the block's points between its warps as the key's exchange
    // does (fj::ring_destination, fj::full_destination).
    void exchange(Block& b, uint32_t round, uint32_t salt, std::vector<float>& nx, std::vector<float>& ny,
                  std::vector<float>& nc, std::vector<int>& ns);

    const FrameJob& job_;
    const float* P_ = nullptr;        // the current step's parameter block
    const u64* words_ = nullptr;      // and its step palettes' hit words
    HitBuffer hits_;
    uint32_t none_sink_ = 0;  // `none`: the hits, folded, so that they are computed
    // Each xform's visibility in the current step, and what its hits add
    // to flam3's count channel.
    std::vector<float> visibility_, count_amount_;
    std::vector<int> group_end_;  // run_selected's counting sort, xforms + 1 entries
    std::vector<int> chosen_, sorted_chosen_;  // sort_by_xform's xform of each thread's point
};

}  // namespace fj::cpu
