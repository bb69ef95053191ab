// flamejit — the iteration kernel (device only; completed by generated code).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stitcher places this after the generated part, which defines:
//   FJ_BLOCK            threads per block (multiple of 32)
//   FJ_SHUFFLE_NONE / _RING / _FULL / _DIVERGENT / _SORTED (one of them)
//   FJ_ACCUM_ATOMIC / _SCALAR / _WARP / _SHARED / _PACKED / _NONE (one of them;
//                       accumulate.cuh, placed before this file, holds the modes;
//                       seed.cuh, placed there too, FjPoint and fj_seed)
//   FJ_XAOS             1 for lazy selection: it depends on the previous
//                       xform, or rare xforms are spread over the lanes
//                       (codegen/param_layout.h)
//   FJ_PALETTE_LINEAR   1 for palette_mode="linear"
//   FJ_HAS_FINAL        1 when there is a final xform
//   FJ_DENSITY_COUNT    1 when hits also go to a separate count buffer
//   FJ_TIME_STEPS       1 when an iterate call holds several time steps
//   FJ_ATOMIC_CEILING   1 when the module holds fj_atomic_ceiling (benchmarks)
//   FJ_NXFORMS, FJ_SELECT, FJ_PALETTE, FJ_FINAL_OPACITY   parameter-block offsets
//   FJ_PROPOSAL, FJ_ACCEPT   (xaos) warp-uniform proposal and acceptance rows
//   fj_apply_xform(P, k, x, y, c, vis, rng)   applies xform k
//   fj_apply_final(P, x, y, c, rng)           (when FJ_HAS_FINAL)
//
// One launch: every thread loads its point and random state from the pool,
// runs `rounds` rounds (select, apply, plot, exchange), and stores them back.
// Points persist across launches, so the fuse is paid once per pool.
// `fuse` is the unplotted steps at each chain's start (iterate/common.h).
//
// Without FJ_TIME_STEPS a call has one parameter block, `params`, and every
// block runs every round; `round_base` is the rounds run before the launch,
// which number the exchanges. With it (a motion-blurred frame: the key's
// time_steps), the launches of one iterate call share its time steps:
// `steps` parameter blocks `param_stride` floats apart, step s ending at
// sample step_ends[s] of the call's line (fj::block_span_start). A block
// runs until it has plotted its stretch of the line, counting its samples
// every round, and moves to the next step where its count crosses a step's
// end. Per block and across launches, block_plotted keeps what it plotted
// in this call (the host clears it), block_steps which of the frame's steps
// its points are on (`first_step` is this call's first; -1: none yet) and
// block_rounds the rounds it ran in the frame, which number its exchanges.
// The bookkeeping costs registers, which is why stills leave it out.

#if defined(FJ_SHUFFLE_DIVERGENT) || defined(FJ_SHUFFLE_SORTED)
#define FJ_WARP_UNIFORM 0
#else
#define FJ_WARP_UNIFORM 1
#endif
#if defined(FJ_SHUFFLE_RING) || defined(FJ_SHUFFLE_FULL)
#define FJ_EXCHANGE 1
#else
#define FJ_EXCHANGE 0
#endif

// flam3's count channel: every hit also adds visibility·255 (truncated) to
// a count that ignores palette alpha and temporal weights and only chooses
// density-estimation kernels. Compiled in (FJ_DENSITY_COUNT, KernelKey's
// density_count) only for frames where it can differ from alpha.
__device__ FJ_INLINE void fj_count(float* __restrict__ counts, long long cell, float vis) {
#if FJ_DENSITY_COUNT && !defined(FJ_ACCUM_NONE)
    if (cell >= 0) atomicAdd(counts + cell, fj::hit_amount(vis, 255.0f));
#else
    (void)counts, (void)cell, (void)vis;
#endif
}

__device__ FJ_INLINE void fj_plot(const float* __restrict__ P, FjAccum& accum, float* __restrict__ counts, int hist_w,
                                  int hist_h, int hist_row0, float x, float y, float c, float vis) {
    long long cell = fj::camera_cell(P, x, y, hist_w, hist_h, hist_row0);
    if (vis <= 0.0f) cell = -1;
    float rgba[4];
    fj::palette_lookup(P + FJ_PALETTE, c, FJ_PALETTE_LINEAR, rgba);
    for (int k = 0; k < 4; ++k) rgba[k] = fj::hit_amount(vis, rgba[k]);
    fj_accumulate(accum, cell, rgba);
    fj_count(counts, cell, vis);
}

