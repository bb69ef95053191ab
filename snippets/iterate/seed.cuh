// flamejit — the pool's points, and the kernel that seeds them (device only).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stitcher places this before iterate_kernel.cuh, whose kernel moves the
// points. fj_seed depends on nothing of the genome, so a linked kernel
// (codegen/stitcher.h) compiles it as a program of its own beside the entry
// points' program, which leaves it out (FJ_SEED_APART): one compile fewer on
// the longest of the programs' paths.

struct FjPoint {
    float x, y, c;
    int state;  // fj::point_state
};

#if !defined(FJ_SEED_APART)
// Fresh points: uniform in [-1,1]², colour uniform in [0,1] (flam3's chain
// start); a share `fresh_fraction` of them plot after the fuse, the others
// settle first (fj::fresh_chain_fraction says why).
extern "C" __global__ void fj_seed(float4* __restrict__ points, unsigned long long* __restrict__ rng_states,
                                   unsigned long long seed, unsigned int count, float fresh_fraction, int fuse) {
    const unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= count) return;
    fj::Rng rng = fj::make_rng(seed, i);
    FjPoint p;
    p.x = fj::rand11(rng);
    p.y = fj::rand11(rng);
    p.c = fj::rand01(rng);
    p.state = fj::first_chain_state(fj::rand01(rng), fresh_fraction, fuse);
    points[i] = *reinterpret_cast<float4*>(&p);
    rng_states[i] = rng.state;
}
#endif
