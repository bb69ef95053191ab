// flamejit — accumulation modes of the iteration kernel (device only).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stitcher places this before iterate_kernel.cuh; the key's FJ_ACCUM_*
// macro (one of ATOMIC, SCALAR, WARP, SHARED, PACKED, NONE) picks the mode.
// Every kernel that plots opens an FjAccum at its start (fj_accum_open),
// adds hits through fj_accumulate, and closes it at its end (fj_accum_close,
// reached by every thread of the block). Every mode ends in the float RGBA
// grid that the post-pass reads; what differs is the way there. NONE adds
// nothing: the throughput benchmark's compute ceiling, the kernel with its
// accumulator for free.

// Where hits go: a kernel parameter. The CUDA backend passes the same four
// members in the same order (AccumTarget in engine/cuda/cuda_backend.cpp).
struct FjAccumTarget {
    float4* grid;                // float RGBA per cell, row-major
    unsigned long long* packed;  // packed: one word per cell (fj::packed_word); else null
    unsigned long long* carries; // packed: count of adds that carried out of a field
    unsigned int cache_bits;     // shared: the block's cache has 2^cache_bits slots (0: none)
};

#if defined(FJ_ACCUM_SHARED)
// The shared-memory cache, sized at launch (dynamic shared memory).
//
// Why a hashed cache of cells and not a tile of the image: hits of one block
// scatter over the whole histogram, but much of a flame's mass sits in few
// cells, and the heavier a cell, the likelier it is among the first cells a
// block hits; a slot, once claimed, keeps its cell for the launch, so the
// cache fills with cells weighted towards the heavy ones, with no eviction
// to race on. Hits to other cells go to the grid as in `atomic`. Every sum
// is of integers below the cell's total, so the image is the same bit for
// bit (as long as the cell's total is below 2^24, the condition every mode
// shares). Per launch each block also pays two barriers and one global add
// per used slot.
//
// Why dynamic shared memory sized by the backend instead of a fixed static
// array: the cache takes the shared memory that the kernel's
// register-limited occupancy leaves unused on an SM (CudaBackend sizes it
// with the occupancy API and keeps the resident blocks per SM unchanged),
// so it costs no resident warps; its price is L1, which shrinks as the
// shared carveout grows (the kernel reads little through L1: the parameter
// block and one point per thread per launch). At 256 threads, 8 blocks per
// SM (32 registers or fewer) and the ring exchange's 4 KiB per block, that
// is 1024 slots (20 KiB) per block on sm_90 (228 KiB per SM), 512 on sm_80
// (164 KiB); a fixed array would have to fit the smallest device and would
// cost occupancy on the others.
#define FJ_CACHE_EMPTY 0xffffffffu
// Slots a hit looks at (its hash and the next ones). Once the cache is full,
// which happens within the first rounds, every hit to an uncached cell pays
// these shared loads before its global atomic; two keep that small and
// still let two heavy cells that hash alike both stay.
#define FJ_CACHE_PROBES 2
// A slot is five words: the R, G, B, A sums (floats) and the cell. One
// record per slot, rather than separate key and sum arrays, leaves the
// kernel one base address (a constant) and the slot count to keep in
// registers; the odd stride spreads slots over the banks.
#define FJ_CACHE_WORDS 5
#define FJ_CACHE_KEY 4
extern __shared__ unsigned int fj_cache_memory[];
#endif

struct FjAccum {
    float4* grid;
#if defined(FJ_ACCUM_NONE)
    unsigned int sink;  // every hit's cell and amounts, folded (fj_accumulate says why)
#endif
#if defined(FJ_ACCUM_PACKED)
    unsigned long long* packed;
    unsigned long long* carries;
#endif
#if defined(FJ_ACCUM_SHARED)
    unsigned int bits;  // the cache has 2^bits slots (0: no cache)
#endif
};

// One float hit (or a sum of hits) into the grid: vector atomics where the
// arch has them (sm_90) unless scalar ones are asked for.
__device__ FJ_INLINE void fj_grid_add(float4* grid, long long cell, const float v[4]) {
#if __CUDA_ARCH__ >= 900 && !defined(FJ_ACCUM_SCALAR)
    atomicAdd(&grid[cell], make_float4(v[0], v[1], v[2], v[3]));
#else
    float* a = reinterpret_cast<float*>(&grid[cell]);
    for (int k = 0; k < 4; ++k) atomicAdd(a + k, v[k]);
#endif
}

// Called by every thread of the block at the start of a kernel.
__device__ FJ_INLINE FjAccum fj_accum_open(const FjAccumTarget& target) {
    FjAccum a;
    a.grid = target.grid;
#if defined(FJ_ACCUM_NONE)
    a.sink = 0u;
#endif
#if defined(FJ_ACCUM_PACKED)
    a.packed = target.packed;
    a.carries = target.carries;
#endif
#if defined(FJ_ACCUM_SHARED)
    a.bits = target.cache_bits;
    const unsigned int words = a.bits ? FJ_CACHE_WORDS << a.bits : 0u;
    for (unsigned int i = threadIdx.x; i < words; i += FJ_BLOCK)
        fj_cache_memory[i] = i % FJ_CACHE_WORDS == FJ_CACHE_KEY ? FJ_CACHE_EMPTY : 0u;  // 0u is 0.0f
    __syncthreads();
#endif
    return a;
}

