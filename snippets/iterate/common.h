// flamejit — iteration pieces shared by the GPU kernel and the CPU backend.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Both backends iterate the same way: warps of 32 lanes apply one xform per
// round, points then move between the warps of a block, and hits land in a
// float RGBA histogram. The pieces whose results must agree bit for bit on
// both sides live here.
#pragma once

#include "fj_device.h"

namespace fj {

// flam3's chains (rect.c iter_thread, flam3_iterate): every chain starts at
// a random point, runs a fuse of unplotted steps and then plots FJ_CHAIN
// samples before the next one starts afresh. For genomes that mix slowly the
// young part of each chain shows in the image, so flamejit keeps the same
// chains instead of letting points run forever. The fuse is FJ_FUSE steps,
// or FJ_FUSE_EARLYCLIP when flam3 renders with earlyclip=1 (rect.c's two
// fuse constants); it reaches the code below as the `fuse` argument.
#define FJ_FUSE 15
#define FJ_FUSE_EARLYCLIP 100
#define FJ_CHAIN 10000
// Steps after which a chain's point no longer remembers where it started,
// for all but pathological genomes. A lane whose first chain is "settled"
// runs this many extra unplotted steps, so it plots old points only; mixing
// fresh and settled first chains (fresh_chain_fraction) gives the image
// flam3's share of young chain points when lanes plot fewer than FJ_CHAIN.
#define FJ_SETTLE 1000
// Rounds without a plot after which iteration gives up on a genome whose
// every point blows up: well past any fuse and settling (the backends take
// it rounds_per_step times, as lazy xaos lanes settle that much slower).
#define FJ_STALL_ROUNDS (FJ_SETTLE + 4 * FJ_FUSE_EARLYCLIP)

// flam3's bad value: NaN or a coordinate beyond 1e10 (written so NaN fails).
FJ_HD FJ_INLINE bool is_bad_value(float v) { return !(fabsf(v) <= 1e10f); }
FJ_HD FJ_INLINE bool is_bad_point(float x, float y) { return is_bad_value(x) || is_bad_value(y); }

// Steps for which the point of a fresh chain is young: it chooses its own
// xform under warp-uniform selection. The points of a warp's lanes share
// the warp's choices and move together (a contracting xform draws them
// closer); for points on the attractor that is a sample of it all the
// same. But fresh chains start together in every fresh lane of a frame's
// first round (and end together 10000 samples later), and while the fuse
// has not yet brought their points to the attractor (flam3 plots a few of
// them: faint copies of it around a slowly converging genome) a warp's
// young points took one path, so how many strays an image showed went by a
// few warps' draws. On a small frame of a strongly contracting symmetric
// flame the mean level varied by a third from seed to seed (README,
// "Iteration semantics"). Young: 63 steps, a fuse of 15 and 48 plotted ones
// (under earlyclip, part of its fuse of 100).
#define FJ_YOUNG 63

// A point's state word: last xform + 1 in bits 0..7 (0 = the chain's first
// step, which selects from row 0), consecutive bad values in bits 8..10,
// the steps it stays young in bits 11..16, and from bit 17 the steps left in
// its chain (unplotted while above FJ_CHAIN).
FJ_HD FJ_INLINE int point_state(int left, int bad, int last, int young) {
    return (left << 17) | (young << 11) | (bad << 8) | last;
}
FJ_HD FJ_INLINE int state_last(int s) { return s & 0xff; }
FJ_HD FJ_INLINE int state_bad(int s) { return (s >> 8) & 7; }
FJ_HD FJ_INLINE int state_young(int s) { return (s >> 11) & 63; }
FJ_HD FJ_INLINE int state_left(int s) { return s >> 17; }
FJ_HD FJ_INLINE bool is_young(int s) { return state_young(s) != 0; }
static_assert(FJ_FUSE_EARLYCLIP + FJ_CHAIN + FJ_SETTLE < (1 << 14), "a chain's steps fit the state word");

// The state of a point that starts its lane's first chain: fresh (plots
// after the fuse, young) when u < fresh_fraction, else settled.
FJ_HD FJ_INLINE int first_chain_state(float u, float fresh_fraction, int fuse) {
    return u < fresh_fraction ? point_state(fuse + FJ_CHAIN, 0, 0, FJ_YOUNG)
                              : point_state(fuse + FJ_CHAIN + FJ_SETTLE, 0, 0, 0);
}

// The state of a point whose lane moves to another time step of a
// motion-blurred frame: it lies on the previous step's attractor, close to
// the new one but not on it, so it runs at least `fuse` unplotted steps
// under the new parameters before it plots again. The state counts only the
// steps left, so its chain plots a whole FJ_CHAIN from there; the point
// stays, so this is no young chain start.
FJ_HD FJ_INLINE int refuse_state(int s, int fuse) {
    const int left = state_left(s) > FJ_CHAIN + fuse ? state_left(s) : FJ_CHAIN + fuse;
    return point_state(left, state_bad(s), state_last(s), state_young(s));
}

// The time steps of a motion-blurred frame go to blocks of lanes, not to
// rounds: one iterate call holds all of a pass's steps, laid end to end as a
// line of samples (step s ends at ends[s], the last at the call's total),
// and block b of B plots the stretch from block_span_start(b) to
// block_span_start(b + 1), counting what it plotted. So most blocks run one
// step for the whole frame, their chains settle on its attractor as a
// still's do, and every step gets its samples whatever the settling costs.
// A chain carried from step to step every few rounds would instead plot
// the previous step's attractor for a while after each change, which
// genomes that mix slowly show (a blurred rotation looks smeared).
FJ_HD FJ_INLINE u64 block_span_start(u64 block, u64 blocks, u64 total) {
    return total / blocks * block + total % blocks * block / blocks;
}

// The step holding sample `pos` of the line, searched forward from `from`
// (a block's position only grows within a call).
FJ_HD FJ_INLINE int step_at(const u64* ends, int steps, u64 pos, int from) {
    int s = from < 0 ? 0 : from;
    while (s + 1 < steps && pos >= ends[s]) ++s;
    return s;
}

// The share of lanes whose first chain is fresh. flam3 plots one young
// chain start per FJ_CHAIN samples. With every lane running the same
// rounds, a fresh lane plots p samples in ceil(p/FJ_CHAIN) chains; a settled
// one plots FJ_SETTLE fewer and starts one young chain fewer. The share that
// makes young starts per plotted sample 1/FJ_CHAIN reproduces flam3's mix of
// young and old points (p > FJ_SETTLE, or settled lanes would plot nothing).
FJ_HD FJ_INLINE float fresh_share_for(float p) {
    const float L = (float)FJ_CHAIN, A = (float)FJ_SETTLE;
    if (!(p > A)) return 1.0f;
    const float fresh_starts = ceilf(p / L);
    const float settled_starts = fmaxf(0.0f, ceilf((p - A) / L) - 1.0f);
    const float f = ((p - A) / L - settled_starts) / (fresh_starts - settled_starts - A / L);
    return fminf(1.0f, fmaxf(0.0f, f));
}

// The same for lanes that plot `mean_plotted` samples on average: a fresh
// lane plots p = mean + (1 - share)·FJ_SETTLE, solved by a few fixed-point
// steps (the share moves little with p). Near whole chains there are
// several solutions; starting from all lanes fresh finds the one with
// the fewest unplotted rounds. Lanes of FJ_SETTLE samples or fewer have one
// solution, share = mean/FJ_CHAIN, found from share 0: they are nearly all
// settled and run FJ_SETTLE rounds more than they plot, which keeps young
// points as rare as in flam3 when many lanes share few samples (a small
// frame on a large GPU, where lanes all fresh would plot young points only).
FJ_HD FJ_INLINE float fresh_chain_fraction(float mean_plotted) {
    float share = mean_plotted > (float)FJ_SETTLE ? fresh_share_for(mean_plotted) : 0.0f;
    for (int i = 0; i < 4; ++i) share = fresh_share_for(mean_plotted + (1.0f - share) * (float)FJ_SETTLE);
    return share;
}

// Rounds from a frame's start after which lanes, `fresh_share` of them
// fresh, have plotted `mean_plotted` samples each on average: what a fresh
// lane plotted by then (settled lanes plot nothing in their first
// FJ_SETTLE rounds after the fuse and then as many per round), and one fuse
// per chain of it.
FJ_HD FJ_INLINE float fresh_lane_rounds(float mean_plotted, float fresh_share, int fuse) {
    const float settle = (float)FJ_SETTLE;
    float p = 0.0f;
    if (mean_plotted <= 0.0f)
        p = 0.0f;
    else if (mean_plotted <= fresh_share * settle)
        p = mean_plotted / fresh_share;
    else
        p = mean_plotted + (1.0f - fresh_share) * settle;
    return p + (float)fuse * ceilf(p / (float)FJ_CHAIN);
}

// Whether a point of this state is past its fuse: its next step plots.
FJ_HD FJ_INLINE bool past_fuse(int state) { return state_left(state) <= FJ_CHAIN; }

// The step of a good point moved by xform `applied`: one step fewer left,
// no bad values in a row. Returns true when the point is past its fuse and
// is to be plotted.
FJ_HD FJ_INLINE bool settle_good_point(int& state, int applied) {
    const bool plots = past_fuse(state);
    const int young = state_young(state);
    state = point_state(state_left(state) - 1, 0, applied + 1, young > 0 ? young - 1 : 0);
    return plots;
}

// flam3's rules after an xform moved a point (flam3_iterate): a bad value
// becomes a random point and the step is retried (no plot, same previous
// xform) up to 4 times in a row; the 5th is accepted. Returns true when the
// point is past its fuse and is to be plotted; counts bad values (in a
// kernel's 32-bit counter, or the CPU worker's 64-bit one).
template <typename Count>
FJ_HD FJ_INLINE bool settle_point(float& x, float& y, int& state, int applied, Rng& rng, Count& bad_values) {
    if (is_bad_point(x, y)) {
        x = rand11(rng);
        y = rand11(rng);
        ++bad_values;
        const int consecutive = state_bad(state) + 1;
        if (consecutive < 5) {
            state = point_state(state_left(state), consecutive, state_last(state), state_young(state));
            return false;
        }
    }
    return settle_good_point(state, applied);
}

// After a step (and its plot): a chain that has plotted its FJ_CHAIN samples
// ends, and the point starts a fresh one as flam3 seeds a sub-batch.
FJ_HD FJ_INLINE void end_chain_if_done(float& x, float& y, float& c, int& state, Rng& rng, int fuse) {
    if (state_left(state) > 0) return;
    x = rand11(rng);
    y = rand11(rng);
    c = rand01(rng);
    state = point_state(fuse + FJ_CHAIN, 0, 0, FJ_YOUNG);
}

// Index of the xform a draw u in [0,1) selects from a cumulative row: the
// first k whose entry is above u. On the host, where lanes draw on their own
// (per-thread selection, young lanes) and a search that stops at a random
// place mispredicts about once a draw, a short row counts its entries at or
// below u instead, without a branch: the same k, as rows never decrease
// (param_layout.cpp, put_cumulative).
FJ_HD FJ_INLINE int select_xform(const float* cumulative, int n, float u) {
#if !FJ_DEVICE_CODE
    if (n <= 32) {
        int k = 0;
        for (int i = 0; i + 1 < n; ++i) k += !(u < cumulative[i]);
        return k;
    }
#endif
    int k = 0;
    while (k + 1 < n && !(u < cumulative[k])) ++k;
    return k;
}

// What one hit adds to a channel. flam3 keeps its histogram in unsigned
// integers (bits=33, the default) and truncates after every add, so each
// contribution counts only its integer part. The small margin keeps entries
// meant to be integers (k/255 · 255 computed in float) from losing one.
FJ_HD FJ_INLINE float hit_amount(float visibility, float value) {
    return floorf(visibility * value + 1e-3f);
}

// Packed accumulation (--accumulate packed): a cell's four channels as
// unsigned 16-bit fields of one 64-bit word (R in bits 0..15 up to A in
// 48..63), so that one 64-bit atomic add carries a whole hit. Carries
// between fields are what can go wrong, so the word arithmetic lives here,
// where host tests can hold it to plain per-channel sums.
//
// A hit fits when every amount is an integer in [0, 255]: hit_amount of a
// palette entry (≤ 255) at visibility ≤ 1. Opacity above 1 (a genome may
// say so, and extrapolated animation frames may) gives more, and a negative
// palette value less; such hits take the float path instead.
//
// Every adder that sees a field at 2^15 or more (bit 15 set) exchanges the
// word for zero and adds what it took to the float grid. The add that
// crosses 2^15 leaves that field at most 32767 + 255 = 33022, so the 16-bit
// field holds 127 further maximal adds (33022 + 127·255 = 65407) and the
// 128th may carry into the next field. The adds that land between the
// crossing and the first exchange after it (one atomic round trip of the
// crossing adder, a little less when a later adder's exchange lands first)
// decide: the kernel cannot bound their number, so the mode is exact only
// while fewer than 128 adds (fewer than 32514 in one channel) reach one
// cell within that window. A loss is never silent: packed_carries counts it.
#define FJ_PACKED_FLUSH_BITS 0x8000800080008000ULL

FJ_HD FJ_INLINE bool packed_fits(const float v[4]) {
    for (int k = 0; k < 4; ++k)
        if (!(v[k] >= 0.0f && v[k] <= 255.0f)) return false;  // NaN fails too
    return true;
}

FJ_HD FJ_INLINE u64 packed_word(const float v[4]) {
    return (u64)(u32)v[0] | (u64)(u32)v[1] << 16 | (u64)(u32)v[2] << 32 | (u64)(u32)v[3] << 48;
}

FJ_HD FJ_INLINE float packed_field(u64 word, int k) { return (float)(u32)((word >> (16 * k)) & 0xffffu); }

// True when the adder of `add` must exchange the word: a field is at 2^15
// or more before or after its add. (Before, too: an add that carries can
// leave every field small again, and it must not go unseen.)
FJ_HD FJ_INLINE bool packed_needs_flush(u64 before, u64 add) {
    return ((before | (before + add)) & FJ_PACKED_FLUSH_BITS) != 0;
}

// True when adding `add` to `before` carries out of some field, i.e. counts
// are lost. The first such add to a word since it was last exchanged sees
// the true fields (nothing wrapped yet), so counting these adds counts every
// word that lost counts at least once. Only fields above 65280 can carry,
// and those have bit 15 set, which the cheap test looks for first.
FJ_HD FJ_INLINE bool packed_carries(u64 before, u64 add) {
    if (!(before & FJ_PACKED_FLUSH_BITS)) return false;
    for (int k = 0; k < 4; ++k)
        if (((before >> (16 * k)) & 0xffffu) + ((add >> (16 * k)) & 0xffffu) > 0xffffu) return true;
    return false;
}

// The warp a lane's point moves to after round `round` under the ring
// shuffle. For a fixed lane the map from warp to destination is a rotation,
// so the whole block is permuted; every lane keeps its lane index, so shared
// memory accesses stay in the lane's bank. The offset is a hash of the lane
// and round: a fixed offset per lane would keep lanes that agree modulo the
// warp count together forever (cuburn's diagonal-shuffle flaw).
// ring_offset is the rotation of one lane's points in one round, apart so
// that the CPU backend can reduce it once per lane rather than per point.
FJ_HD FJ_INLINE u32 ring_offset(u32 lane, u32 round, u32 warps, u32 salt) {
    u32 h = lane * 0x9E3779B1u ^ (round + salt) * 0x85EBCA77u;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    return h % warps;
}

FJ_HD FJ_INLINE u32 ring_destination(u32 warp, u32 lane, u32 round, u32 warps, u32 salt) {
    return (warp + ring_offset(lane, round, warps, salt)) % warps;
}

// The slot a thread's point moves to under the full shuffle: a keyed
// pseudo-random permutation of the block, fresh every round. Invertible
// steps on b bits (odd multiply, add, xor-shift) make a bijection of
// [0, 2^b); cycle-walking restricts it to [0, threads) for any block size.
FJ_HD FJ_INLINE u32 full_destination(u32 thread, u32 round, u32 threads, u32 salt) {
    u32 bits = 1;
    while ((1u << bits) < threads) ++bits;
    const u32 mask = (1u << bits) - 1u;
    u32 key = (round + 0x632BE5ABu) * 0x9E3779B1u ^ salt * 0x85EBCA77u;
    u32 x = thread;
    do {
        u32 k = key;
        for (int i = 0; i < 3; ++i) {
            k = k * 0x2C1B3C6Du + 0x297A2D39u;
            x = (x * ((k >> 8) | 1u)) & mask;
            x = (x + (k >> 16)) & mask;
            x ^= x >> (bits / 2 + 1);
        }
    } while (x >= threads);
    return x;
}

// (int)scaled, the float first bounded to [-1, 256], which changes no entry
// a finite coordinate picks: one far outside 0..1 would otherwise be cast
// past int's range, undefined on the host while the GPU saturates, and the
// two must pick alike. NaN counts as below 0 (the GPU's cast made it 0, and
// the linear blend NaN).
FJ_HD FJ_INLINE int palette_whole(float scaled) {
    return (int)(scaled >= -1.0f ? (scaled <= 256.0f ? scaled : 256.0f) : -1.0f);
}

// The step palette's entry for colour coordinate c (flam3 rect.c):
// (int)(c·256) clamped to [0, 255].
FJ_HD FJ_INLINE int palette_entry(float c) {
    const int i = palette_whole(c * 256.0f);
    return i < 0 ? 0 : (i > 255 ? 255 : i);
}

// Palette colour for colour coordinate c: step takes palette_entry, linear
// blends neighbouring entries. `palette` holds 256 RGBA entries already
// scaled by 255.
FJ_HD FJ_INLINE void palette_lookup(const float* palette, float c, bool linear, float out[4]) {
    if (!linear) {
        const int i = palette_entry(c);
        for (int k = 0; k < 4; ++k) out[k] = palette[4 * i + k];
        return;
    }
    const float scaled = c * 256.0f;
    const int i = palette_whole(scaled);
    if (i < 0) {
        for (int k = 0; k < 4; ++k) out[k] = palette[k];
        return;
    }
    if (i >= 255) {
        for (int k = 0; k < 4; ++k) out[k] = palette[4 * 255 + k];
        return;
    }
    const float frac = scaled - (float)i;
    for (int k = 0; k < 4; ++k)
        out[k] = palette[4 * i + k] * (1.0f - frac) + palette[4 * (i + 1) + k] * frac;
}

// Histogram column and row of a world point; returns 0 (and column and row
// 0) outside. `camera` is the world-to-cell affine of the frame plan
// (rotation, y down, gutter included) as pack_camera (codegen/param_layout.h)
// stores it: each row a·x + b·y + c with its shift c split into a fraction
// (in place of c) and a whole part (after the six), so that a row is summed
// with the fraction alone and floored before its whole part is added. flam3
// sums in double; a float sum with the whole shift in it put the points
// within half a float ulp below a cell's edge on the edge. Points crowd at
// a world axis (tan(x + iy) sends them to within e^-2|y| of x = 0), which is
// a cell's edge wherever the frame is centred on it with an even size: that
// column lost a sixth of its hits to the next, R 1.5-1.8 against flam3.
// Summed without the whole part, a point at an axis keeps its side. The
// whole parts are below 2^23 (pack_camera), so they, the strip's first row
// `row0` (FramePlan::hist_row0) and the histogram's edges add exactly, and
// every point lands in the cell the whole frame gives it. The device floors
// in one instruction; the host, where floorf is a call, tests the bounds on
// the sum first (the same test: whole numbers bound it) and floors what is
// inside by a truncation, so that the CPU backend's loop over a round's
// points vectorizes (no branches).
FJ_HD FJ_INLINE int camera_xy(const float* camera, float x, float y, int hist_w, int hist_h, int row0, int& ix,
                              int& iy) {
    const float sx = camera[0] * x + camera[1] * y + camera[2];
    const float sy = camera[3] * x + camera[4] * y + camera[5];
    const float wx = camera[6], wy = camera[7] - (float)row0;
#if FJ_DEVICE_CODE
    const float cx = floorf(sx) + wx, cy = floorf(sy) + wy;
    const int inside = (cx >= 0.0f) & (cy >= 0.0f) & (cx < (float)hist_w) & (cy < (float)hist_h);
    ix = (int)(inside ? cx : 0.0f);
    iy = (int)(inside ? cy : 0.0f);
#else
    const int inside = (sx >= -wx) & (sy >= -wy) & (sx < (float)hist_w - wx) & (sy < (float)hist_h - wy);
    const float in_x = zero_unless(inside, sx), in_y = zero_unless(inside, sy);
    int fx = (int)in_x, fy = (int)in_y;
    fx -= in_x < (float)fx;
    fy -= in_y < (float)fy;
    ix = (fx + (int)wx) & -inside;
    iy = (fy + (int)wy) & -inside;
#endif
    return inside;
}

// Histogram cell of a world point, or -1 outside.
FJ_HD FJ_INLINE long long camera_cell(const float* camera, float x, float y, int hist_w, int hist_h, int row0) {
    int ix, iy;
    return camera_xy(camera, x, y, hist_w, hist_h, row0, ix, iy) ? (long long)iy * hist_w + ix : -1;
}

}  // namespace fj
