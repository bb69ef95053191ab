// flamejit — shared host/device foundation for every snippet.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Everything under snippets/ is compiled twice: by the host C++ compiler into
// the CPU backend, and by NVRTC (or nvcc) for the GPU. The rules that keep one
// source valid for both:
//
//  1. Mark every function FJ_HD (host and device) and FJ_INLINE; nothing else
//     (the out-of-line calls and short paths of the math below, device only,
//     are the exception, and the stitcher's xforms as calls, FJ_NOINLINE).
//  2. No exceptions, RTTI, virtual calls, std containers, strings or iostreams;
//     no standard headers outside the #if below (NVRTC has none of them).
//  3. Math goes through the C float functions (sqrtf, expf, ...): both glibc
//     and NVRTC provide them with the same names. The exceptions go through
//     fj:: (below): sin, cos, fmod and pow (fj::sine, fj::cosine,
//     fj::modulo, fj::power), which CUDA's compile is slow with, and atan2
//     (fj::arctan2), sinh with cosh (fj::sinh_cosh) and tan (fj::tangent),
//     which glibc's float functions are slow at.
//     No double literals in hot code: write 0.5f, not 0.5.
//  4. Randomness only through fj::Rng (below), so both sides draw alike.
//  5. Only this header may test which compiler is running.
//  6. What only some variations need (coordinate systems, noise, hashes,
//     special functions) lives in shared/, one concept per file: a snippet
//     includes the helpers it uses, and a generated kernel holds just those,
//     each once, ahead of the snippets.
#pragma once

#if defined(__CUDACC_RTC__) || defined(__CUDACC__)
#define FJ_HD __host__ __device__
#define FJ_INLINE __forceinline__
#define FJ_NOINLINE __noinline__
#define FJ_IS_GPU 1
#else
#include <cmath>
#include <cstdint>
#define FJ_HD
#define FJ_INLINE inline __attribute__((always_inline))
#define FJ_NOINLINE __attribute__((noinline))
#define FJ_IS_GPU 0
#endif
// Code compiled for a device: NVRTC's, or nvcc's device pass (not its host
// pass, nor the tests' emulator, which builds kernels for the host with
// __CUDA_ARCH__ set). Where fj:: gives math its own device shape.
#if FJ_IS_GPU && defined(__CUDA_ARCH__)
#define FJ_DEVICE_CODE 1
#else
#define FJ_DEVICE_CODE 0
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

// A draw is a step of the state and an output made from the state it left.
// The CPU backend steps streams whose numbers go unused without the output.
FJ_HD FJ_INLINE void step_rng(Rng& rng) {
    rng.state = rng.state * 6364136223846793005ULL + 1442695040888963407ULL;
}

FJ_HD FJ_INLINE u32 output_u32(u64 old) {
    u32 xorshifted = (u32)(((old >> 18u) ^ old) >> 27u);
    u32 rot = (u32)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((32u - rot) & 31u));
}

