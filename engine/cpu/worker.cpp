// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpu/worker.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "codegen/variation_registry.h"
#include "iterate/common.h"

namespace fj::cpu {

XformProgram compile_xform(const XformShape& shape, const XformLayout& x) {
    const auto& registry = VariationRegistry::standard();
    XformProgram prog;
    prog.base = x.base;
    prog.has_post = shape.has_post;
    for (size_t v = 0; v < shape.variations.size(); ++v) {
        const VariationInfo* info = registry.by_id(shape.variations[v]);
        const VariationEntry* entry = info ? find_variation(info->name) : nullptr;
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

namespace {

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

}  // namespace

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

void Worker::run_block(Block& b, uint64_t block_index, std::atomic<uint64_t>& rounds_done) {
    const int T = job_.block;
    std::vector<float> nx(T), ny(T), nc(T);
    std::vector<int> ns(T);
    const bool exchanges = job_.key->shuffle == Shuffle::Ring || job_.key->shuffle == Shuffle::Full;
    const int steps = static_cast<int>(job_.step_params.size());
    const u64 total = job_.step_ends.back();
    u64 pos = block_span_start(block_index, job_.blocks, total);
    const u64 end = block_span_start(block_index + 1, job_.blocks, total);
    // Time steps: until the block's stretch is plotted, or it stalls.
    const bool spans = job_.key->time_steps;
    const auto more = [&](uint64_t r, uint64_t idle) {
        return spans ? pos < end && idle < FJ_STALL_ROUNDS : r < job_.rounds;
    };
    int s = 0;
    uint64_t idle = 0, r = 0;
    for (; more(r, idle); ++r) {
        if (spans) s = step_at(job_.step_ends.data(), steps, pos, s);
        enter_step(b, s);
        const unsigned long long before = plotted;
        for (int w = 0; w < T / kLanes; ++w) round_of_warp(b, w);
        if (exchanges) exchange(b, static_cast<uint32_t>(b.rounds), static_cast<uint32_t>(block_index), nx, ny, nc, ns);
        ++b.rounds;
        pos += plotted - before;
        idle = plotted == before ? idle + 1 : 0;
        if ((r & 63) == 63) rounds_done += 64;
    }
    rounds_done += r & 63;
}

void Worker::enter_step(Block& b, int s) {
    const auto id = static_cast<int64_t>(job_.first_step) + s;
    // As fj_iterate: only a kernel with time steps keeps track of them.
    if (job_.key->time_steps && b.step != id) {
        if (b.step >= 0)
            for (int& state : b.state) state = refuse_state(state, job_.fuse);
        b.step = id;
    }
    P_ = job_.step_params[s];
    if (!job_.palette_words.empty())
        words_ = job_.palette_words.data() + static_cast<size_t>(s) * job_.xforms.size() * 256;
}

// Selection as fj_iterate does it: every lane draws, lane 0's draw
// decides for the warp unless selection is per thread; under xaos the
// warp draws from the proposal and each lane accepts for its own row.
// Each lane then takes its random draws in fj_iterate's order; the order
// between lanes differs (lanes are processed stage by stage), which
// changes nothing: every lane has its own stream and the histogram's
// integer sums do not depend on the order of adds.
void Worker::round_of_warp(Block& b, int w) {
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
            moved = apply_to_warp(b, first, select_xform(P_ + job_.select, n, warp_u), lanes, applied);
        } else {
            // The warp proposes one xform; each lane accepts it for its
            // own row. The lanes that move are compacted without a branch
            // per lane: acceptance is a coin toss the predictor cannot learn.
            const int k = select_xform(P_ + job_.proposal, n, warp_u);
            const float* accept = P_ + job_.accept + k;
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
int Worker::apply_to_warp(Block& b, int first, int k, int* lanes, int* applied) {
    apply_xform(job_.xforms[k], P_, {&b.x[first], &b.y[first], &b.c[first], &b.rng[first], kLanes});
    for (int l = 0; l < kLanes; ++l) {
        lanes[l] = first + l;
        applied[l] = k;
    }
    return kLanes;
}

// Xform k on `count` lanes of the block, gathered into one group.
void Worker::apply_gathered(Block& b, const int* lanes, int count, int k, int* applied) {
    LaneGroup g;
    g.count = count;
    for (int i = 0; i < count; ++i) {
        const int t = lanes[i];
        applied[i] = k;
        g.x[i] = b.x[t]; g.y[i] = b.y[t]; g.c[i] = b.c[t]; g.rng[i] = b.rng[t];
    }
    apply_xform(job_.xforms[k], P_, g.span());
    for (int i = 0; i < count; ++i) {
        const int t = lanes[i];
        b.x[t] = g.x[i]; b.y[t] = g.y[i]; b.c[t] = g.c[i]; b.rng[t] = g.rng[i];
    }
}

// Per-thread selection (under xaos from each lane's row): lanes grouped
// by xform with a counting sort (xforms in order, lanes in order within
// each), no branch per lane, one pass whatever the xform count. Returns
// the lanes that moved, all of them.
int Worker::divergent_selection(Block& b, int first, int* lanes, int* applied) {
    const int n = static_cast<int>(job_.xforms.size());
    int sel[kLanes];
    for (int l = 0; l < kLanes; ++l) {
        const float* S = P_ + job_.select + (job_.key->xaos ? state_last(b.state[first + l]) * n : 0);
        sel[l] = select_xform(S, n, rand01(b.rng[first + l]));
    }
    int* end = group_end_.data();  // counts (of xform k in end[k + 1]), then each xform's first, then end
    std::fill(end, end + n + 1, 0);
    for (int l = 0; l < kLanes; ++l) ++end[sel[l] + 1];
    for (int k = 1; k < n + 1; ++k) end[k] += end[k - 1];
    for (int l = 0; l < kLanes; ++l) lanes[end[sel[l]]++] = first + l;
    // end[k] is now where xform k's lanes end.
    for (int k = 0, begin = 0; k < n; begin = end[k++]) {
        const int count = end[k] - begin;
        if (count == 0) continue;
        apply_gathered(b, lanes + begin, count, k, applied + begin);
    }
    return kLanes;
}

// Bad values, fuse, final xform, plotting and chain ends of the lanes a
// round moved (`applied` holds each one's xform); for each lane the same
// operations and random draws, in the same order, as fj_iterate.
void Worker::finish_lanes(Block& b, const int* lanes, const int* applied, int count) {
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
void Worker::apply_final(LaneGroup& f) {
    const float fo = P_[job_.final_xform.base + XformLayout::kVisibility];
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

void Worker::apply_final_to(LaneGroup& g, int count) {
    if (count == 0) return;
    apply_xform(job_.final_xform, P_, g.span());
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
void Worker::plot(float x, float y, float c, int xform) {
    const long long cell = camera_cell(P_ + ParamLayout::kCamera, x, y, job_.hist_w, job_.hist_h);
    const float vis = P_[job_.xforms[xform].base + XformLayout::kVisibility];
    if (cell < 0 || vis <= 0.0f || job_.key->accumulation == Accumulation::None) return;
    // flam3's count channel: visibility·255, blind to palette alpha and
    // temporal weights (iterate_kernel.cuh's fj_count).
    const float count = hit_amount(vis, 255.0f);
    float rgba[4], amount[4];
    if (job_.key->palette_mode != PaletteMode::Linear) {
        // palette_lookup's entry for a step palette, whose hit word was made once.
        const int i = std::clamp(static_cast<int>(c * 256.0f), 0, 255);
        const u64 word = words_[xform * 256 + i];
        if (word != kNoWord) return hits_.add(cell, word, count);
        std::copy_n(P_ + job_.palette + 4 * i, 4, rgba);
    } else {
        palette_lookup(P_ + job_.palette, c, true, rgba);
    }
    for (int k = 0; k < 4; ++k) amount[k] = hit_amount(vis, rgba[k]);
    hits_.add(cell, amount, count);
}

void Worker::exchange(Block& b, uint32_t round, uint32_t salt, std::vector<float>& nx, std::vector<float>& ny,
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

}  // namespace fj::cpu