#if defined(FJ_SHUFFLE_SORTED)
// The sorted exchange. Every thread has drawn an xform for the point it
// holds; the block's points then move, carrying their xform, to the slots of
// a stable counting sort by that xform (xform by xform, and within one by
// warp and lane, as the CPU backend's Worker::sort_by_xform), so that a warp
// holds points of one xform except where one xform's run of slots ends
// inside it. Each draw is the point's own, from its own row, so the chains
// are flam3's with no lazy round. What it costs is the second xform of the
// warps where one xform's slots end: at most N - 1 xform runs a round more
// than a block's B warps make under warp-uniform selection, for N xforms
// drawn. Two tables count each xform's points per warp, one filled while
// the other is cleared, and every warp scans the whole table for itself, so
// that a round takes two barriers, as the ring's exchange does.
struct FjSortShared {
    float x[FJ_BLOCK], y[FJ_BLOCK], c[FJ_BLOCK];
    int state[FJ_BLOCK], k[FJ_BLOCK];
    int counts[2][FJ_NXFORMS * (FJ_BLOCK / 32)];  // per xform, then warp
};

__device__ FJ_INLINE void fj_sort_open(FjSortShared& s) {
    for (int i = threadIdx.x; i < 2 * FJ_NXFORMS * (FJ_BLOCK / 32); i += FJ_BLOCK) (&s.counts[0][0])[i] = 0;
    __syncthreads();
}

__device__ FJ_INLINE void fj_sort_points(FjSortShared& s, FjPoint& pt, int& k, unsigned int round) {
    constexpr int kWarps = FJ_BLOCK / 32, kEntries = FJ_NXFORMS * kWarps;
    const unsigned int lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
    int* counts = s.counts[round & 1u];
    int* next = s.counts[(round + 1u) & 1u];
    const unsigned int same = __match_any_sync(0xffffffffu, k);
    const int rank = __popc(same & ((1u << lane) - 1u));
    if (rank == 0) counts[k * kWarps + warp] = __popc(same);
    __syncthreads();
    // The table the next round fills was last read before this round began.
    for (int i = lane; i < FJ_NXFORMS; i += 32) next[i * kWarps + warp] = 0;
    // The counts before entry (k, warp), xform-major: prefix sums over the
    // table 32 entries at a time, each lane taking its entry's from the
    // lane of the chunk that holds it.
    const int mine = k * kWarps + (int)warp;
    int carry = 0, slot = rank;
    for (int first = 0; first < kEntries; first += 32) {
        const int i = first + (int)lane;
        const int n = i < kEntries ? counts[i] : 0;
        int sum = n;
        for (unsigned int d = 1; d < 32; d <<= 1) {
            const int below = __shfl_sync(0xffffffffu, sum, lane >= d ? lane - d : lane);
            if (lane >= d) sum += below;
        }
        const int before = carry + sum - n;
        const int at = __shfl_sync(0xffffffffu, before, (mine - first) & 31);
        if (mine >= first && mine < first + 32) slot += at;
        carry += __shfl_sync(0xffffffffu, sum, 31);
    }
    s.x[slot] = pt.x;
    s.y[slot] = pt.y;
    s.c[slot] = pt.c;
    s.state[slot] = pt.state;
    s.k[slot] = k;
    __syncthreads();
    pt.x = s.x[threadIdx.x];
    pt.y = s.y[threadIdx.x];
    pt.c = s.c[threadIdx.x];
    pt.state = s.state[threadIdx.x];
    k = s.k[threadIdx.x];
}
#endif

