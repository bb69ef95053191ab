// flamejit — shared host/device foundation for every snippet.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Everything under snippets/ is compiled twice: by the host C++ compiler into
// the CPU backend, and by NVRTC (or nvcc) for the GPU. The rules that keep one
// source valid for both:
//
//  1. Mark every function FJ_HD (host and device) and FJ_INLINE; nothing else.
//  2. No exceptions, RTTI, virtual calls, std containers, strings or iostreams;
//     no standard headers outside the #if below (NVRTC has none of them).
//  3. Math goes through the C float functions (sinf, sqrtf, ...): both glibc
//     and NVRTC provide them with the same names. The exceptions, where
//     glibc's float functions are slow, go through fj:: (below): atan2
//     (fj::arctan2), sinh with cosh (fj::sinh_cosh) and tan (fj::tangent).
//     No double literals in hot code: write 0.5f, not 0.5.
//  4. Randomness only through fj::Rng (below), so both sides draw alike.
//  5. Only this header may test which compiler is running.
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define FJ_HD __host__ __device__
#define FJ_INLINE __forceinline__
#define FJ_IS_GPU 1
#else
#include <cmath>
#include <cstdint>
#define FJ_HD
#define FJ_INLINE inline __attribute__((always_inline))
#define FJ_IS_GPU 0
#endif

