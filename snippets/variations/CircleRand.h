// @variation CircleRand
// @id 1154
// @origin Fractorium 1.0
// @param CircleRand_Sc 1
// @param CircleRand_Dens 0.5
// @param CircleRand_X 10
// @param CircleRand_Y 10
// @param CircleRand_Seed 0
// @random 22
// @assign sum
// Random points in the discs of CircleLinear's grid, whatever the input:
// a uniform point of [-X, X]×[-Y, Y] is drawn until it lies in its cell's
// disc (cells 2·Sc wide; cell (m, n) has a disc where grid_noise(m + Seed,
// n) is at most Dens, of radius (0.3 + 0.7·grid_noise(m + 10, n + 3))·Sc)
// or, as Fractorium bounds the search, 11 points have been drawn, and the
// last is taken. Times the weight. Sc at 0 becomes float epsilon and Seed is
// rounded to a whole number, as Fractorium keeps them.

#include "shared/hashes.h"

FJ_VARIATION(CircleRand) {
    const float sc = p[0] != 0.0f ? p[0] : FJ_FLT_EPSILON;
    const fj::u32 seed = (fj::u32)fj::int_like_x86(floorf(p[4] + 0.5f));
    float x = 0.0f, y = 0.0f;
    for (int tries = 0; tries < 11; ++tries) {
        x = p[2] * (1.0f - 2.0f * fj::rand01(rng));
        y = p[3] * (1.0f - 2.0f * fj::rand01(rng));
        const float mf = floorf(0.5f * x / sc), nf = floorf(0.5f * y / sc);
        const fj::u32 m = (fj::u32)fj::int_like_x86(mf), n = (fj::u32)fj::int_like_x86(nf);
        const float dx = x - (2.0f * mf + 1.0f) * sc, dy = y - (2.0f * nf + 1.0f) * sc;
        const float radius = (0.3f + 0.7f * fj::grid_noise(m + 10u, n + 3u)) * sc;
        if (!(fj::grid_noise(m + seed, n) > p[1]) && !(sqrtf(dx * dx + dy * dy) > radius)) break;
    }
    ox += w * x;
    oy += w * y;
}
