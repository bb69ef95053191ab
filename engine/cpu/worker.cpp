// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpu/worker.h"

#include <algorithm>
#include <cstring>
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
    prog.passes_point = shape.passes_point();
    prog.mixes_color = writes_color(shape, registry);
    for (size_t v : application_order(shape, registry)) {
        const VariationSlot slot = shape.variations[v];
        const VariationInfo* info = registry.by_id(slot.id);
        const VariationEntry* entry = info ? find_variation(info->name) : nullptr;
        if (!entry) throw std::runtime_error("variation id " + std::to_string(slot.id) + " has no host code");
        const UseEffect effect = use_effect(slot, *info);
        if (changes_point(effect)) prog.first_sum_step = prog.steps.size() + 1;
        prog.steps.push_back({entry->batch, x.base + x.weight_offset[v], x.base + x.param_offset[v], effect});
    }
    return prog;
}

// Lanes' points as separate arrays: a warp's own slice of its block when all
// its lanes apply the same xform, else a group gathered from it. Either way
// each variation runs as one inlined loop over the lanes. Passed by value:
// through a reference, a store into the arrays could change the span's own
// members for all the compiler knows, and loops that reload them after
// every store do not vectorize.
struct LaneSpan {
    float* x;
    float* y;
    float* c;
    int* state;
    Rng* rng;
    int count;
};

// Storage for a gathered group.
struct LaneGroup {
    float x[kLanes], y[kLanes], c[kLanes];
    int state[kLanes];
    Rng rng[kLanes];
    int count = 0;
    LaneSpan span() { return {x, y, c, state, rng, count}; }
};

