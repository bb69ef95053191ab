// @variation Circle_Rand
// @id 1156
// @origin Fractorium 1.0
// @param Circle_Rand_X 10
// @param Circle_Rand_Y 10
// @param Circle_Rand_size 1
// @param Circle_Rand_power 1
// @param Circle_Rand_density 1
// @param Circle_Rand_seed 1
// @random 4
// Random discs on a lattice, whatever the input: a lattice point
// (2·(i − X/2), 2·(j − Y/2)) is drawn, i = ⌊X·u + 1/2⌋ and j likewise
// (u uniform), and where the cell's hash h(y, x) is below density, a
// uniform point of a disc of radius size·h(x, y)^power about it is taken,
// times the weight. h is the shader hash, the fraction of
// 43758.5453·sin(12.9898·a + 78.233·b + seed) (fj::shader_hash). size is kept
// at least 0 and density in [0, 1], as Fractorium bounds them. Where the
// radius is not positive (a lattice point not drawn by the density, or
// size 0), Fractorium writes nothing and so adds whatever its previous
// variation left behind; here nothing is added. A hash of exactly 0 with a
// negative power, an infinite radius in Fractorium, also adds nothing.

#include "shared/hashes.h"

FJ_VARIATION(Circle_Rand) {
    const float size = fmaxf(p[2], 0.0f), density = fminf(fmaxf(p[4], 0.0f), 1.0f), seed = p[5];
    const float a = FJ_2PI * fj::rand01(rng);
    const float r = sqrtf(fj::rand01(rng));
    const float x = 2.0f * (floorf(fj::rand01(rng) * p[0] + 0.5f) - 0.5f * p[0]);
    const float y = 2.0f * (floorf(fj::rand01(rng) * p[1] + 0.5f) - 0.5f * p[1]);
    if (!(fj::shader_hash(y, x, seed) < density)) return;
    const float radius = size * r * expf(logf(fj::shader_hash(x, y, seed)) * p[3]);
    if (radius > 0.0f && radius <= FJ_FLT_MAX) {
        ox += w * (fj::cosine(a) * radius + x);
        oy += w * (fj::sine(a) * radius + y);
    }
}