// The atomic ceiling: the accumulator's update rate alone. Every thread adds
// `rounds` unit hits through the same fj_accumulate as fj_iterate (and, for
// `packed`, into the packed grid that the backend flushes before the
// post-pass): to uniformly random cells of the grid, or, with list_size > 0,
// to the cells of `cell_list`, a sample of a genome's hits in random order,
// so that the rate is the one its hit distribution allows (the atomics of
// hits that crowd a few cells wait for each other). The threads read the
// list in turn, a warp 32 consecutive entries, so reading it costs little.
#if FJ_ATOMIC_CEILING
extern "C" __global__ void __launch_bounds__(FJ_BLOCK)
fj_atomic_ceiling(FjAccumTarget target, unsigned int cells, const unsigned int* __restrict__ cell_list,
                  unsigned int list_size, unsigned int rounds, unsigned long long seed) {
    fj::Rng rng = fj::make_rng(seed, blockIdx.x * FJ_BLOCK + threadIdx.x);
    FjAccum accum = fj_accum_open(target);
    const float one[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    const unsigned int threads = gridDim.x * FJ_BLOCK, tid = blockIdx.x * FJ_BLOCK + threadIdx.x;
    for (unsigned int r = 0; r < rounds; ++r) {
        const long long cell = list_size ? cell_list[((unsigned long long)r * threads + tid) % list_size]
                                         : fj::next_u32(rng) % cells;
        fj_accumulate(accum, cell, one);
    }
    fj_accum_close(accum);
}
#endif

// Registers. The specialized kernels (FJ_FULL_OCCUPANCY, set by the
// stitcher) are compiled for 2048 resident threads per SM, the most sm_80 and
// sm_90 hold: 32 registers a thread, 8 blocks of 256. Left to itself ptxas
// gives some kernels 38-55 registers (6 blocks or fewer); the benchmark set
// and 53 of the 60 corpus kernels fit 32 without spilling (seven of lazy
// selection spill 4-268 bytes: benchmarks/README.md, "Spills the report
// hid"), and on an H200 the bound ran dense 5 % and final-post 1 % faster
// at quality 1000, the rest alike (benchmarks/README.md, "On a GPU: NVIDIA
// H200, 2026-11-27 (afternoon)"). Parts that hold fewer threads per SM get as many blocks as
// they hold (ptxas clamps the request). Not for motion-blurred kernels
// (FJ_TIME_STEPS: 28-68 bytes of spills under the bound, unmeasured), nor
// for the kernel of all variations (the kernel report's reference),
// compiled as other renderers' would be. A linked kernel's entry takes the
// bound its xform functions were compiled under (FJ_LINKED_REGISTERS, 32 by
// default: the same 8 blocks of 256), as nvJitLink requires.
#if defined(FJ_LINKED_REGISTERS) && !FJ_TIME_STEPS
#define FJ_MIN_BLOCKS (65536 / (FJ_LINKED_REGISTERS * FJ_BLOCK))
#elif defined(FJ_FULL_OCCUPANCY) && !FJ_TIME_STEPS
#define FJ_MIN_BLOCKS (2048 / FJ_BLOCK)
#else
#define FJ_MIN_BLOCKS 1
#endif
extern "C" __global__ void __launch_bounds__(FJ_BLOCK, FJ_MIN_BLOCKS)
fj_iterate(const float* __restrict__ params, unsigned int param_stride, const unsigned long long* __restrict__ step_ends,
           int steps, int first_step, unsigned long long* __restrict__ block_plotted, int* __restrict__ block_steps,
           unsigned int* __restrict__ block_rounds, float4* __restrict__ points, unsigned long long* __restrict__ rng_states,
           FjAccumTarget target, int hist_w, int hist_h, int hist_row0, unsigned int rounds, unsigned int round_base,
           unsigned long long* __restrict__ counters, float* __restrict__ counts, int fuse) {
    const unsigned int tid = blockIdx.x * FJ_BLOCK + threadIdx.x;
    fj::Rng rng;
    rng.state = rng_states[tid];
    float4 raw = points[tid];
    FjPoint pt = *reinterpret_cast<FjPoint*>(&raw);
    // At most one of each a round (rounds is 32 bits): a register fewer
    // each than 64 bits.
    unsigned int plotted = 0, bad = 0, rejected = 0;
    FjAccum accum = fj_accum_open(target);

#if FJ_EXCHANGE
    __shared__ float sx[FJ_BLOCK], sy[FJ_BLOCK], sc[FJ_BLOCK];
    __shared__ int ss[FJ_BLOCK];
#elif defined(FJ_SHUFFLE_SORTED)
    __shared__ FjSortShared sorted;
    fj_sort_open(sorted);
#endif

#if FJ_TIME_STEPS
    // The block's place on the call's line of samples (block-uniform).
    // (Values needed again after the loop are computed again there: fewer
    // registers held through the rounds.)
    const unsigned long long total = step_ends[steps - 1];
    const unsigned long long end = fj::block_span_start(blockIdx.x + 1, gridDim.x, total);
    unsigned long long pos = fj::block_span_start(blockIdx.x, gridDim.x, total) + block_plotted[blockIdx.x];
    int on_step = block_steps[blockIdx.x];
    const unsigned int first_round = block_rounds[blockIdx.x];
    const float* __restrict__ P = params;
    int s = 0;  // the call's step the block is on
#else
    const float* __restrict__ P = params;
    const unsigned int first_round = round_base;  // numbers the ring's and full exchanges
    (void)param_stride, (void)step_ends, (void)steps, (void)first_step, (void)block_plotted, (void)block_steps,
        (void)block_rounds, (void)first_round;
#endif

    unsigned int r = 0;
    for (; r < rounds; ++r) {
#if FJ_TIME_STEPS
        if (pos >= end) break;
        s = fj::step_at(step_ends, steps, pos, s);
        if (first_step + s != on_step) {
            // Points from another step's attractor settle on this one first.
            if (on_step >= 0) pt.state = fj::refuse_state(pt.state, fuse);
            on_step = first_step + s;
        }
        P = params + (size_t)s * param_stride;
        const unsigned int plotted_before = plotted;
#endif
        const int last = fj::state_last(pt.state);
        // Every lane draws, so each stream advances alike whatever the strategy.
        float u = fj::rand01(rng);
#if FJ_WARP_UNIFORM
        // One choice per warp: every lane applies the same xform, no
        // divergence; but a young point chooses its own (common.h, FJ_YOUNG).
        const bool young = fj::is_young(pt.state);
        const float warp_u = __shfl_sync(0xffffffffu, u, 0);
        if (!young) u = warp_u;
#endif
#if FJ_XAOS && FJ_WARP_UNIFORM
        // A young point draws from its own row, as divergent selection does,
        // and always moves; the others from the warp's proposal.
        const int k = fj::select_xform(P + (young ? FJ_SELECT + last * FJ_NXFORMS : FJ_PROPOSAL), FJ_NXFORMS, u);
        // An xform proposed as often as the lane's row draws it (every one
        // but the rare ones, without xaos) is taken without a draw.
        const float accept = young ? 1.0f : P[FJ_ACCEPT + last * FJ_NXFORMS + k];
        bool moves = true;
        if (accept < 1.0f) moves = fj::rand01(rng) < accept;
        // Counted past the fuse only, as plotted samples are: their ratio
        // is then the idle share of a steady chain, whatever the fuse's part.
        rejected += !moves && fj::past_fuse(pt.state);
#else
        int k = fj::select_xform(P + FJ_SELECT + (FJ_XAOS ? last * FJ_NXFORMS : 0), FJ_NXFORMS, u);
        const bool moves = true;
#endif
#if defined(FJ_SHUFFLE_SORTED)
        fj_sort_points(sorted, pt, k, r);
#endif
        if (moves) {
            float vis;
            fj_apply_xform(P, k, pt.x, pt.y, pt.c, vis, rng);
            if (fj::settle_point(pt.x, pt.y, pt.state, k, rng, bad)) {
                float fx = pt.x, fy = pt.y, fc = pt.c;
#if FJ_HAS_FINAL
                const float fo = P[FJ_FINAL_OPACITY];
                if (fo >= 1.0f || fj::rand01(rng) < fo) {
                    fj_apply_final(P, fx, fy, fc, rng);
                    // flam3 ignores a bad final point's flag: it plots the random point.
                    if (fj::is_bad_point(fx, fy)) {
                        fx = fj::rand11(rng);
                        fy = fj::rand11(rng);
                    }
                }
#endif
                fj_plot(P, accum, counts, hist_w, hist_h, hist_row0, fx, fy, fc, vis);
                ++plotted;
            }
            fj::end_chain_if_done(pt.x, pt.y, pt.c, pt.state, rng, fuse);
        }

#if FJ_EXCHANGE
#if defined(FJ_SHUFFLE_RING)
        const unsigned int lane = threadIdx.x & 31u;
        const unsigned int slot =
            fj::ring_destination(threadIdx.x >> 5, lane, first_round + r, FJ_BLOCK / 32, blockIdx.x) * 32u + lane;
#else
        const unsigned int slot = fj::full_destination(threadIdx.x, first_round + r, FJ_BLOCK, blockIdx.x);
#endif
        sx[slot] = pt.x;
        sy[slot] = pt.y;
        sc[slot] = pt.c;
        ss[slot] = pt.state;
        __syncthreads();
        pt.x = sx[threadIdx.x];
        pt.y = sy[threadIdx.x];
        pt.c = sc[threadIdx.x];
        pt.state = ss[threadIdx.x];
        __syncthreads();
#endif
#if FJ_TIME_STEPS
        pos += (unsigned long long)__syncthreads_count(plotted != plotted_before);
#endif
    }

    fj_accum_close(accum);
    points[tid] = *reinterpret_cast<float4*>(&pt);
    rng_states[tid] = rng.state;
    atomicAdd(&counters[0], (unsigned long long)plotted);
    atomicAdd(&counters[1], (unsigned long long)bad);
    atomicAdd(&counters[2], (unsigned long long)rejected);
#if FJ_TIME_STEPS
    // Every lane has read the block's track before it changes.
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned long long start = fj::block_span_start(blockIdx.x, gridDim.x, total);
        // Blocks that plotted their stretch, once each (counters[4]).
        if (start + block_plotted[blockIdx.x] < end && pos >= end) atomicAdd(&counters[4], 1ull);
        block_plotted[blockIdx.x] = pos - start;
        block_steps[blockIdx.x] = on_step;
        block_rounds[blockIdx.x] = first_round + r;
    }
#endif
}
