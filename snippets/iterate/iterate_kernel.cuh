// flamejit — the iteration kernel (device only; completed by generated code).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stitcher places this after the generated part, which defines:
//   FJ_BLOCK            threads per block (multiple of 32)
//   FJ_SHUFFLE_NONE / FJ_SHUFFLE_RING / FJ_SHUFFLE_DIVERGENT (one of them)
//   FJ_XAOS             1 when selection depends on the previous xform
//   FJ_PALETTE_LINEAR   1 for palette_mode="linear"
//   FJ_HAS_FINAL        1 when there is a final xform
//   FJ_NXFORMS, FJ_SELECT, FJ_PALETTE, FJ_FINAL_OPACITY   parameter-block offsets
//   fj_apply_selected(P, row, u, x, y, c, vis, rng) -> index of the applied xform
//   fj_apply_final(P, x, y, c, rng)                 (when FJ_HAS_FINAL)
//
// One launch: every thread loads its point and random state from the pool,
// runs `rounds` rounds (select, apply, plot, exchange), and stores them back.
// Points persist across launches, so the fuse is paid once per pool.

#if defined(FJ_SHUFFLE_RING)
#define FJ_WARP_UNIFORM 1
#define FJ_EXCHANGE 1
#elif defined(FJ_SHUFFLE_NONE)
#define FJ_WARP_UNIFORM 1
#define FJ_EXCHANGE 0
#else
#define FJ_WARP_UNIFORM 0
#define FJ_EXCHANGE 0
#endif

// Xaos needs each point's previous xform, which differs between the lanes of
// a warp once points move; such genomes select per thread.
#if FJ_XAOS
#undef FJ_WARP_UNIFORM
#define FJ_WARP_UNIFORM 0
#endif

struct FjPoint {
    float x, y, c;
    int state;  // fuse rounds left (bits 8..) and last xform + 1 (bits 0..7)
};

__device__ FJ_INLINE void fj_plot(const float* __restrict__ P, float4* __restrict__ accum, int hist_w,
                                  int hist_h, float x, float y, float c, float vis) {
    const long long cell = fj::camera_cell(P, x, y, hist_w, hist_h);
    if (cell < 0 || vis <= 0.0f) return;
    float rgba[4];
    fj::palette_lookup(P + FJ_PALETTE, c, FJ_PALETTE_LINEAR, rgba);
#if __CUDA_ARCH__ >= 900
    atomicAdd(&accum[cell], make_float4(vis * rgba[0], vis * rgba[1], vis * rgba[2], vis * rgba[3]));
#else
    float* a = reinterpret_cast<float*>(&accum[cell]);
    atomicAdd(a + 0, vis * rgba[0]);
    atomicAdd(a + 1, vis * rgba[1]);
    atomicAdd(a + 2, vis * rgba[2]);
    atomicAdd(a + 3, vis * rgba[3]);
#endif
}

// Fresh points: uniform in [-1,1]², colour uniform in [0,1] (flam3's chain start).
extern "C" __global__ void fj_seed(float4* __restrict__ points, unsigned long long* __restrict__ rng_states,
                                   unsigned long long seed, unsigned int count) {
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    fj::Rng rng = fj::make_rng(seed, i);
    FjPoint p;
    p.x = fj::rand11(rng);
    p.y = fj::rand11(rng);
    p.c = fj::rand01(rng);
    p.state = FJ_FUSE << 8;
    points[i] = *reinterpret_cast<float4*>(&p);
    rng_states[i] = rng.state;
}

extern "C" __global__ void __launch_bounds__(FJ_BLOCK)
fj_iterate(const float* __restrict__ P, float4* __restrict__ points, unsigned long long* __restrict__ rng_states,
           float4* __restrict__ accum, int hist_w, int hist_h, unsigned int rounds, unsigned int round_base,
           unsigned long long* __restrict__ counters) {
    const unsigned int tid = blockIdx.x * FJ_BLOCK + threadIdx.x;
    const unsigned int lane = threadIdx.x & 31u;
    const unsigned int warp = threadIdx.x >> 5;
    fj::Rng rng;
    rng.state = rng_states[tid];
    float4 raw = points[tid];
    FjPoint pt = *reinterpret_cast<FjPoint*>(&raw);
    unsigned long long plotted = 0, bad = 0;

#if FJ_EXCHANGE
    __shared__ float sx[FJ_BLOCK], sy[FJ_BLOCK], sc[FJ_BLOCK];
    __shared__ int ss[FJ_BLOCK];
#endif

    for (unsigned int r = 0; r < rounds; ++r) {
        const int last = pt.state & 0xff;
        int fuse = pt.state >> 8;
#if FJ_WARP_UNIFORM
        // One draw per warp: every lane applies the same xform, no divergence.
        float u = fj::rand01(rng);
        u = __shfl_sync(0xffffffffu, u, 0);
#else
        const float u = fj::rand01(rng);
#endif
        const int row = FJ_XAOS ? last : 0;
        float vis;
        const int applied = fj_apply_selected(P, row, u, pt.x, pt.y, pt.c, vis, rng);
        if (fj::is_bad_point(pt.x, pt.y)) {
            // flam3 restarts a blown-up chain from a random point.
            pt.x = fj::rand11(rng);
            pt.y = fj::rand11(rng);
            ++bad;
        } else if (fuse > 0) {
            --fuse;
        } else {
            float fx = pt.x, fy = pt.y, fc = pt.c;
#if FJ_HAS_FINAL
            const float fo = P[FJ_FINAL_OPACITY];
            if (fo >= 1.0f || fj::rand01(rng) < fo) fj_apply_final(P, fx, fy, fc, rng);
#endif
            if (!fj::is_bad_point(fx, fy)) fj_plot(P, accum, hist_w, hist_h, fx, fy, fc, vis);
            ++plotted;
        }
        pt.state = (fuse << 8) | (applied + 1);

#if FJ_EXCHANGE
        const unsigned int dest = fj::ring_destination(warp, lane, round_base + r, FJ_BLOCK / 32, blockIdx.x);
        const unsigned int slot = dest * 32u + lane;
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
    }

    points[tid] = *reinterpret_cast<float4*>(&pt);
    rng_states[tid] = rng.state;
    atomicAdd(&counters[0], plotted);
    atomicAdd(&counters[1], bad);
}