namespace fj {

typedef unsigned int u32;
typedef unsigned long long u64;

#define FJ_PI 3.14159265358979323846f
#define FJ_2PI 6.28318530717958647692f
#define FJ_PI_2 1.57079632679489661923f
// flam3's guard against division by zero (private.h EPS).
#define FJ_EPS 1e-10f
// <cfloat>'s FLT_MAX and FLT_EPSILON, which NVRTC lacks. Fractorium guards
// its divisions with the latter.
#define FJ_FLT_MAX 3.402823466e+38f
#define FJ_FLT_EPSILON 1.192092896e-07f

// An affine map x' = a·x + b·y + c, y' = d·x + e·y + f. flam3 writes coefs as
// "a d b e c f"; the reader reorders them into this struct.
struct Affine {
    float a, b, c, d, e, f;
};

FJ_HD FJ_INLINE void apply_affine(const Affine& m, float x, float y, float& ox, float& oy) {
    ox = m.a * x + m.b * y + m.c;
    oy = m.d * x + m.e * y + m.f;
}

// Per-thread random numbers: PCG32 (XSH-RR), 64-bit state. Small enough to live
// in registers, statistically far better than flam3 needs, and identical on
// host and device, so a seed means the same stream on both backends.
struct Rng {
    u64 state;
};

FJ_HD FJ_INLINE u32 next_u32(Rng& rng) {
    u64 old = rng.state;
    rng.state = old * 6364136223846793005ULL + 1442695040888963407ULL;
    u32 xorshifted = (u32)(((old >> 18u) ^ old) >> 27u);
    u32 rot = (u32)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

// Distinct streams from one seed: splitmix64 of (seed, stream) spreads nearby
// stream numbers far apart in PCG's state space.
FJ_HD FJ_INLINE Rng make_rng(u64 seed, u64 stream) {
    u64 z = seed + 0x9E3779B97F4A7C15ULL * (stream + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    Rng rng;
    rng.state = z;
    next_u32(rng);
    return rng;
}

// Uniform in [0, 1): 24 random bits, exact in float.
FJ_HD FJ_INLINE float rand01(Rng& rng) {
    return (float)(next_u32(rng) >> 8) * (1.0f / 16777216.0f);
}

// Uniform in [-1, 1).
FJ_HD FJ_INLINE float rand11(Rng& rng) {
    return 2.0f * rand01(rng) - 1.0f;
}

FJ_HD FJ_INLINE bool rand_bit(Rng& rng) {
    return (next_u32(rng) >> 31) != 0;
}

// C's float-to-int conversion as flam3's reference build (x86-64) performs it:
// values outside int's range, and NaN, become INT_MIN. rings2, fan2 and cell
// reach that case with small parameters and their pictures depend on it; the
// GPU's own conversion saturates instead, so every snippet that mirrors a flam3
// (int) cast goes through here.
FJ_HD FJ_INLINE int int_like_x86(float v) {
    return (v > -2147483648.0f && v < 2147483648.0f) ? (int)v : (-2147483647 - 1);
}

// atan2(y, x). The device keeps CUDA's atan2f. On the host, glibc's atan2f
// divides and then calls a branchy atanf, which was a quarter of an expensive
// genome's CPU time; this version has no branches and no calls. It stays
// within 2 ulp of the exact value and keeps atan2's signed zeros, infinities
// and NaNs. Plain float operations, so the CPU backend and host-compiled
// kernels still agree bit for bit.
// q(s) is a minimax fit of (atan(a) − a)/a³ on a ∈ [0, 1], s = a²
// (tools/fit_arctan.py), with a relative error of 1.7e-8 before rounding.
FJ_HD FJ_INLINE float arctan2(float y, float x) {
#if FJ_IS_GPU
    return atan2f(y, x);
#else
    const float ax = fabsf(x), ay = fabsf(y);
    const bool steep = ay > ax;
    const float hi = steep ? ay : ax, lo = steep ? ax : ay;
    // lo == hi: both 0 (angle 0 before the quadrant fix) or both infinite
    // (45°); any other equal pair divides to 1 anyway.
    const float a = lo == hi ? (hi != 0.0f ? 1.0f : 0.0f) : lo / hi;
    const float s = a * a;
    float q = 0.0029206426662612f;
    q = q * s - 0.016367744781048583f;
    q = q * s + 0.04321158779419068f;
    q = q * s - 0.0755219331469594f;
    q = q * s + 0.10665995840449466f;
    q = q * s - 0.14211053343484625f;
    q = q * s + 0.1999377262825316f;
    q = q * s - 0.333331527287454f;
    const float r = a + a * s * q;
    // Fold into the octant and the half plane: |c − r| is c − r when c is
    // π/2 or π (r never exceeds them) and r when c is 0.
    const float in_quadrant = fabsf((steep ? FJ_PI_2 : 0.0f) - r);
    const float in_half = fabsf((std::signbit(x) ? FJ_PI : 0.0f) - in_quadrant);
    return copysignf(in_half, y);
#endif
}

// sinh(x) and cosh(x), which every variation that needs one needs with the
// other. The device keeps CUDA's sinhf and coshf. On the host, glibc's float
// versions go through expm1f and took a quarter of a trigonometric genome's
// CPU time; here both come from one expf: cosh = h + 1/(4h) with
// h = e^|x|/2, formed as (e^(|x|/2))²/2 so that it overflows only where sinh
// does, and sinh the same difference, or below |x| = 1, where the difference
// cancels, its Taylor series through x^11 (the next term is below 2e-10 of
// it). Over all floats, sinh is within 4 ulp of the exact value and cosh
// within 2.5, with sinh's signed zero, infinities and NaN kept.
FJ_HD FJ_INLINE void sinh_cosh(float x, float& s, float& c) {
#if FJ_IS_GPU
    s = sinhf(x);
    c = coshf(x);
#else
    const float ax = fabsf(x);
    const float e = expf(0.5f * ax);
    const float h = 0.5f * e * e;    // e^|x| / 2
    const float q = 0.5f / (e * e);  // e^-|x| / 2
    c = h + q;
    if (ax < 1.0f) {
        const float x2 = x * x;
        float p = 1.0f / 39916800.0f;
        p = p * x2 + 1.0f / 362880.0f;
        p = p * x2 + 1.0f / 5040.0f;
        p = p * x2 + 1.0f / 120.0f;
        p = p * x2 + 1.0f / 6.0f;
        s = x + x * x2 * p;
    } else {
        s = copysignf(h - q, x);
    }
#endif
}

// tan(x). The device keeps CUDA's tanf. On the host, glibc's tanf has no
// FMA version and costs half again its sincosf, which the quotient uses
// (within 2 ulp; the compiler shares the call with any sinf or cosf of the
// same argument).
FJ_HD FJ_INLINE float tangent(float x) {
#if FJ_IS_GPU
    return tanf(x);
#else
    return sinf(x) / cosf(x);
#endif
}

// A product and a sum each rounded on their own: the device otherwise fuses
// a multiply and an add into one rounding, which the host does not.
FJ_HD FJ_INLINE float mul_rn(float a, float b) {
#if defined(__CUDA_ARCH__)  // device code (nvcc compiles host code too)
    return __fmul_rn(a, b);
#else
    return a * b;
#endif
}

FJ_HD FJ_INLINE float add_rn(float a, float b) {
#if defined(__CUDA_ARCH__)  // device code (nvcc compiles host code too)
    return __fadd_rn(a, b);
#else
    return a + b;
#endif
}

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

// Fractorium's guard before a division: v, or float's epsilon where v is 0.
FJ_HD FJ_INLINE float zeps(float v) {
    return v != 0.0f ? v : FJ_FLT_EPSILON;
}

// A Fractorium parameter of cyclic type, as its setter stores it: a value
// beyond [lo, hi] is wrapped into it.
FJ_HD FJ_INLINE float wrap_cyclic(float v, float lo, float hi) {
    if (v > hi) return lo + fmodf(v - lo, hi - lo);
    if (v < lo) return hi - fmodf(hi - v, hi - lo);
    return v;
}

// What a variation sees of its input point: the pre-affine result and the
// quantities flam3 precomputes per xform. A variation that does not read a
// field costs nothing for it: every field is computed inline next to the call
// and the compiler drops the unused ones.
struct VarIn {
    float x, y;     // point after the pre-affine (and pre-variations)
    float r2;       // x² + y²        (flam3 "sumsq")
    float r;        // sqrt(r2)       (flam3 "sqrt")
    float theta;    // atan2(x, y)    (flam3 "atan": x first, on purpose)
    float phi;      // atan2(y, x)    (flam3 "atanyx")
    float sina;     // x / r          (flam3 names it sin)
    float cosa;     // y / r
    const Affine* aff;  // the xform's own pre-affine (waves, popcorn, rings, fan)
};

FJ_HD FJ_INLINE VarIn make_var_in(float x, float y, const Affine* aff) {
    VarIn in;
    in.x = x;
    in.y = y;
    in.r2 = x * x + y * y;
    in.r = sqrtf(in.r2);
    in.theta = arctan2(x, y);
    in.phi = arctan2(y, x);
    in.sina = x / in.r;
    in.cosa = y / in.r;
    in.aff = aff;
    return in;
}

// For elliptic and edisc: xmax = (r1 + r2)/2, the half sum of the distances to
// the foci (±1, 0), and xmax − 1 formed without cancellation — float cannot
// afford flam3's direct difference near the origin and between the foci.
// xmax − 1 = D / (2·xmax + 2), D = r1·r2 − (1 − r²) = 4y² / (r1·r2 + 1 − r²).
FJ_HD FJ_INLINE float elliptic_xmax_minus_one(const VarIn& in, float& xmax) {
    const float y2 = in.y * in.y;
    const float xp = in.x + 1.0f, xm = in.x - 1.0f;
    const float r1 = sqrtf(xp * xp + y2), r2 = sqrtf(xm * xm + y2);
    xmax = 0.5f * (r1 + r2);
    const float q = 1.0f - in.r2;
    const float d = q > 0.0f ? 4.0f * y2 / (r1 * r2 + q) : r1 * r2 - q;
    return d / (2.0f * xmax + 2.0f);
}

// For the variations that carry squares to circles (circlize, circlize2):
// where (x, y) lies along the perimeter of its square ring, the square of
// half-width `side` = max(|x|, |y|), measured counter-clockwise from the
// ring's lower right corner: 0 to 2·side up the right edge, then the top,
// the left and the bottom, 8·side in all.
FJ_HD FJ_INLINE float square_ring_place(float x, float y, float& side) {
    const float ax = fabsf(x), ay = fabsf(y);
    if (ax >= ay) {
        side = ax;
        return x >= ay ? ax + y : 5.0f * ax - y;
    }
    side = ay;
    return y >= ax ? 3.0f * ay - x : 7.0f * ay + x;
}

// For the hypertile variations: in the Poincaré disc, the distance from the
// centre to the centre of a neighbouring tile of the hyperbolic {p, q}
// tiling (1 where p and q make no hyperbolic tiling).
FJ_HD FJ_INLINE float hyperbolic_tile_step(float p, float q) {
    const float cs = cosf(FJ_2PI / p);
    const float r2 = (1.0f - cs) / (cs + cosf(FJ_2PI / q)) + 1.0f;
    return r2 > 0.0f ? 1.0f / sqrtf(r2) : 1.0f;
}

// The disc automorphism z → (z + conj(ρ)) / (ρ·z + 1), ρ = re + i·im,
// that carries the tile at the centre to the neighbour at −conj(ρ); the
// denominator guarded only where `guard` (hypertile does not guard it).
FJ_HD FJ_INLINE void hyperbolic_move(float x, float y, float re, float im, bool guard, float& mx, float& my) {
    const float a = x + re, b = y - im;
    const float c = re * x - im * y + 1.0f, d = re * y + im * x;
    const float den = c * c + d * d;
    const float s = 1.0f / (guard ? zeps(den) : den);
    mx = s * (a * c + b * d);
    my = s * (b * c - a * d);
}

// Bipolar coordinates about the foci (±1, 0), for Fractorium's b*
// variations: tau, the log of the ratio of the distances to the foci, and
// sigma, the angle they subtend, in [0, 2π) (past π below the x axis). Each
// comes from a quotient that keeps its precision far from the foci, where
// the textbook difference of logs and sum of angles cancel; tau is odd in
// x, and its log1p form is exact only on the side of the nearer focus, so
// it is taken there.
FJ_HD FJ_INLINE void bipolar_coords(float x, float y, float& tau, float& sigma) {
    const float ax = fabsf(x), y2 = y * y, d = ax - 1.0f;
    tau = copysignf(0.5f * log1pf(4.0f * ax / (d * d + y2)), x);
    sigma = arctan2(2.0f * y, (x - 1.0f) * (x + 1.0f) + y2);
    if (sigma < 0.0f) sigma += FJ_2PI;
}

// Back to the plane, x + iy = coth((tau − i·sigma)/2), in half-angle terms:
// cosh(tau) − cos(sigma) = 2(sinh²(tau/2) + sin²(sigma/2)) does not cancel
// far from the foci. Only a focus itself has an infinite tau; held at ±64
// it comes back as that focus instead of as 0/0. A zero divisor (the point
// at infinity) gets Fractorium's FLT_EPSILON guard.
FJ_HD FJ_INLINE void bipolar_point(float tau, float sigma, float& x, float& y) {
    float sh, ch;
    sinh_cosh(0.5f * fminf(fmaxf(tau, -64.0f), 64.0f), sh, ch);
    const float sn = sinf(0.5f * sigma), cn = cosf(0.5f * sigma);
    float q = sh * sh + sn * sn;
    if (q == 0.0f) q = 0.5f * FJ_FLT_EPSILON;
    x = sh * ch / q;
    y = sn * cn / q;
}

// Elliptic coordinates about the foci (±1, 0) of the point (x, y), for
// Fractorium's e* variations, from x and y²: cosh(mu) = (r1 + r2)/2 with r1,
// r2 the distances to the foci, sinh(mu) and mu ≥ 0, and nu in [0, π] (the
// caller signs it). The textbook acosh(cosh mu) and acos(x/cosh mu) lose
// half their digits near the segment between the foci and near the x axis
// beyond them; here sinh²(mu) = (r1·r2 − 1 + r²)/2 and tan²(nu/2) =
// (1 − x + r2)/(1 + x + r1), each sum rewritten where its terms would cancel.
FJ_HD FJ_INLINE void elliptic_coords(float x, float y2, float& ch, float& sh, float& mu, float& nu) {
    const float u = 1.0f - x, v = 1.0f + x;
    const float r1 = sqrtf(v * v + y2), r2 = sqrtf(u * u + y2);
    const float q = u * v - y2;
    const float d = q > 0.0f ? 4.0f * y2 / (r1 * r2 + q) : r1 * r2 - q;
    ch = 0.5f * (r1 + r2);
    sh = sqrtf(0.5f * d);
    mu = asinhf(sh);
    const float below = u >= 0.0f ? u + r2 : y2 / (r2 - u);
    const float above = v >= 0.0f ? v + r1 : y2 / (r1 - v);
    nu = 2.0f * arctan2(sqrtf(below), sqrtf(above));
}

// The principal square root of a + ib: the sign of b, zero included, picks
// the side of the cut along the negative axis.
FJ_HD FJ_INLINE void complex_sqrt(float a, float b, float& re, float& im) {
    const float t = sqrtf(0.5f * (hypotf(a, b) + fabsf(a)));
    const float other = t > 0.0f ? 0.5f * fabsf(b) / t : 0.0f;
    re = a >= 0.0f ? t : other;
    im = copysignf(a >= 0.0f ? other : t, b);
}

// arcsech(x + iy) = arccosh(u), u = 1/z, on its principal branch (for
// arcsech and arcsech2, whose comments say why it is formed this way):
// 2·log(√((u + 1)/2) + √((u − 1)/2)), whose two roots never cancel. 1/z goes
// through |z|; on the real axis u's imaginary zero takes the sign of x,
// which picks the side of the cut.
FJ_HD FJ_INLINE void arcsech(float x, float y, float& re, float& im) {
    const float inv = 1.0f / hypotf(x, y);
    const float ux = x * inv * inv, uy = y != 0.0f ? -y * inv * inv : copysignf(0.0f, x);
    float ar, ai, br, bi;
    complex_sqrt(0.5f * (ux + 1.0f), 0.5f * uy, ar, ai);
    complex_sqrt(0.5f * (ux - 1.0f), 0.5f * uy, br, bi);
    const float sr = ar + br, si = ai + bi;
    re = logf(sr * sr + si * si);
    im = 2.0f * arctan2(si, sr);
}

// The square spiral out from the origin through the whole-number lattice,
// counterclockwise, each ring left at its bottom-right corner (gridout,
// dc_gridout): the unit step (sx, sy) it takes from lattice point (x, y).
FJ_HD FJ_INLINE void spiral_step(float x, float y, float& sx, float& sy) {
    sx = 0.0f;
    sy = 0.0f;
    if (y <= 0.0f) {
        if (x > 0.0f) {
            if (-y >= x) sx = 1.0f; else sy = 1.0f;
        } else {
            if (y <= x) sx = 1.0f; else sy = -1.0f;
        }
    } else {
        if (x > 0.0f) {
            if (y >= x) sx = -1.0f; else sy = 1.0f;
        } else {
            if (y > -x) sx = -1.0f; else sy = -1.0f;
        }
    }
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

// One corner's share of simplex noise: (0.6 − d²)⁴ times the dot product of
// the offset d with the corner's gradient, one of the twelve directions to
// the midpoints of a cube's edges, of unit length.
FJ_HD FJ_INLINE float simplex_corner(float x, float y, float z, u32 h) {
    float t = 0.6f - x * x - y * y - z * z;
    if (t <= 0.0f) return 0.0f;
    const u32 g = h % 12u, pair = g >> 2;  // pair 0: xy, 1: xz, 2: yz
    const float a = pair == 2u ? y : x, b = pair == 0u ? y : z;
    const float dot = ((g & 1u) ? -a : a) + ((g & 2u) ? -b : b);
    t *= t;
    return t * t * dot * 0.70710678f;
}

// 3D simplex noise (Perlin's 2001 design): smooth, zero at every lattice
// point of the skewed grid, within about ±1. Fractorium's crackle perturbs
// its cells with the same kind of noise drawn from its own tables of
// gradients; those tables are not reproduced here, so the jitter has the
// same character and amplitude but not Fractorium's values. Lattice
// coordinates are held within ±2^30 (beyond, float has no fraction left).
FJ_HD FJ_INLINE float simplex_noise(float x, float y, float z) {
    const float skew = (x + y + z) * (1.0f / 3.0f);
    const float fi = floorf(x + skew), fj = floorf(y + skew), fk = floorf(z + skew);
    const float unskew = (fi + fj + fk) * (1.0f / 6.0f);
    // Offsets from the cell's first corner, in input space.
    const float x0 = x - (fi - unskew), y0 = y - (fj - unskew), z0 = z - (fk - unskew);
    // Which of the cell's six tetrahedra holds the point: step along the
    // axes in order of decreasing offset.
    int i1, j1, k1, i2, j2, k2;
    if (x0 >= y0) {
        if (y0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
        else if (x0 >= z0) { i1 = 1; j1 = 0; k1 = 0; i2 = 1; j2 = 0; k2 = 1; }
        else { i1 = 0; j1 = 0; k1 = 1; i2 = 1; j2 = 0; k2 = 1; }
    } else {
        if (y0 < z0) { i1 = 0; j1 = 0; k1 = 1; i2 = 0; j2 = 1; k2 = 1; }
        else if (x0 < z0) { i1 = 0; j1 = 1; k1 = 0; i2 = 0; j2 = 1; k2 = 1; }
        else { i1 = 0; j1 = 1; k1 = 0; i2 = 1; j2 = 1; k2 = 0; }
    }
    const float g = 1.0f / 6.0f;
    const float limit = 1073741824.0f;
    const int i = (int)fminf(fmaxf(fi, -limit), limit), j = (int)fminf(fmaxf(fj, -limit), limit),
              k = (int)fminf(fmaxf(fk, -limit), limit);
    const float n = simplex_corner(x0, y0, z0, lattice_hash(i, j, k)) +
                    simplex_corner(x0 - i1 + g, y0 - j1 + g, z0 - k1 + g, lattice_hash(i + i1, j + j1, k + k1)) +
                    simplex_corner(x0 - i2 + 2.0f * g, y0 - j2 + 2.0f * g, z0 - k2 + 2.0f * g,
                                   lattice_hash(i + i2, j + j2, k + k2)) +
                    simplex_corner(x0 - 1.0f + 3.0f * g, y0 - 1.0f + 3.0f * g, z0 - 1.0f + 3.0f * g,
                                   lattice_hash(i + 1, j + 1, k + 1));
    return 32.0f * n;
}

// Jacobi's elliptic functions sn, cn and dn of a real u, for Fractorium's
// jac_* variations, which give the parameter m = k² (k the modulus) by its
// complement mc = 1 − m, any real number. Descending Landen (Gauss)
// transformations carry m towards 0: with k' = √mc, the next level has
// modulus k₁ = (1 − k')/(1 + k') = m/(1 + k')² (the second form does not
// cancel for small m), complementary modulus k₁' = 2√k'/(1 + k') (formed
// from k', so it does not round to 0 when mc is tiny), and the argument
// divided by 1 + k₁. The parameter roughly squares at each level; once it is
// below 1e-8 the functions are sin, cos and 1 to float precision. Climbing
// back, each level gives, with t = k₁·sn²,
//   sn ← (1 + k₁)·sn/(1 + t),  cn ← cn·dn/(1 + t),  dn ← (1 − t)/(1 + t),
// the last being the textbook (dn² − 1 + k₁)/(1 + k₁ − dn²) with
// dn² = 1 − k₁²·sn² put in, which keeps it from cancelling. The identities
// are analytic in m, so they hold for negative m too (k' > 1, k₁ < 0).
// m > 1 (mc < 0) goes through the reciprocal modulus: sn(u|m) =
// sn(u√m | 1/m)/√m, with cn and dn trading places. mc = 0 is the limit
// tanh, sech, sech. Ten levels cover every float mc (the smallest
// positive one needs eight); the loops have fixed bounds so that the device
// can keep the moduli in registers.
FJ_HD FJ_INLINE void jacobi_elliptic(float u, float mc, float& sn, float& cn, float& dn) {
    if (mc == 0.0f) {
        float sh, ch;
        sinh_cosh(u, sh, ch);
        sn = tanhf(u);
        cn = 1.0f / ch;
        dn = cn;
        return;
    }
    const bool reciprocal = mc < 0.0f;
    float m = 1.0f - mc, kp2 = mc, root = 1.0f;
    if (reciprocal) {
        root = sqrtf(m);
        u *= root;
        kp2 = -mc / m;
        m = 1.0f / m;
    }
    const int kLevels = 10;
    float k[kLevels];
    int levels = 0;
    float kp = sqrtf(kp2);
    for (int i = 0; i < kLevels; ++i) {
        if (fabsf(m) < 1e-8f) break;
        const float q = 1.0f + kp;
        k[i] = m / (q * q);
        u /= 1.0f + k[i];
        kp = 2.0f * sqrtf(kp) / q;
        m = k[i] * k[i];
        levels = i + 1;
    }
    float s = sinf(u), c = cosf(u), d = 1.0f;
    for (int i = kLevels - 1; i >= 0; --i) {
        if (i >= levels) continue;
        const float t = k[i] * s * s, den = 1.0f + t;
        const float ns = (1.0f + k[i]) * s / den;
        c = c * d / den;
        d = (1.0f - t) / den;
        s = ns;
    }
    if (reciprocal) {
        sn = s / root;
        cn = d;
        dn = c;
    } else {
        sn = s;
        cn = c;
        dn = d;
    }
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

// For Fractorium's Truchet variations, whose unit tiles hold two quarter
// arcs of radius 1/2 about opposite corners, drawn in the L^n norm: how far
// the point at offset (dx, dy) from a corner lies from that arc, in units of
// the band's half-width, |‖(dx, dy)‖ₙ − 1/2| / rmax with rmax = (2^(1/n) −
// 1)·width/2 (below 1 on the band). Both are divided by 2^(1/n) first:
// formed directly, 2^(1/n) overflows float for n below 1/128 and the bands
// there would vanish; divided, the norm becomes the power mean
// ((|dx|ⁿ + |dy|ⁿ)/2)^(1/n), at most 1. n in (0, 2], width > 0.
FJ_HD FJ_INLINE float truchet_arc_distance(float dx, float dy, float n, float width) {
    const float t = exp2f(-1.0f / n);
    const float mean = powf(0.5f * (powf(fabsf(dx), n) + powf(fabsf(dy), n)), 1.0f / n);
    return fabsf(mean - 0.5f * t) / (0.5f * (1.0f - t) * width);
}

// The tile type of Fractorium's Truchet variations from a tile's hashed
// value v: (32747·v + 12345) mod 65535, mod 2 (fmod's, so negative for a
// negative v); a result below 1 is the first kind. Each step is rounded on
// its own so that both backends get the same bits.
FJ_HD FJ_INLINE float truchet_tile(float v) {
    return fmodf(fmodf(add_rn(mul_rn(v, 32747.0f), 12345.0f), 65535.0f), 2.0f);
}

}  // namespace fj

// Every variation snippet defines exactly one function with this signature:
//   in   the point and its precomputed quantities
//   p    the variation's parameters, in the order of its @param annotations
//   w    the variation's weight in this xform
//   rng  this thread's random stream
//   ox, oy  what the variation adds w·V(in) to: the xform's running sum,
//        or for flam3's pre_blur and Fractorium's pre_ and post_ uses the
//        point or sum they change (zeroed first where they replace it)
//   color   only for a variation annotated @color (Fractorium's direct-colour
//        variations; no other may name it): the point's colour index, already
//        blended with the xform's colour as flam3 and Fractorium blend it
//        before the variations, for it to change; the xform then mixes the
//        result with the blended index by its var_color weight
#define FJ_VARIATION(name)                                                              \
    FJ_HD FJ_INLINE void fj_var_##name([[maybe_unused]] const fj::VarIn& in,           \
                                       [[maybe_unused]] const float* p, float w,         \
                                       [[maybe_unused]] fj::Rng& rng, float& ox, float& oy, \
                                       [[maybe_unused]] float& color)
