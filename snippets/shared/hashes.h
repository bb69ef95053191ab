// flamejit — hashes that give the same bits on the host and the device: the
// shader hash of Fractorium's tiling and grid variations, its sine, and
// integer lattice hashes.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// sin(a), the same bits on host and device: Cody–Waite reduction by π/2 and
// minimax polynomials, every step rounded on its own. Within 2.5 ulp of
// sin for |a| up to 10^5 (beyond, the reduction loses accuracy, not
// determinism). For the shader hash below, where libm's last bit would
// show; elsewhere sinf is faster and as good.
FJ_HD FJ_INLINE float stable_sin(float a) {
    const float round = 12582912.0f;  // 1.5·2^23: adding it rounds to a whole number
    const float j = add_rn(add_rn(mul_rn(a, 0.636619772f), round), -round);
    // π/2 in four parts, the first three of 8 bits: j times each is exact
    // for |j| below 2^16.
    float r = add_rn(a, mul_rn(j, -1.5703125f));
    r = add_rn(r, mul_rn(j, -4.825592041015625e-4f));
    r = add_rn(r, mul_rn(j, -1.2665987014770508e-6f));
    r = add_rn(r, mul_rn(j, -9.92093629470503e-10f));
    const float r2 = mul_rn(r, r);
    float ps = add_rn(mul_rn(-1.9515296e-4f, r2), 8.3321609e-3f);
    ps = add_rn(mul_rn(ps, r2), -1.6666655e-1f);
    const float sn = add_rn(r, mul_rn(mul_rn(r, r2), ps));
    float pc = add_rn(mul_rn(2.4433157e-5f, r2), -1.3887316e-3f);
    pc = add_rn(mul_rn(pc, r2), 4.1666646e-2f);
    const float cs = add_rn(add_rn(1.0f, mul_rn(-0.5f, r2)), mul_rn(mul_rn(r2, r2), pc));
    const int quadrant = int_like_x86(j) & 3;
    const float v = (quadrant & 1) ? cs : sn;
    return (quadrant & 2) ? -v : v;
}

// The shader hash some of Fractorium's variations draw from takes the
// fractional part of 43758.5453·sin(a), which magnifies the sine's last bits
// 43758 times: so its argument is formed with mul_rn and add_rn, and the
// sine is stable_sin, and both backends get the same bits. (Fractorium's
// float and double builds differ from each other the same way, so which
// cell gets which value is no renderer's constant.)
FJ_HD FJ_INLINE float hash_sine(float a) {
    return mul_rn(stable_sin(a), 43758.5453f);
}

// The shader hash itself, as most of those variations use it: the fraction
// of hash_sine(12.9898·a + 78.233·b + seed), in [0, 1).
FJ_HD FJ_INLINE float shader_hash(float a, float b, float seed) {
    const float v = hash_sine(add_rn(add_rn(mul_rn(a, 12.9898f), mul_rn(b, 78.233f)), seed));
    return v - floorf(v);
}

// waves4's and waves42's height for band k: h = the fractional part
// (truncated towards zero) of hash_sine(12.9898·k + 78.233·k + 1 +
// 0.001·yfact·y), formed in Fractorium's order; with cont (rounded, at
// least 0.5) 1 where h exceeds 1/2, else 0.
FJ_HD FJ_INLINE float hashed_height(float k, float y, float yfact, float cont) {
    const float a =
        add_rn(add_rn(add_rn(mul_rn(k, 12.9898f), mul_rn(k, 78.233f)), 1.0f), mul_rn(y, mul_rn(yfact, 0.001f)));
    const float v = hash_sine(a);
    const float h = v - truncf(v);
    return cont >= 0.5f ? (h > 0.5f ? 1.0f : 0.0f) : h;
}

// A well-mixed 32-bit hash of a lattice point (three odd multipliers, then
// two multiply–xorshift rounds), standing in for the permutation tables of
// classic noise: no memory reads and no table to carry into every kernel.
FJ_HD FJ_INLINE u32 lattice_hash(int i, int j, int k) {
    u32 h = (u32)i * 0x8da6b343u ^ (u32)j * 0xd8163841u ^ (u32)k * 0xcb1ab31fu;
    h ^= h >> 16;
    h *= 0x7feb352du;
    h ^= h >> 15;
    h *= 0x846ca68bu;
    h ^= h >> 16;
    return h;
}

// The integer lattice noise of Fractorium's Circle* variations: cell (x, y)
// hashed to [0, 1] by the classic polynomial integer hash, n = x + 57·y,
// n ^= n << 13, then (n·(15731·n² + 789221) + 1376312589) mod 2^31 over
// 2^31 − 1. Unsigned, so its wrap-around is defined; Fractorium's signed
// int wraps the same way on every platform it runs on.
FJ_HD FJ_INLINE float grid_noise(u32 x, u32 y) {
    u32 n = x + y * 57u;
    n ^= n << 13;
    n = n * (n * n * 15731u + 789221u) + 1376312589u;
    return (float)(n & 0x7fffffffu) * (1.0f / 2147483647.0f);
}

// The integer hash of Fractorium's pixel_flow and randCubes (Thomas Wang's
// 32-bit mix with the multiplier 0x27d4eb2d), on int's bits: shifts right
// keep the sign, as on every platform Fractorium runs on, and the wrapping
// steps are made on unsigned bits, where C++ defines the wrap. The result
// over int's largest value, in [-1, 1].
FJ_HD FJ_INLINE float wang_hash(int a) {
    u32 h = (u32)a;
    h = (h ^ 61u) ^ (u32)((int)h >> 16);
    h = h + (h << 3);
    h = h ^ (u32)((int)h >> 4);
    h = h * 0x27d4eb2du;
    h = h ^ (u32)((int)h >> 15);
    return (float)(int)h / 2147483647.0f;
}

}  // namespace fj