FJ_HD FJ_INLINE u32 next_u32(Rng& rng) {
    const u64 old = rng.state;
    step_rng(rng);
    return output_u32(old);
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

// Uniform in [0, 1): 24 random bits, exact in float. rand01_from: the number
// a draw from state `old` gives.
FJ_HD FJ_INLINE float rand01_from(u64 old) {
    return (float)(output_u32(old) >> 8) * (1.0f / 16777216.0f);
}

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

// A quiet NaN: what flam3's double arithmetic makes where it multiplies 0
// by an overflow, a bad value (iterate/common.h) that the iteration then
// replaces, as flam3 does. The variations that mirror such a place test
// for flam3's threshold and give this beyond it.
FJ_HD FJ_INLINE float quiet_nan() {
#if FJ_DEVICE_CODE
    return __int_as_float(0x7fffffff);
#else
    return __builtin_nanf("");
#endif
}

// C's float-to-int conversion as flam3's reference build (x86-64) performs it:
// values outside int's range, and NaN, become INT_MIN. rings2, fan2 and cell
// reach that case with small parameters and their pictures depend on it; the
// GPU's own conversion saturates instead, so every snippet that mirrors a flam3
// (int) cast goes through here.
FJ_HD FJ_INLINE int int_like_x86(float v) {
    return (v > -2147483648.0f && v < 2147483648.0f) ? (int)v : (-2147483647 - 1);
}

// v where keep is 1, 0 where it is 0. On the host a mask on the bits: from
// a select GCC moves a conversion that follows into a branch of its own,
// and the loop around it stays scalar.
FJ_HD FJ_INLINE float zero_unless(int keep, float v) {
#if FJ_IS_GPU
    return keep ? v : 0.0f;
#else
    u32 bits;
    __builtin_memcpy(&bits, &v, sizeof v);
    bits &= 0u - (u32)keep;
    __builtin_memcpy(&v, &bits, sizeof v);
    return v;
#endif
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

// sin(x), cos(x) and tan(x): CUDA's sinf, cosf and tanf on the device,
// glibc's sinf and cosf on the host (tan below), the same value for every
// input. Snippets call these, never sinf, cosf or tanf, so that the shape of
// the device code can be chosen here, for the GPU's compile time: CUDA
// inlines its sinf, cosf and tanf whole at every call, and most of their
// code is the reduction for |x| >= 105615 (Payne-Hanek, over a table),
// which arguments of flames almost never reach; the snippets hold over 500
// calls. So by default CUDA's own first test is made at the call; below the
// bound sine and cosine run the library's short path, written out here
// (quarter_turns_sine), and above it one out-of-line sincosf per kernel
// (tangent: the library's tanf inlined behind the test, and one out-of-line
// tanf). On an H200 the test ran expensive8 4-7 % faster than the whole
// functions inlined. Writing the short path out and sharing one long path
// spares NVVM inlining the whole functions only to find their long
// reduction dead: with the same code speed, a cold `flamejit compile` of
// expensive8 or default.flam3 takes about 0.9 of the time (benchmarks/
// README.md "Compile path").
// Two other shapes, each an NVRTC -D option, for measuring:
//   FJ_TRIG_INLINE  CUDA's functions inlined whole at every call;
//   FJ_TRIG_CALLS   every call out of line (sine and cosine through the one
//                   sincosf; final-post and xaos ran 4-8 % slower with
//                   separate calls).
// Shaped: device code (NVRTC's, nvcc's device pass); nvcc's host pass of the
// project's own .cu files and the host inline, the calls being device code.
#if FJ_DEVICE_CODE && !defined(FJ_TRIG_INLINE)
#define FJ_TRIG_SHAPED 1
#else
#define FJ_TRIG_SHAPED 0
#endif
#if FJ_TRIG_SHAPED
// One out-of-line copy of the long reduction serves both: CUDA's sincosf
// reduces once for the two (its values are sinf's and cosf's, which
// gpu_variations_test checks above the bound too).
static __device__ __noinline__ float2 sine_cosine_call(float x) {
    float2 r;
    ::sincosf(x, &r.x, &r.y);
    return r;
}
__device__ FJ_INLINE float sine_call(float x) { return sine_cosine_call(x).x; }
__device__ FJ_INLINE float cosine_call(float x) { return sine_cosine_call(x).y; }
static __device__ __noinline__ float tangent_call(float x) { return ::tanf(x); }

// CUDA's sinf (shift 0) and cosf (shift 1, a quarter turn on) for
// |x| < 105615, step for step, so that the result is the library's bit for
// bit (gpu_variations_test compares every float below the bound): x less
// the nearest multiple q of pi/2 (pi/2 in three parts, each product exact),
// then on the remainder r the sine's odd or the cosine's even polynomial by
// the quadrant's parity, negated in the quadrant's second half. The
// constants are the library's (its minimax fits, not Taylor's terms).
__device__ FJ_INLINE float quarter_turns_sine(float x, int shift) {
    const int q = __float2int_rn(x * 0.636619747f);  // x · 2/pi, to the nearest
    const float qf = (float)q;
    float r = fmaf(qf, -1.57079625f, x);
    r = fmaf(qf, -7.54978942e-08f, r);
    r = fmaf(qf, -5.39030295e-15f, r);
    const float r2 = __fmul_rn(r, r);
    const int quadrant = q + shift;
    const bool sine_poly = (quadrant & 1) == 0;
    const float lead = sine_poly ? r : 1.0f;
    float p = sine_poly ? -0.000195746587f : fmaf(2.42795795e-05f, r2, -0.00138878601f);
    p = fmaf(p, r2, sine_poly ? 0.00833270326f : 0.0416667275f);
    p = fmaf(p, r2, sine_poly ? -0.166666627f : -0.49999997f);
    const float v = fmaf(p, fmaf(r2, lead, 0.0f), lead);
    return (quadrant & 2) ? fmaf(v, -1.0f, 0.0f) : v;  // the library's negation (-0 + 0 = +0)
}
__device__ FJ_INLINE float sine_short(float x) { return quarter_turns_sine(x, 0); }
__device__ FJ_INLINE float cosine_short(float x) { return quarter_turns_sine(x, 1); }
#endif
// FJ_TRIG(library function, short path, out-of-line copy, argument).
#if !FJ_TRIG_SHAPED
#define FJ_TRIG(library, short_path, call, x) library(x)
#elif defined(FJ_TRIG_CALLS)
#define FJ_TRIG(library, short_path, call, x) call(x)
#else
// !(a >= b), not a < b: NaN takes the short path, as in CUDA's own test.
#define FJ_TRIG(library, short_path, call, x) (!(fabsf(x) >= 105615.0f) ? short_path(x) : call(x))
#endif

FJ_HD FJ_INLINE float sine(float x) { return FJ_TRIG(::sinf, sine_short, sine_call, x); }
FJ_HD FJ_INLINE float cosine(float x) { return FJ_TRIG(::cosf, cosine_short, cosine_call, x); }

// On the host, glibc's tanf has no FMA version and costs half again its
// sincosf, which the quotient uses (within 2 ulp; the compiler shares the
// call with any sinf or cosf of the same argument).
FJ_HD FJ_INLINE float tangent(float x) {
#if FJ_IS_GPU
    return FJ_TRIG(::tanf, ::tanf, tangent_call, x);
#else
    return sinf(x) / cosf(x);
#endif
}

// fmod(x, y): C's fmodf, whose result is exact (the remainder of x by y is
// always a float), so every correct way of computing it gives the same bits.
// CUDA inlines its fmodf at every call, a loop that takes the quotient's
// bits a few at a time, and so costs a cold compile about 12 ms per call
// site (the snippets hold over 50). On the device, for quotients below 2^22
// (nearly every call of a flame: angles and colours wrapped into a period),
// the remainder comes from the fast division's quotient (remainder_near,
// below). Other arguments (larger quotients, zero, infinite, NaN or
// subnormal divisors, and divisors from 2^126, where the fast division gives
// 0) call one out-of-line fmodf per kernel. gpu_variations_test compares
// the result with CUDA's fmodf on the device (on an H200: no case of 2^30
// differs, and expensive8 ran as fast as with CUDA's fmodf).
//
// remainder_near: the remainder of ax by ay (both >= 0) from q, the integer
// part of ax/ay or one off it either way: ax - q·ay in one fused
// multiply-add is exact for the right q (the remainder is a float), and the
// remainder's sign, or its reaching ay, tells a q one too large or too small.
// (The fast division is within 2 ulp, so below 2^22 its integer part is at
// most one off.) variations_test checks it on the host against fmodf.
FJ_HD FJ_INLINE float remainder_near(float ax, float ay, float q) {
    const float r = fmaf(-q, ay, ax);
    if (r < 0.0f) return fmaf(1.0f - q, ay, ax);
    if (r >= ay) return fmaf(-1.0f - q, ay, ax);
    return r;
}

#if FJ_DEVICE_CODE
static __device__ __noinline__ float modulo_call(float x, float y) { return ::fmodf(x, y); }
#endif

FJ_HD FJ_INLINE float modulo(float x, float y) {
#if FJ_DEVICE_CODE
    const float ax = fabsf(x), ay = fabsf(y);
    // 2^-126 <= |y| < 2^126 and |x| < 2^22·|y|; false for every NaN.
    const bool short_path = ay >= 1.17549435e-38f && ay < 8.50705917e37f && ax < 4194304.0f * ay;
    return short_path ? copysignf(remainder_near(ax, ay, truncf(__fdividef(ax, ay))), x) : modulo_call(x, y);
#else
    return fmodf(x, y);
#endif
}

// pow(x, y): C's powf, inlined. CUDA's powf is about 90 instructions with no
// rare path to leave out, and costs a cold compile about 10 ms per call
// site. Under the NVRTC option -DFJ_POW_CALLS every call goes to one
// out-of-line powf per kernel instead: that compiled expensive8 (three call
// sites) in 0.95-0.97 of the time but ran it 2-4 % slower on an H200
// (benchmarks/README.md, "Compile path"), so it stays a shape to measure.
#if FJ_DEVICE_CODE && defined(FJ_POW_CALLS)
static __device__ __noinline__ float power_call(float x, float y) { return ::powf(x, y); }
#endif

FJ_HD FJ_INLINE float power(float x, float y) {
#if FJ_DEVICE_CODE && defined(FJ_POW_CALLS)
    return power_call(x, y);
#else
    return powf(x, y);
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

// Fractorium's guard before a division: v, or float's epsilon where v is 0.
FJ_HD FJ_INLINE float zeps(float v) {
    return v != 0.0f ? v : FJ_FLT_EPSILON;
}

// A Fractorium parameter of cyclic type, as its setter stores it: a value
// beyond [lo, hi] is wrapped into it.
FJ_HD FJ_INLINE float wrap_cyclic(float v, float lo, float hi) {
    if (v > hi) return lo + modulo(v - lo, hi - lo);
    if (v < lo) return hi - modulo(hi - v, hi - lo);
    return v;
}

// A Fractorium parameter of integer type, as its setter stores it: rounded
// (halves up) and clamped to [lo, hi]; a NaN becomes lo.
FJ_HD FJ_INLINE float integer_param(float v, float lo, float hi) {
    return fminf(fmaxf(floorf(v + 0.5f), lo), hi);
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

// What a variation reads of VarIn beyond x, y, r2 and aff
// (VariationInfo::reads, found in its code by the registry).
#define FJ_READS_R 1u       // r
#define FJ_READS_THETA 2u   // theta
#define FJ_READS_PHI 4u     // phi
#define FJ_READS_RATIOS 8u  // sina, cosa (and r, which they divide by)
#define FJ_READS_ALL (FJ_READS_R | FJ_READS_THETA | FJ_READS_PHI | FJ_READS_RATIOS)

// make_var_in with only the fields in `reads` computed, the others 0: for
// code that makes one VarIn for several xforms, each reading other fields
// (the stitcher's FJ_SHARED_PROLOGUE), so that an xform pays only for its own.
// Written out beside make_var_in rather than under it: make_var_in as
// make_var_in_reading(..., FJ_READS_ALL) gives the same values but other
// SASS in some kernels (expensive8's), whose speed was measured as it is.
FJ_HD FJ_INLINE VarIn make_var_in_reading(float x, float y, const Affine* aff, unsigned reads) {
    VarIn in;
    in.x = x;
    in.y = y;
    in.r2 = x * x + y * y;
    in.r = reads & (FJ_READS_R | FJ_READS_RATIOS) ? sqrtf(in.r2) : 0.0f;
    in.theta = reads & FJ_READS_THETA ? arctan2(x, y) : 0.0f;
    in.phi = reads & FJ_READS_PHI ? arctan2(y, x) : 0.0f;
    in.sina = reads & FJ_READS_RATIOS ? x / in.r : 0.0f;
    in.cosa = reads & FJ_READS_RATIOS ? y / in.r : 0.0f;
    in.aff = aff;
    return in;
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