// Adds one hit's four channel amounts to a cell. A lane with cell < 0 (a
// miss) takes part in the warp's matching but adds nothing.
__device__ FJ_INLINE void fj_accumulate(FjAccum& a, long long cell, const float v[4]) {
#if defined(FJ_ACCUM_NONE)
    // The hit's cell and amounts stay in use, or the compiler would drop the
    // camera's cell and the palette lookup with the add, and the ceiling
    // would leave out work that every plotted sample needs (on an H200 it
    // then ran 1.1-1.6x faster than with them kept). Folding them costs two
    // logic instructions.
    a.sink ^= __float_as_uint(v[0]) ^ __float_as_uint(v[1]) ^ __float_as_uint(v[2]) ^ __float_as_uint(v[3]) ^
              (unsigned int)cell;
#elif defined(FJ_ACCUM_WARP)
    // Lanes that hit the same cell (converged warps often do) sum first, in
    // lane order; one atomic per distinct cell.
    const unsigned int peers = __match_any_sync(__activemask(), (unsigned long long)cell);
    float sum[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (unsigned int m = peers; m; m &= m - 1u) {
        const int src = __ffs(m) - 1;
        for (int k = 0; k < 4; ++k) sum[k] += __shfl_sync(peers, v[k], src);
    }
    if (cell < 0 || (int)(threadIdx.x & 31u) != __ffs(peers) - 1) return;
    fj_grid_add(a.grid, cell, sum);
#elif defined(FJ_ACCUM_SHARED)
    if (cell < 0) return;
    if (a.bits) {
        const unsigned int key = (unsigned int)cell;
        const unsigned int mask = (1u << a.bits) - 1u;
        // Fibonacci hashing: neighbouring cells (a converged warp's) spread.
        unsigned int s = (key * 0x9E3779B1u) >> (32u - a.bits);
        for (int probe = 0; probe < FJ_CACHE_PROBES; ++probe, s = (s + 1u) & mask) {
            unsigned int* slot = fj_cache_memory + FJ_CACHE_WORDS * s;
            // A slot's key changes once, from empty to a cell, so a key read
            // as a cell is final; an empty one is claimed by compare-and-swap.
            unsigned int held = *reinterpret_cast<volatile unsigned int*>(slot + FJ_CACHE_KEY);
            if (held == FJ_CACHE_EMPTY) {
                held = atomicCAS(slot + FJ_CACHE_KEY, FJ_CACHE_EMPTY, key);
                if (held == FJ_CACHE_EMPTY) held = key;
            }
            if (held == key) {
                float* sum = reinterpret_cast<float*>(slot);
                for (int k = 0; k < 4; ++k) atomicAdd(sum + k, v[k]);
                return;
            }
        }
    }
    fj_grid_add(a.grid, cell, v);
#elif defined(FJ_ACCUM_PACKED)
    if (cell < 0) return;
    if (!fj::packed_fits(v)) {
        fj_grid_add(a.grid, cell, v);
        return;
    }
    const unsigned long long add = fj::packed_word(v);
    const unsigned long long before = atomicAdd(&a.packed[cell], add);
    if (!fj::packed_needs_flush(before, add)) return;
    // Rare (about once per 129 opaque hits to a cell): every adder that sees
    // a field at 2^15 or more exchanges the word for zero and adds what it
    // took; the first takes the bulk, later ones what landed since (or 0).
    if (fj::packed_carries(before, add)) atomicAdd(a.carries, 1ull);
    const unsigned long long taken = atomicExch(&a.packed[cell], 0ull);
    if (!taken) return;
    float sum[4];
    for (int k = 0; k < 4; ++k) sum[k] = fj::packed_field(taken, k);
    fj_grid_add(a.grid, cell, sum);
#else
    if (cell < 0) return;
    fj_grid_add(a.grid, cell, v);
#endif
}

// Called by every thread of the block at the end of a kernel: the shared
// cache adds each used slot to the grid once.
__device__ FJ_INLINE void fj_accum_close(FjAccum& a) {
#if defined(FJ_ACCUM_SHARED)
    __syncthreads();
    const unsigned int slots = a.bits ? 1u << a.bits : 0u;
    for (unsigned int i = threadIdx.x; i < slots; i += FJ_BLOCK) {
        const unsigned int* slot = fj_cache_memory + FJ_CACHE_WORDS * i;
        if (slot[FJ_CACHE_KEY] == FJ_CACHE_EMPTY) continue;
        const float* sum = reinterpret_cast<const float*>(slot);
        const float v[4] = {sum[0], sum[1], sum[2], sum[3]};
        fj_grid_add(a.grid, slot[FJ_CACHE_KEY], v);
    }
#elif defined(FJ_ACCUM_NONE)
    // Rarely true, and harmless then (adding 0 to the cleared grid); the
    // compiler cannot drop it, so it keeps what the sink folded.
    if (a.sink == 0x2545f491u) atomicAdd(&a.grid[0].x, 0.0f);
#else
    (void)a;
#endif
}

#if defined(FJ_ACCUM_PACKED)
// Folds the packed grid into the float grid and zeroes it: run after the
// iterate launches of a frame, before the post-pass, on the same stream, so
// nothing else touches either grid and a plain read-modify-write is safe.
extern "C" __global__ void fj_packed_flush(float4* __restrict__ grid, unsigned long long* __restrict__ packed,
                                           unsigned int cells) {
    for (unsigned int i = blockIdx.x * blockDim.x + threadIdx.x; i < cells; i += gridDim.x * blockDim.x) {
        const unsigned long long word = packed[i];
        if (!word) continue;
        packed[i] = 0ull;
        float4 g = grid[i];
        g.x += fj::packed_field(word, 0);
        g.y += fj::packed_field(word, 1);
        g.z += fj::packed_field(word, 2);
        g.w += fj::packed_field(word, 3);
        grid[i] = g;
    }
}
#endif