namespace {

void apply_xform(const XformProgram& prog, const float* P, LaneSpan g) {
    const float* X = P + prog.base;
    const Affine* aff = reinterpret_cast<const Affine*>(X + XformLayout::kAffine);
    // Copies: the stores into the lanes' arrays below could reach the
    // parameter block for all the compiler knows, and would have it load
    // the coefficients again for every lane.
    const Affine pre = *aff, post = *reinterpret_cast<const Affine*>(X + XformLayout::kPost);
    const float speed = X[XformLayout::kColorSpeed], color = X[XformLayout::kColor];
    float tx[kLanes], ty[kLanes], ox[kLanes], oy[kLanes], blended[kLanes];
    for (int i = 0; i < g.count; ++i) {
        apply_affine(pre, g.x[i], g.y[i], tx[i], ty[i]);
        ox[i] = 0.0f;
        oy[i] = 0.0f;
        g.c[i] = speed * color + (1.0f - speed) * g.c[i];
    }
    if (prog.mixes_color) std::copy(g.c, g.c + g.count, blended);
    const auto run = [&](const VariationStep& s) {
        if (P[s.weight_offset] == 0.0f) return;  // weight 0: skipped, as flam3 and the kernel do
        if (adds_at_point(s.effect)) {
            if (s.effect == UseEffect::ResetSum) {
                std::fill(ox, ox + g.count, 0.0f);
                std::fill(oy, oy + g.count, 0.0f);
            }
            s.batch({tx, ty, ox, oy, g.c, g.rng, aff, P + s.param_offset, P[s.weight_offset], g.count});
            return;
        }
        // The others evaluate at the point (or sum) they then change: a copy of it.
        float* vx = changes_point(s.effect) ? tx : ox;
        float* vy = changes_point(s.effect) ? ty : oy;
        float px[kLanes], py[kLanes];
        std::copy(vx, vx + g.count, px);
        std::copy(vy, vy + g.count, py);
        if (replaces(s.effect)) {
            std::fill(vx, vx + g.count, 0.0f);
            std::fill(vy, vy + g.count, 0.0f);
        }
        s.batch({px, py, vx, vy, g.c, g.rng, aff, P + s.param_offset, P[s.weight_offset], g.count});
    };
    for (size_t i = 0; i < prog.first_sum_step; ++i) run(prog.steps[i]);
    if (prog.passes_point) {
        std::copy(tx, tx + g.count, ox);
        std::copy(ty, ty + g.count, oy);
    }
    for (size_t i = prog.first_sum_step; i < prog.steps.size(); ++i) run(prog.steps[i]);
    for (int i = 0; i < g.count; ++i) {
        if (prog.has_post)
            apply_affine(post, ox[i], oy[i], g.x[i], g.y[i]);
        else {
            g.x[i] = ox[i];
            g.y[i] = oy[i];
        }
    }
    if (!prog.mixes_color) return;
    const float direct = X[XformLayout::kDirectColor];
    for (int i = 0; i < g.count; ++i) {
        g.c[i] = blended[i] + direct * (g.c[i] - blended[i]);
        if (g.c[i] != g.c[i]) g.c[i] = 0.0f;
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
        return spans ? pos < end && idle < job_.stall_rounds : r < job_.rounds;
    };
    int s = 0;
    uint64_t idle = 0, r = 0;
    for (; more(r, idle); ++r) {
        if (spans) s = step_at(job_.step_ends.data(), steps, pos, s);
        enter_step(b, s);
        const unsigned long long before = plotted;
        if (job_.key->shuffle == Shuffle::Sorted) sort_by_xform(b, nx, ny, nc, ns);
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
    if (P_ == job_.step_params[s]) return;
    P_ = job_.step_params[s];
    // What a hit of each xform adds, fixed for the step: plot's per-xform
    // values, read once here rather than at every hit.
    for (size_t x = 0; x < job_.xforms.size(); ++x) {
        const float vis = P_[job_.xforms[x].base + XformLayout::kVisibility];
        visibility_[x] = vis;
        count_amount_[x] = hit_amount(vis, 255.0f);
    }
    if (!job_.palette_words.empty())
        words_ = job_.palette_words.data() + static_cast<size_t>(s) * job_.xforms.size() * 256;
}

// Selection as fj_iterate does it (worker.h).
void Worker::round_of_warp(Block& b, int w) {
    const KernelKey& key = *job_.key;
    const int n = static_cast<int>(job_.xforms.size());
    const int first = w * kLanes;
    if (key.shuffle == Shuffle::Divergent) {
        run_divergent(b, first);
        hits_.end_round();
        return;
    }
    if (key.shuffle == Shuffle::Sorted) {
        run_selected(b, first, &chosen_[first]);
        hits_.end_round();
        return;
    }
    // Every lane draws, as in the kernel, but only lane 0's number and young
    // lanes' are used: the streams just step on (without the output's
    // permutation), and the numbers used are made from the states drawn from.
    u64 drawn_from[kLanes];
    int young = 0;
    for (int l = 0; l < kLanes; ++l) {
        drawn_from[l] = b.rng[first + l].state;
        step_rng(b.rng[first + l]);
        young |= is_young(b.state[first + l]);
    }
    const float warp_u = rand01_from(drawn_from[0]);  // lane 0's draw decides for the warp
    if (!key.xaos) {
        const int k = select_xform(P_ + job_.select, n, warp_u);
        if (!young) {
            run_warp(b, first, k);
        } else {
            int sel[kLanes];
            for (int l = 0; l < kLanes; ++l)
                sel[l] = is_young(b.state[first + l])
                             ? select_xform(P_ + job_.select, n, rand01_from(drawn_from[l]))
                             : k;
            run_selected(b, first, sel);
        }
    } else {
        // The warp proposes one xform; each lane accepts it for its own row.
        const int k = select_xform(P_ + job_.proposal, n, warp_u);
        const float* accept = P_ + job_.accept + k;
        int sel[kLanes], stays = 0;
        for (int l = 0; l < kLanes; ++l) {
            const int state = b.state[first + l];
            if (young && is_young(state)) {
                sel[l] = select_xform(P_ + job_.select + state_last(state) * n, n, rand01_from(drawn_from[l]));
                continue;
            }
            // As the kernel draws: only where the acceptance is below 1. Which
            // lanes draw follows their rows, which the predictor cannot learn,
            // so every lane's draw is made and kept only where it counts.
            const float a = accept[state_last(state) * n];
            Rng& rng = b.rng[first + l];
            const u64 old = rng.state;
            const int draws = a < 1.0f;
            const int accepted = !draws | (rand01_from(old) < a);
            step_rng(rng);
            rng.state = draws ? rng.state : old;
            sel[l] = accepted ? k : -1;
            // Past the fuse only, as the kernel counts.
            stays += !accepted & past_fuse(state);
        }
        idle += stays;
        if (young) {
            run_selected(b, first, sel);
        } else {
            // The lanes that move are compacted without a branch per lane:
            // acceptance is a coin toss the predictor cannot learn.
            int lanes[kLanes], moved = 0;
            for (int l = 0; l < kLanes; ++l) {
                lanes[moved] = first + l;
                moved += sel[l] >= 0;
            }
            if (moved == kLanes) run_warp(b, first, k);
            else if (moved > 0) run_gathered(b, lanes, moved, k);
        }
    }
    hits_.end_round();
}

void Worker::run_warp(Block& b, int first, int k) {
    const LaneSpan g{&b.x[first], &b.y[first], &b.c[first], &b.state[first], &b.rng[first], kLanes};
    apply_xform(job_.xforms[k], P_, g);
    finish(g, k);
}

void Worker::run_gathered(Block& b, const int* lanes, int count, int k) {
    LaneGroup g;
    g.count = count;
    for (int i = 0; i < count; ++i) {
        const int t = lanes[i];
        g.x[i] = b.x[t]; g.y[i] = b.y[t]; g.c[i] = b.c[t]; g.state[i] = b.state[t]; g.rng[i] = b.rng[t];
    }
    apply_xform(job_.xforms[k], P_, g.span());
    finish(g.span(), k);
    for (int i = 0; i < count; ++i) {
        const int t = lanes[i];
        b.x[t] = g.x[i]; b.y[t] = g.y[i]; b.c[t] = g.c[i]; b.state[t] = g.state[i]; b.rng[t] = g.rng[i];
    }
}

void Worker::own_draws(Block& b, int first, int count, int* out) const {
    // Locals: the stores into `out` could reach the job's fields for all
    // the compiler knows, and would have it read them again for every draw.
    const int n = static_cast<int>(job_.xforms.size());
    const float* select = P_ + job_.select;
    const int* state = b.state.data() + first;
    Rng* rng = b.rng.data() + first;
    if (job_.key->xaos)
        for (int i = 0; i < count; ++i) out[i] = select_xform(select + state_last(state[i]) * n, n, rand01(rng[i]));
    else
        for (int i = 0; i < count; ++i) out[i] = select_xform(select, n, rand01(rng[i]));
}

void Worker::run_divergent(Block& b, int first) {
    int sel[kLanes];
    own_draws(b, first, kLanes, sel);
    run_selected(b, first, sel);
}

void Worker::run_selected(Block& b, int first, const int* sel) {
    // One xform for the whole warp (most warps of the sorted exchange): in
    // place, without gathering.
    if (sel[0] >= 0 && std::all_of(sel, sel + kLanes, [&](int k) { return k == sel[0]; })) {
        run_warp(b, first, sel[0]);
        return;
    }
    const int n = static_cast<int>(job_.xforms.size());
    int lanes[kLanes];
    // Counts (of xform k in end[k + 1]), then each xform's first, then end;
    // lanes that stay (-1) are left out.
    int* end = group_end_.data();
    std::fill(end, end + n + 1, 0);
    for (int l = 0; l < kLanes; ++l)
        if (sel[l] >= 0) ++end[sel[l] + 1];
    for (int k = 1; k < n + 1; ++k) end[k] += end[k - 1];
    for (int l = 0; l < kLanes; ++l)
        if (sel[l] >= 0) lanes[end[sel[l]]++] = first + l;
    // end[k] is now where xform k's lanes end.
    for (int k = 0, begin = 0; k < n; begin = end[k++])
        if (end[k] > begin) run_gathered(b, lanes + begin, end[k] - begin, k);
}

void Worker::finish(LaneSpan g, int k) {
    // Bad values and chain ends are rare: loops over all the lanes that
    // vectorize test for them, and they are taken lane by lane only when
    // one is there.
    int any_bad = 0;
    for (int i = 0; i < g.count; ++i) any_bad |= is_bad_value(g.x[i]) | is_bad_value(g.y[i]);
    int plots[kLanes];
    if (!any_bad) {
        for (int i = 0; i < g.count; ++i) plots[i] = settle_good_point(g.state[i], k);
    } else {
        for (int i = 0; i < g.count; ++i) plots[i] = settle_point(g.x[i], g.y[i], g.state[i], k, g.rng[i], bad);
    }
    if (job_.key->has_final) {
        // The final xform moves copies: the chain goes on from the points.
        LaneGroup f;
        int from[kLanes];
        for (int i = 0; i < g.count; ++i) {
            f.x[f.count] = g.x[i]; f.y[f.count] = g.y[i]; f.c[f.count] = g.c[i]; f.rng[f.count] = g.rng[i];
            from[f.count] = i;
            f.count += plots[i];
        }
        apply_final(f);
        for (int j = 0; j < f.count; ++j) g.rng[from[j]] = f.rng[j];
        std::fill_n(plots, f.count, 1);  // every point of f plots
        plot(f.x, f.y, f.c, plots, f.count, k);
        plotted += f.count;
    } else {
        plot(g.x, g.y, g.c, plots, g.count, k);
        for (int i = 0; i < g.count; ++i) plotted += plots[i];
    }
    int any_end = 0;
    for (int i = 0; i < g.count; ++i) any_end |= state_left(g.state[i]) <= 0;
    if (any_end)
        for (int i = 0; i < g.count; ++i) end_chain_if_done(g.x[i], g.y[i], g.c[i], g.state[i], g.rng[i], job_.fuse);
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

// Every accumulation mode but `none` adds the same integers here (the
// modes are GPU strategies; worker.h says why).
void Worker::plot(const float* x, const float* y, const float* c, const int* keep, int n, int k) {
    if (visibility_[k] <= 0.0f) return;
    if (job_.key->accumulation == Accumulation::None)
        plot_cells<true>(x, y, c, keep, n, k);
    else
        plot_cells<false>(x, y, c, keep, n, k);
}

template <bool Fold>
void Worker::plot_cells(const float* x, const float* y, const float* c, const int* keep, int n, int k) {
    const float vis = visibility_[k];
    const int W = job_.hist_w;
    // Cells and step-palette entries of all the points first, in loops
    // that vectorize; then the adds.
    int inside[kLanes], ix[kLanes], iy[kLanes], entry[kLanes];
    const float* camera = P_ + ParamLayout::kCamera;
    for (int j = 0; j < n; ++j)
        inside[j] = camera_xy(camera, x[j], y[j], W, job_.hist_h, job_.hist_row0, ix[j], iy[j]) & keep[j];
    const bool linear = job_.key->palette_mode == PaletteMode::Linear;
    const u64* words = linear ? nullptr : words_ + k * 256;
    if (!linear)
        for (int j = 0; j < n; ++j) entry[j] = palette_entry(c[j]);
    for (int j = 0; j < n; ++j) {
        if (!inside[j]) continue;
        const long long cell = static_cast<long long>(iy[j]) * W + ix[j];
        float rgba[4], amount[4];
        if (!linear) {
            // A step palette's hit words were made once per xform and entry.
            if (words[entry[j]] != kNoWord) {
                if constexpr (Fold)
                    none_sink_ ^= static_cast<uint32_t>(cell) ^ static_cast<uint32_t>(words[entry[j]]);
                else
                    hits_.add(cell, words[entry[j]], count_amount_[k]);
                continue;
            }
            std::copy_n(P_ + job_.palette + 4 * entry[j], 4, rgba);
        } else {
            palette_lookup(P_ + job_.palette, c[j], true, rgba);
        }
        for (int ch = 0; ch < 4; ++ch) amount[ch] = hit_amount(vis, rgba[ch]);
        if constexpr (Fold) {
            uint32_t bits[4];
            std::memcpy(bits, amount, sizeof bits);
            none_sink_ ^= static_cast<uint32_t>(cell) ^ bits[0] ^ bits[1] ^ bits[2] ^ bits[3];
        } else {
            hits_.add(cell, amount, count_amount_[k]);
        }
    }
}

void Worker::sort_by_xform(Block& b, std::vector<float>& nx, std::vector<float>& ny, std::vector<float>& nc,
                           std::vector<int>& ns) {
    const int T = job_.block, n = static_cast<int>(job_.xforms.size());
    own_draws(b, 0, T, chosen_.data());
    // start[k]: xform k's first slot, then the next free one.
    int* start = group_end_.data();
    std::fill(start, start + n + 1, 0);
    for (int t = 0; t < T; ++t) ++start[chosen_[t] + 1];
    for (int k = 1; k < n; ++k) start[k] += start[k - 1];
    for (int t = 0; t < T; ++t) {
        const int slot = start[chosen_[t]]++;
        nx[slot] = b.x[t]; ny[slot] = b.y[t]; nc[slot] = b.c[t]; ns[slot] = b.state[t];
        sorted_chosen_[slot] = chosen_[t];
    }
    b.x.swap(nx); b.y.swap(ny); b.c.swap(nc); b.state.swap(ns);
    chosen_.swap(sorted_chosen_);
}

void Worker::exchange(Block& b, uint32_t round, uint32_t salt, std::vector<float>& nx, std::vector<float>& ny,
              std::vector<float>& nc, std::vector<int>& ns) {
    const uint32_t T = static_cast<uint32_t>(job_.block);
    if (job_.key->shuffle == Shuffle::Ring) {
        // ring_destination: lane l's column of points rotates by its
        // offset, as two runs split where the rotation wraps.
        const uint32_t warps = T / kLanes;
        const float *x = b.x.data(), *y = b.y.data(), *c = b.c.data();
        const int* state = b.state.data();
        float *to_x = nx.data(), *to_y = ny.data(), *to_c = nc.data();
        int* to_state = ns.data();
        const auto move = [&](uint32_t l, uint32_t from, uint32_t to, uint32_t n) {
            for (uint32_t i = 0; i < n; ++i) {
                const uint32_t t = (from + i) * kLanes + l, slot = (to + i) * kLanes + l;
                to_x[slot] = x[t]; to_y[slot] = y[t]; to_c[slot] = c[t]; to_state[slot] = state[t];
            }
        };
        for (uint32_t l = 0; l < kLanes; ++l) {
            const uint32_t offset = ring_offset(l, round, warps, salt);
            move(l, 0, offset, warps - offset);
            move(l, warps - offset, 0, offset);
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
