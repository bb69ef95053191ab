// @variation squares
// @id 1115
// @origin Fractorium 1.0
// @param squares_cellsize 0
// @param squares_min 0
// @param squares_max 10
// @param squares_num 10
// @param squares_seed 1
// @param squares_zero 0.5
// @param squares_zero_seed 1
// Cells `cellsize` across, each cut into concentric square rings about its
// centre, ring m = the larger of |round(2·num·offset/cellsize)| over the
// two axes (halves rounded up); ring m turns about the centre by
// (m − min)·π/2 when min ≤ m ≤ maxi, else stays. Per cell, from a hash of
// its centre: maxi = max + ⌊hash·(num − max)⌋, and the whole cell stays
// when a second hash (seed zero_seed) falls below `zero`. A cell size of 0
// is linear. min and max are kept at least 0.
// The hash is Fractorium's fract(43758.5453·sin(12.9898·cx² + 78.233·cy² +
// seed)) (fj::shader_hash), in [0, 1); its value magnifies the sine's rounding
// 43758 times, so it differs from Fractorium's double build's: which cells
// turn differs, not how many.

#include "shared/hashes.h"

FJ_VARIATION(squares) {
    const float size = p[0], num = p[3];
    if (size == 0.0f) {
        ox += w * in.x;
        oy += w * in.y;
        return;
    }
    const float lo = fmaxf(p[1], 0.0f), hi = fmaxf(p[2], 0.0f);
    const float cx = (floorf(in.x / size) + 0.5f) * size, cy = (floorf(in.y / size) + 0.5f) * size;
    const float lx = in.x - cx, ly = in.y - cy;
    const float rings = 2.0f * num / size;
    const float m = fmaxf(fabsf(floorf(lx * rings + 0.5f)), fabsf(floorf(ly * rings + 0.5f)));
    const float cx2 = cx * cx, cy2 = cy * cy;
    const float most = hi + floorf(fj::shader_hash(cx2, cy2, p[4]) * (num - hi));
    const float level = (m > most || m < lo) ? 0.0f : m - lo;
    const float turn = fj::shader_hash(cx2, cy2, p[6]) < p[5] ? 0.0f : level * FJ_PI_2;
    const float c = fj::cosine(turn), s = fj::sine(turn);
    ox += w * (cx + lx * c - ly * s);
    oy += w * (cy + lx * s + ly * c);
}
