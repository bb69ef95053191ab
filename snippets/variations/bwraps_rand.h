// @variation bwraps_rand
// @id 1163
// @origin Fractorium 1.0
// @param bwraps_rand_cellsize 1
// @param bwraps_rand_space 0
// @param bwraps_rand_gain 2
// @param bwraps_rand_inner_twist 0
// @param bwraps_rand_outer_twist 0
// @param bwraps_rand_symm 0
// @param bwraps_rand_seed 1
// bwraps (bubble wrap: a grid of discs whose points are magnified by gain
// and twisted from inner_twist at the centre to outer_twist at the rim)
// with a random size per cell: the disc of the cell centred at (cx, cy) has
// radius h·cellsize/(2·(1 + space²)), h the shader hash of the centre (its
// squares where symm is non-zero, so mirrored cells match), the fraction
// of 43758.5453·sin(12.9898·a + 78.233·b + seed) (fj::shader_hash). Points
// outside the discs, or all at cellsize 0, are only weighted. Unlike
// bwraps, the magnification is gain² with nothing added. A zero peak
// magnification (gain 0) and a zero radius become float epsilon in the
// divisors, as in Fractorium.

#include "shared/hashes.h"

FJ_VARIATION(bwraps_rand) {
    const float cellsize = p[0], space = p[1], g2 = p[2] * p[2], inner = p[3], outer = p[4], seed = p[6];
    float vx = in.x, vy = in.y;
    if (cellsize != 0.0f) {
        const float inv = 1.0f / cellsize;
        const float cx = (floorf(vx * inv) + 0.5f) * cellsize, cy = (floorf(vy * inv) + 0.5f) * cellsize;
        const float lx = vx - cx, ly = vy - cy;
        const float ha = p[5] == 0.0f ? cx : cx * cx, hb = p[5] == 0.0f ? cy : cy * cy;
        const float radius = 0.5f * (cellsize / (1.0f + space * space)) * fj::shader_hash(ha, hb, seed);
        const float mb = g2 * radius;
        const float peak = mb > 2.0f ? 1.0f : mb / (mb * mb * 0.25f + 1.0f);
        const float r2 = radius * radius;
        if (!(lx * lx + ly * ly > r2)) {
            const float gx = lx * g2, gy = ly * g2;
            const float k = radius / fj::zeps(peak) / ((gx * gx + gy * gy) * 0.25f + 1.0f);
            const float tx = gx * k, ty = gy * k;
            const float rr = (tx * tx + ty * ty) / fj::zeps(r2);
            const float theta = inner * (1.0f - rr) + outer * rr;
            const float s = fj::sine(theta), c = fj::cosine(theta);
            vx = cx + c * tx + s * ty;
            vy = cy - s * tx + c * ty;
        }
    }
    ox += w * vx;
    oy += w * vy;
}
