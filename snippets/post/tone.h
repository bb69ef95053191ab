// flamejit — tone mapping of one filtered pixel: gamma, vibrancy, highlight power, background.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 3.1.1 semantics (palettes.c flam3_calc_alpha / flam3_calc_newrgb and
// the tail of render_rectangle), reference/flam3-behaviour.md §3.10. Compiled
// by the host compiler (CPU post-pass, tests) and by nvcc (GPU post-pass), so
// both backends tone-map with one formula.
#pragma once

#include "fj_device.h"

namespace fj {

// Everything tone mapping reads, already in the units the formulas use.
struct ToneParams {
    float inv_gamma;        // 1 / gamma
    float lin_threshold;    // gamma_threshold: below it the curve is linearised
    float vibrancy;
    float highlight_power;  // < 0: legacy clipping
    float background[3];    // flam3 background · 256
    int transparent;        // 1: colours divided by alpha instead of blended on bg
};

// flam3's "white level": accumulator colours are on a 0..255 scale.
#define FJ_PREFILTER_WHITE 255.0f

// Opacity from a normalised density (accumulated alpha / 255). Below the
// threshold flam3 blends a straight line into the power curve, so that faint
// areas keep a finite slope instead of the infinite one of d^(1/gamma) at 0.
FJ_HD FJ_INLINE float tone_alpha(float density, float inv_gamma, float lin) {
    if (!(density > 0.0f)) return 0.0f;
    if (density < lin) {
        float frac = density / lin;
        return (1.0f - frac) * density * (powf(lin, inv_gamma) / lin) +
               frac * powf(density, inv_gamma);
    }
    return powf(density, inv_gamma);
}

// HSV with h in [0, 6), s and v in [0, 1] (flam3's convention).
FJ_HD FJ_INLINE void tone_rgb_to_hsv(const float rgb[3], float hsv[3]) {
    float r = rgb[0], g = rgb[1], b = rgb[2];
    float mx = r >= g ? (r >= b ? r : b) : (g >= b ? g : b);
    float mn = r <= g ? (r <= b ? r : b) : (g <= b ? g : b);
    float del = mx - mn;
    float s = mx != 0.0f ? del / mx : 0.0f;
    float h = 0.0f;
    if (s != 0.0f) {
        float rc = (mx - r) / del, gc = (mx - g) / del, bc = (mx - b) / del;
        if (r == mx)
            h = bc - gc;
        else if (g == mx)
            h = 2.0f + rc - bc;
        else
            h = 4.0f + gc - rc;
        if (h < 0.0f) h += 6.0f;
    }
    hsv[0] = h;
    hsv[1] = s;
    hsv[2] = mx;
}

FJ_HD FJ_INLINE void tone_hsv_to_rgb(const float hsv[3], float rgb[3]) {
    float h = hsv[0], s = hsv[1], v = hsv[2];
    while (h >= 6.0f) h -= 6.0f;
    while (h < 0.0f) h += 6.0f;
    int j = (int)floorf(h);
    float f = h - (float)j;
    float p = v * (1.0f - s), q = v * (1.0f - s * f), t = v * (1.0f - s * (1.0f - f));
    float r, g, b;
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
FJ_HD FJ_INLINE void tone_scale_rgb(const float c[3], float ls, float hp, float out[3]) {
    if (ls == 0.0f || (c[0] == 0.0f && c[1] == 0.0f && c[2] == 0.0f)) {
        out[0] = out[1] = out[2] = 0.0f;
        return;
    }
    float maxa = -1.0f, maxc = 0.0f;
    for (int i = 0; i < 3; ++i) {
        float a = ls * (c[i] / FJ_PREFILTER_WHITE);
        if (a > maxa) {
            maxa = a;
            maxc = c[i] / FJ_PREFILTER_WHITE;
        }
    }
    if (maxa > 255.0f && hp >= 0.0f) {
        float newls = 255.0f / maxc;
        float ratio = powf(newls / ls, hp);
        float base[3], hsv[3];
        for (int i = 0; i < 3; ++i) base[i] = newls * (c[i] / FJ_PREFILTER_WHITE) / 255.0f;
        tone_rgb_to_hsv(base, hsv);
        hsv[1] *= ratio;
        tone_hsv_to_rgb(hsv, out);
        for (int i = 0; i < 3; ++i) out[i] *= 255.0f;
        return;
    }
    // Blend between "scale to 255" and plain ls; hp = -1 (or no clipping) is
    // plain ls. Skipping the blend when its weight is 1 avoids 0·inf when the
    // colour has no positive channel.
    float w = maxa <= 255.0f ? 1.0f : (-hp > 1.0f ? 1.0f : -hp);
    float scale = w == 1.0f ? ls : (1.0f - w) * (255.0f / maxc) + w * ls;
    for (int i = 0; i < 3; ++i) out[i] = scale * (c[i] / FJ_PREFILTER_WHITE);
}

// One output pixel from the filtered accumulator value t (RGBA, 0..255·k1
// scale): colour 0..255 (not yet truncated) and alpha 0..1.
FJ_HD FJ_INLINE void tone_pixel(const float t[4], const ToneParams& p, float out[4]) {
    float alpha = 0.0f, ls = 0.0f;
    if (t[3] > 0.0f) {
        float d = t[3] / FJ_PREFILTER_WHITE;
        alpha = tone_alpha(d, p.inv_gamma, p.lin_threshold);
        ls = p.vibrancy * 256.0f * alpha / d;
        alpha = alpha < 0.0f ? 0.0f : (alpha > 1.0f ? 1.0f : alpha);
    }
    float rgb[3];
    tone_scale_rgb(t, ls, p.highlight_power, rgb);
    for (int i = 0; i < 3; ++i) {
        float a = rgb[i];
        // The non-vibrant part: each channel gamma-corrected on its own. flam3
        // evaluates it always and gets NaN for the negative channels a filter
        // with negative lobes can leave (undefined output); we skip it there.
        if (p.vibrancy != 1.0f && t[i] > 0.0f)
            a += (1.0f - p.vibrancy) * 256.0f * powf(t[i] / FJ_PREFILTER_WHITE, p.inv_gamma);
        if (p.transparent)
            a = alpha > 0.0f ? a / alpha : 0.0f;
        else
            a += (1.0f - alpha) * p.background[i];
        out[i] = a > 255.0f ? 255.0f : (a > 0.0f ? a : 0.0f);
    }
    out[3] = alpha;
}

}  // namespace fj
