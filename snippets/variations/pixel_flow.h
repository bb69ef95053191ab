// @variation pixel_flow
// @id 1243
// @origin Fractorium 1.0
// @param pixel_flow_angle 90
// @param pixel_flow_len 0.1
// @param pixel_flow_width 200
// @param pixel_flow_seed 42
// @param pixel_flow_enable_dc 0
// @random 1
// @color
// Streaks: the plane is cut into blocks of 1/width (each side's index moved
// by a hashed whole number from -2 to 6), and every point is sent along the
// direction `angle` (degrees) from the origin, to len·f·u⁴ for u uniform in
// [0, 1) and f its block's hashed length (the mean of two hashes in
// [-1, 1]); times the weight. Used beside linear, it draws a short fading
// streak from each point. With enable_dc 1 the colour index becomes u.
// Fractorium's float arithmetic is kept: its int casts (truncations, x86's
// for values beyond int) of seed products formed in float, and the
// integer hash (fj::wang_hash).
#include "shared/hashes.h"

// a + b wrapped as x86 adds ints (Fractorium's int arithmetic), without the
// undefined overflow of int + int: a block index of a point beyond int's
// range is INT_MIN, and its shift may be negative.
FJ_HD FJ_INLINE int fj_pixel_flow_add(int a, int b) {
    return (int)((unsigned)a + (unsigned)b);
}

FJ_VARIATION(pixel_flow) {
    const float rad = p[0] * (FJ_PI / 180.0f), width = p[2], seed = p[3];
    int bx = fj::int_like_x86(floorf(in.x * width));
    bx = fj_pixel_flow_add(bx,
                           fj::int_like_x86(2.0f - 4.0f * fj::wang_hash(fj::int_like_x86((float)bx * seed + 1.0f))));
    int by = fj::int_like_x86(floorf(in.y * width));
    by = fj_pixel_flow_add(by,
                           fj::int_like_x86(2.0f - 4.0f * fj::wang_hash(fj::int_like_x86((float)by * seed + 1.0f))));
    const float h1 = fj::wang_hash(fj::int_like_x86((float)by + (float)bx * -seed));
    const float h2 = fj::wang_hash(fj::int_like_x86((float)bx + (float)by * seed * 0.5f));
    const float len = (h1 + h2) * 0.5f;
    const float u = fj::rand01(rng);
    const float fade = len * u * u * u * u;
    ox += w * p[1] * fj::cosine(rad) * fade;
    oy += w * p[1] * fj::sine(rad) * fade;
    if (p[4] != 0.0f) color = u;
}
