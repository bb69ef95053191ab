// flamejit — tone mapping of one filtered pixel: gamma, vibrancy, highlight power, background.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 3.1.1 semantics (palettes.c flam3_calc_alpha / flam3_calc_newrgb and
// the tail of render_rectangle), reference/flam3-behaviour.md §3.10. Compiled
// by the host compiler (CPU post-pass, tests) and by nvcc (GPU post-pass), so
// both backends tone-map with one formula: in double on the CPU, as flam3
// does, in float on the GPU.
//
// The order of operations is that of the libflam3 build the reference
// renders come from (Debian 3.1.1, -ffast-math: x/255 became x·(1/255), the
// HSV conversions were regrouped). It matters where highlight power pins the
// brightest channel at 255: flam3's double arithmetic lands on 254.99999…
// for about two thirds of such pixels, which then truncate to 254.
#pragma once

#include "fj_device.h"

namespace fj {

// Everything tone mapping reads, already in the units the formulas use.
template <typename R>
struct ToneParamsT {
    R inv_gamma;        // 1 / gamma
    R lin_threshold;    // gamma_threshold: below it the curve is linearised
    R vibrancy;
    R highlight_power;  // < 0: legacy clipping
    R background[3];    // flam3 background · 256
    int transparent;    // 1: colours divided by alpha instead of blended on bg
    // Fractorium's colour curves (post/color_curves.h), where this tone
    // mapping ends in the image: the table, or null for none.
    const float* curves;
};
typedef ToneParamsT<float> ToneParams;

// flam3's "white level": accumulator colours are on a 0..255 scale.
#define FJ_PREFILTER_WHITE 255.0f

FJ_HD FJ_INLINE float tone_pow(float x, float y) { return powf(x, y); }
FJ_HD FJ_INLINE double tone_pow(double x, double y) { return pow(x, y); }
FJ_HD FJ_INLINE float tone_floor(float x) { return floorf(x); }
FJ_HD FJ_INLINE double tone_floor(double x) { return floor(x); }

// Opacity from a normalised density (accumulated alpha / 255). Below the
// threshold flam3 blends a straight line into the power curve, so that faint
// areas keep a finite slope instead of the infinite one of d^(1/gamma) at 0.
template <typename R>
FJ_HD FJ_INLINE R tone_alpha(R density, R inv_gamma, R lin) {
    if (!(density > R(0))) return R(0);
    if (density < lin) {
        const R frac = density / lin;
        return (R(1) - frac) * density * (tone_pow(lin, inv_gamma) / lin) + frac * tone_pow(density, inv_gamma);
    }
    return tone_pow(density, inv_gamma);
}

// HSV with h in [0, 6), s and v in [0, 1] (flam3's convention).
template <typename R>
FJ_HD FJ_INLINE void tone_rgb_to_hsv(const R rgb[3], R hsv[3]) {
    const R r = rgb[0], g = rgb[1], b = rgb[2];
    const R mx = r >= g ? (r > b ? r : b) : (g > b ? g : b);
    const R mn = r >= g ? (g < b ? g : b) : (r < b ? r : b);
    hsv[0] = R(0);
    hsv[1] = R(0);
    hsv[2] = mx;
    if (mx == R(0)) return;
    const R del = mx - mn;
    const R s = del / mx;
    hsv[1] = s;
    if (s == R(0)) return;
    R h;
    if (r == mx)
        h = (g - b) / del;
    else if (g == mx)
        h = (b - r) / del + R(2);
    else
        h = (r - g) / del + R(4);
    if (h < R(0)) h += R(6);
    hsv[0] = h;
}

template <typename R>
FJ_HD FJ_INLINE void tone_hsv_to_rgb(const R hsv[3], R rgb[3]) {
    R h = hsv[0];
    const R s = hsv[1], v = hsv[2];
    while (h >= R(6)) h -= R(6);
    while (h < R(0)) h += R(6);
    const int j = (int)tone_floor(h);
    const R f = h - (R)j;
    const R p = (R(1) - s) * v, q = (R(1) - s * f) * v, t = ((f - R(1)) * s + R(1)) * v;
    R r, g, b;
    switch (j) {
        case 1: r = q; g = v; b = p; break;
        case 2: r = p; g = v; b = t; break;
        case 3: r = p; g = q; b = v; break;
        case 4: r = t; g = p; b = v; break;
        case 5: r = v; g = p; b = q; break;
        default: r = v; g = t; b = p; break;
    }
    rgb[0] = r;
    rgb[1] = g;
    rgb[2] = b;
}

// Scales a filtered colour by `ls`. When the brightest channel would pass 255
// and highlight_power ≥ 0, the colour is instead scaled to exactly 255 and
// desaturated by (255/(ls·max))^hp, which keeps the hue of bright cores.
template <typename R>
FJ_HD FJ_INLINE void tone_scale_rgb(const R c[3], R ls, R hp, R out[3]) {
    if (ls == R(0) || (c[0] == R(0) && c[1] == R(0) && c[2] == R(0))) {
        out[0] = out[1] = out[2] = R(0);
        return;
    }
    const R inv_white = R(1) / R(255);
    const R ls_white = ls * inv_white;
    R maxa = R(-1), maxc = R(0);
    for (int i = 0; i < 3; ++i) {
        const R a = c[i] * ls_white;
        if (a > maxa) {
            maxa = a;
            maxc = c[i] * inv_white;
        }
    }
    const R newls = R(255) / maxc;
    if (maxa > R(255) && hp >= R(0)) {
        const R ratio = tone_pow(newls / ls, hp);
        // flam3's two divisions by 255 became one product with (1/255)², the
        // square of the rounded reciprocal, not the rounded 1/65025.
        const R k = newls * (inv_white * inv_white);
        R base[3], hsv[3];
        for (int i = 0; i < 3; ++i) base[i] = c[i] * k;
        tone_rgb_to_hsv(base, hsv);
        hsv[1] = ratio * hsv[1];
        tone_hsv_to_rgb(hsv, out);
        for (int i = 0; i < 3; ++i) out[i] *= R(255);
        return;
    }
    // Blend between "scale to 255" and plain ls; hp = -1 (or no clipping) is
    // plain ls. Skipping the blend when its weight is 1 avoids 0·inf when the
    // colour has no positive channel.
    R scale = ls_white;
    if (maxa > R(255)) {
        const R w = hp < R(-1) ? R(1) : -hp;
        scale = ((R(1) - w) * newls + w * ls) * inv_white;
    }
    for (int i = 0; i < 3; ++i) out[i] = c[i] * scale;
}

// Entries per curve of the colour curves' table (post/color_curves.h).
#define FJ_CURVE_ENTRIES 65536

// One colour channel a (flam3's scale, 256 = white) through Fractorium's colour
// curves: its overall curve, then channel c's (0 red, 1 green, 2 blue), by
// the lookups of post/color_curves.h.
template <typename R>
FJ_HD FJ_INLINE R curve_channel(const float* table, int c, R a) {
    const int top = FJ_CURVE_ENTRIES - 1;
    const R last = R(top);
    const R v = a / R(256) * last;
    const int i = v > R(0) ? (v < last ? (int)v : top) : 0;
    const R u = R(table[4 * i]) * last;
    const int j = u > R(0) ? (u < last ? (int)u : top) : 0;
    return R(table[4 * j + 1 + c]) * R(256);
}

// One output pixel from the filtered accumulator value t (RGBA, 0..255·k1
// scale): colour 0..255 (not yet truncated) and alpha 0..1.
template <typename R>
FJ_HD FJ_INLINE void tone_pixel(const R t[4], const ToneParamsT<R>& p, R out[4]) {
    R alpha = R(0), ls = R(0);
    if (t[3] > R(0)) {
        const R d = t[3] / R(255);
        alpha = tone_alpha(d, p.inv_gamma, p.lin_threshold);
        ls = p.vibrancy * R(256) * alpha / d;
        alpha = alpha < R(0) ? R(0) : (alpha > R(1) ? R(1) : alpha);
    }
    R rgb[3];
    tone_scale_rgb(t, ls, p.highlight_power, rgb);
    for (int i = 0; i < 3; ++i) {
        R a = rgb[i];
        // The non-vibrant part: each channel gamma-corrected on its own.
        // flam3 adds it even when vibrancy is 1, so a channel that a filter's
        // negative lobes left below 0 makes the sum NaN (0·NaN) whenever
        // 1/gamma is not an integer. flam3's clamps, compiled as min/max
        // instructions, turn that NaN into 255: such pixels come out white
        // (unless transparency zeroes them first). We reproduce the result,
        // not the NaN. (A negative base to a non-integer power is the NaN
        // case; testing that instead of the NaN keeps fast-math builds honest.)
        bool lost = false;
        if (t[i] < R(0)) {
            lost = p.inv_gamma != tone_floor(p.inv_gamma);
            if (!lost) a += (R(1) - p.vibrancy) * R(256) * tone_pow(t[i] / R(255), p.inv_gamma);
        } else if (p.vibrancy != R(1)) {
            a += (R(1) - p.vibrancy) * R(256) * tone_pow(t[i] / R(255), p.inv_gamma);
        }
        if (p.transparent) {
            if (!(alpha > R(0))) {
                out[i] = R(0);
                continue;
            }
            a /= alpha;
        } else {
            a += (R(1) - alpha) * p.background[i];
        }
        if (p.curves && !lost) a = curve_channel(p.curves, i, a);
        out[i] = lost ? R(255) : (a > R(255) ? R(255) : (a > R(0) ? a : R(0)));
    }
    out[3] = alpha;
}

// Under early clip the filter runs over tone-mapped cells (colour 0..255,
// alpha 0..1); what it returns is only clamped (flam3 render_rectangle),
// after Fractorium's colour curves when there are any (`curves`, or null:
// the cells were toned without them).
template <typename R>
FJ_HD FJ_INLINE void clip_filtered(const R t[4], const float* curves, R out[4]) {
    for (int i = 0; i < 3; ++i) {
        const R a = curves ? curve_channel(curves, i, t[i]) : t[i];
        out[i] = a > R(255) ? R(255) : (a > R(0) ? a : R(0));
    }
    out[3] = t[3] > R(1) ? R(1) : (t[3] > R(0) ? t[3] : R(0));
}

// A double result as the float just below or at it, so truncating the float
// to a level gives the level truncating the double gives (254.9999999 must
// not become 255.0f).
FJ_HD FJ_INLINE float toward_zero_float(double v) {
    float f = (float)v;
    if (v >= 0.0 ? (double)f > v : (double)f < v) {
#if defined(__CUDA_ARCH__)
        f = nextafterf(f, 0.0f);
#else
        // nextafterf stays a library call on the host (a tenth of the CPU tone
        // step). Floats order like their sign-and-magnitude bits, and f is
        // neither zero nor NaN here, so its bits less one are the float next
        // to it toward zero (the largest finite one for infinity).
        u32 bits;
        __builtin_memcpy(&bits, &f, sizeof bits);
        --bits;
        __builtin_memcpy(&f, &bits, sizeof f);
#endif
    }
    return f;
}

}  // namespace fj
