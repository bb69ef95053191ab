// @variation CircleTrans1
// @id 1155
// @origin Fractorium 1.0
// @param CircleTrans1_Sc 1
// @param CircleTrans1_Dens 0.5
// @param CircleTrans1_X 10
// @param CircleTrans1_Y 10
// @param CircleTrans1_Seed 0
// @random 33
// The point is first halved towards (X, Y). If it then lies in a disc of
// CircleLinear's grid (cells 2·Sc wide; cell (m, n) has a disc where
// grid_noise(m + Seed, n) is at most Dens, of radius
// (0.3 + 0.7·grid_noise(m + 10, n + 3))·Sc), it is replaced by a random
// point of another disc: a uniform point of [-|X|, |X|]×[-|Y|, |Y|] picks a
// cell, redrawn (as Fractorium bounds it, 11 tries at most, then the last)
// until that cell has a disc, and the point goes to a uniform angle on the
// circle of radius 0.3 + 0.7·grid_noise(m + 10, n + 3) about the cell's
// centre: unlike the discs that decide, this circle is not scaled by Sc, as in
// Fractorium. Otherwise the halved point stays. Times the weight. Sc at 0
// becomes float epsilon and Seed is rounded to a whole number, as
// Fractorium keeps them.

#include "shared/hashes.h"

FJ_VARIATION(CircleTrans1) {
    const float sc = fj::zeps(p[0]), dens = p[1], cx = p[2], cy = p[3];
    const fj::u32 seed = (fj::u32)fj::int_like_x86(floorf(p[4] + 0.5f));
    float ux = (in.x - cx) * 0.5f + cx, uy = (in.y - cy) * 0.5f + cy;
    const float mf = floorf(0.5f * ux / sc), nf = floorf(0.5f * uy / sc);
    const fj::u32 m = (fj::u32)fj::int_like_x86(mf), n = (fj::u32)fj::int_like_x86(nf);
    const float dx = ux - (2.0f * mf + 1.0f) * sc, dy = uy - (2.0f * nf + 1.0f) * sc;
    const float radius = (0.3f + 0.7f * fj::grid_noise(m + 10u, n + 3u)) * sc;
    if (!(fj::grid_noise(m + seed, n) > dens) && !(sqrtf(dx * dx + dy * dy) > radius)) {
        float x = 0.0f, y = 0.0f, bf = 0.0f, cf = 0.0f;
        for (int tries = 0; tries < 11; ++tries) {
            bf = floorf(0.5f * (fabsf(cx) * (1.0f - 2.0f * fj::rand01(rng))) / sc);
            cf = floorf(0.5f * (fabsf(cy) * (1.0f - 2.0f * fj::rand01(rng))) / sc);
            const fj::u32 b = (fj::u32)fj::int_like_x86(bf), c = (fj::u32)fj::int_like_x86(cf);
            const float a = FJ_2PI * fj::rand01(rng);
            const float u = 0.3f + 0.7f * fj::grid_noise(b + 10u, c + 3u);
            x = u * fj::cosine(a);
            y = u * fj::sine(a);
            if (!(fj::grid_noise(b + seed, c) > dens)) break;
        }
        ux = x + (2.0f * bf + 1.0f) * sc;
        uy = y + (2.0f * cf + 1.0f) * sc;
    }
    ox += w * ux;
    oy += w * uy;
}
