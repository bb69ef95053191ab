// @variation hex_rand
// @id 1183
// @origin Fractorium 1.0
// @param hex_rand_x 10
// @param hex_rand_y 10
// @param hex_rand_size 1
// @param hex_rand_power 1
// @param hex_rand_density 1
// @param hex_rand_seed 1
// @random 4
// Random hexagons on a triangular lattice, whatever the input: a lattice
// point (a, b) = (X + Y/2, Y·√3/2) is drawn, X = ⌊2·hx·u⌋ − hx for the
// parameter hx = hex_rand_x, and Y likewise (u uniform), and where the
// cell's hash h(b, a) is below density, a uniform point of a pointy-top
// hexagon about it of inradius size/2·h(a, b)^power is taken, times the
// weight; at size 1 and power 0 the hexagons tile the plane. Cells the
// density leaves out add 0. h is the shader hash, the fraction of
// 43758.5453·sin(12.9898·a + 78.233·b + seed) (fj::shader_hash). The
// hexagon's point: one of its six edges and a place t along it are drawn,
// giving the point of the boundary (of circumradius 1) at distance
// √(1 − t + t²) and angle asin(√3/2·t/√(1 − t + t²)) from the edge's
// corner, then scaled by √u towards the centre. density is held to
// [0, 1], as Fractorium bounds it. A hash of 0 with a negative power, an
// infinite radius in Fractorium, adds nothing.

#include "shared/hashes.h"

FJ_VARIATION(hex_rand) {
    const float half_sqrt3 = 0.866025404f;
    const float k = 6.0f * fj::rand01(rng);
    const float edge = floorf(k), t = k - edge;
    const float dist = sqrtf(1.0f + t * t - t);
    // Edges in pairs: an even one runs clockwise from its corner, an odd
    // one counter-clockwise, both from the corner (2π/3)·⌊edge/2⌋ − π/2.
    const float pair = floorf(0.5f * edge);
    const float turn = edge - 2.0f * pair == 1.0f ? 1.0f : -1.0f;
    const float angle = 2.094395102f * pair + turn * asinf(half_sqrt3 * t / dist) - FJ_PI_2;
    const float X = floorf(fj::rand01(rng) * p[0] * 2.0f) - p[0];
    const float Y = floorf(fj::rand01(rng) * p[1] * 2.0f) - p[1];
    const float cx = X + 0.5f * Y, cy = Y * half_sqrt3;
    const float density = fminf(fmaxf(p[4], 0.0f), 1.0f);
    if (!(fj::shader_hash(cy, cx, p[5]) < density)) return;
    // 2/√3: from the circumradius-1 boundary to inradius 1.
    const float scaled = dist * sqrtf(fj::rand01(rng)) * 1.154700538f;
    const float radius = 0.5f * p[2] * scaled * fj::power(fj::shader_hash(cx, cy, p[5]), p[3]);
    if (!(fabsf(radius) <= FJ_FLT_MAX)) return;
    ox += (fj::cosine(angle) * radius + cx) * w;
    oy += (fj::sine(angle) * radius + cy) * w;
}
