// @variation CircleLinear
// @id 1153
// @origin Fractorium 1.0
// @param CircleLinear_Sc 1
// @param CircleLinear_K 0.5
// @param CircleLinear_Dens1 0.5
// @param CircleLinear_Dens2 0.5
// @param CircleLinear_Reverse 1
// @param CircleLinear_X 10
// @param CircleLinear_Y 10
// @param CircleLinear_Seed 0
// A grid of square cells 2·Sc wide, some holding a disc: cell (m, n) has one
// where its noise value z = grid_noise(m + Seed, n) is below Dens1, of
// radius (0.3 + 0.7·grid_noise(m + 10, n + 3))·Sc. A point inside a disc
// is scaled about the cell's centre, by K where z < Dens1·Dens2 (above it
// with Reverse ≤ 0), otherwise by (ρ/d)·(1 − K) + K, d its distance from
// the centre and ρ the radius, which maps the disc onto the ring between
// K·ρ and ρ. Other points stay. Times the weight. Sc at 0 becomes float
// epsilon and Seed is rounded to a whole number, as Fractorium keeps them;
// d is kept at least float epsilon, as in Fractorium. X and Y are
// parameters of Fractorium's that its formula never reads. Past 2^30
// cells from the origin, where Fractorium's int arithmetic overflows, the
// cell's noise comes from x86's conversion (fj::int_like_x86) and its
// centre from float arithmetic.

#include "shared/hashes.h"

FJ_VARIATION(CircleLinear) {
    const float sc = p[0] != 0.0f ? p[0] : FJ_FLT_EPSILON, k = p[1], dens1 = p[2], dens2 = p[3];
    const float mf = floorf(0.5f * in.x / sc), nf = floorf(0.5f * in.y / sc);
    const fj::u32 m = (fj::u32)fj::int_like_x86(mf), n = (fj::u32)fj::int_like_x86(nf);
    const fj::u32 seed = (fj::u32)fj::int_like_x86(floorf(p[7] + 0.5f));
    const float cx = (2.0f * mf + 1.0f) * sc, cy = (2.0f * nf + 1.0f) * sc;
    float x = in.x - cx, y = in.y - cy;
    const float d = fj::zeps(sqrtf(x * x + y * y));
    const float radius = (0.3f + 0.7f * fj::grid_noise(m + 10u, n + 3u)) * sc;
    const float z = fj::grid_noise(m + seed, n);
    if (z < dens1 && d < radius) {
        const bool inner = p[4] > 0.0f ? z < dens1 * dens2 : z > dens1 * dens2;
        const float s = inner ? k : radius / d * (1.0f - k) + k;
        x *= s;
        y *= s;
    }
    ox += w * (x + cx);
    oy += w * (y + cy);
}
