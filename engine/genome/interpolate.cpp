// flamejit — a sequence of control points evaluated at any time, as flam3 does.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/interpolate.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "errors.h"
#include "genome/palette_library.h"
#include "genome/xform_align.h"

namespace fj {
namespace {

// flam3's EPS: a half-turn difference counts as clockwise.
constexpr double kEps = 1e-10;

// The weighted sums of flam3's INTERP/INTERI, accumulated in the same order
// from 0 so results agree to the last bit where the libm does.
struct Weights {
    const double* c;
    int n;
    template <typename F>
    double sum(F value) const {
        double r = 0.0;
        for (int k = 0; k < n; ++k) r += c[k] * value(k);
        return r;
    }
    template <typename F>
    int rounded(F value) const {
        return static_cast<int>(std::rint(sum(value)));
    }
};

VariationUse default_use(VariationSlot slot) {
    Xform scratch;
    return ensure_variation(scratch, slot.id, slot.mode);
}

double clamp01(double v) { return v < 0 ? 0 : (v > 1 ? 1 : v); }

// Log-polar blend of one affine per flame (flam3 convert_linear_to_polar and
// interp_and_convert_back): column 0 is the image of the x axis (a, d),
// column 1 of the y axis (b, e). `reference`, for two flames, holds the
// second flame's reference angle per column (ReferenceAngles).
AffineD blend_affine_log(const std::vector<const AffineD*>& m, const Weights& w, const std::array<double, 2>* reference) {
    const int n = w.n;
    double ang[4][2], mag[4][2], trn[4][2];
    for (int k = 0; k < n; ++k) {
        const double col[2][2] = {{m[k]->a, m[k]->d}, {m[k]->b, m[k]->e}};
        const double t[2] = {m[k]->c, m[k]->f};
        bool zero[2];
        for (int c = 0; c < 2; ++c) {
            ang[k][c] = std::atan2(col[c][1], col[c][0]);
            mag[k][c] = std::sqrt(col[c][0] * col[c][0] + col[c][1] * col[c][1]);
            zero[c] = mag[k][c] == 0.0;
            trn[k][c] = t[c];
        }
        // A zero-length column has no angle of its own: it borrows the other's.
        if (zero[0] && !zero[1]) ang[k][0] = ang[k][1];
        else if (!zero[0] && zero[1]) ang[k][1] = ang[k][0];
    }
    // Each angle within half a turn of the previous flame's, the short way;
    // or, where a reference angle is given, both angles of the pair within
    // the turn that ends there.
    for (int c = 0; c < 2; ++c)
        for (int k = 1; k < n; ++k) {
            if (reference && (*reference)[c] > 0) {
                const double low = (*reference)[c] - 2 * M_PI;
                for (double* a : {&ang[k - 1][c], &ang[k][c]}) {
                    while (*a < low) *a += 2 * M_PI;
                    while (*a > low + 2 * M_PI) *a -= 2 * M_PI;
                }
                continue;
            }
            const double d = ang[k][c] - ang[k - 1][c];
            if (d > M_PI + kEps) ang[k][c] -= 2 * M_PI;
            else if (d < -(M_PI - kEps)) ang[k][c] += 2 * M_PI;
        }
    AffineD out;
    double col_out[2][2];
    double t_out[2];
    for (int c = 0; c < 2; ++c) {
        // Geometric blending of a vanishing magnitude would stay near zero
        // for the whole segment, so then magnitudes blend linearly.
        bool linear = false;
        for (int k = 0; k < n; ++k) linear = linear || std::log(mag[k][c]) < -10;
        const double a = w.sum([&](int k) { return ang[k][c]; });
        const double r = linear ? w.sum([&](int k) { return mag[k][c]; })
                                : std::exp(w.sum([&](int k) { return std::log(mag[k][c]); }));
        t_out[c] = w.sum([&](int k) { return trn[k][c]; });
        col_out[c][0] = r * std::cos(a);
        col_out[c][1] = r * std::sin(a);
    }
    out.a = col_out[0][0];
    out.d = col_out[0][1];
    out.b = col_out[1][0];
    out.e = col_out[1][1];
    out.c = t_out[0];
    out.f = t_out[1];
    return out;
}

AffineD blend_affine_linear(const std::vector<const AffineD*>& m, const Weights& w) {
    AffineD out;
    out.a = w.sum([&](int k) { return m[k]->a; });
    out.b = w.sum([&](int k) { return m[k]->b; });
    out.c = w.sum([&](int k) { return m[k]->c; });
    out.d = w.sum([&](int k) { return m[k]->d; });
    out.e = w.sum([&](int k) { return m[k]->e; });
    out.f = w.sum([&](int k) { return m[k]->f; });
    return out;
}

void blend_palette(const std::vector<Flame>& cp, const Weights& w, Flame& out) {
    const PaletteInterpolation mode = cp[0].palette_interpolation;
    if (mode == PaletteInterpolation::Sweep) {
        // Entry by entry from the first or the second flame, a wipe.
        for (int i = 0; i < 256; ++i) out.palette[i] = cp[i < 256 * w.c[0] ? 0 : 1].palette[i];
        return;
    }
    const double rgb_fraction = mode == PaletteInterpolation::Rgb           ? 1.0
                                : mode == PaletteInterpolation::HsvCircular ? cp[0].hsv_rgb_palette_blend
                                                                            : 0.0;
    for (int i = 0; i < 256; ++i) {
        double rgb[3] = {0, 0, 0}, hsv[3] = {0, 0, 0}, alpha = 0;
        bool opaque = true;
        for (int k = 0; k < w.n; ++k) {
            const RGBA& e = cp[k].palette[i];
            HSV h = rgb_to_hsv(e.r, e.g, e.b);
            if (w.n == 2 && k == 0 && mode == PaletteInterpolation::HsvCircular) {
                const RGBA& o = cp[1].palette[i];
                const double other = rgb_to_hsv(o.r, o.g, o.b).h;
                if (other - h.h > 3.0) h.h += 6.0;
                else if (other - h.h < -3.0) h.h -= 6.0;
            }
            const double c = w.c[k];
            rgb[0] += c * e.r;
            rgb[1] += c * e.g;
            rgb[2] += c * e.b;
            hsv[0] += c * h.h;
            hsv[1] += c * h.s;
            hsv[2] += c * h.v;
            alpha += c * e.a;
            if (e.a != 1.0) opaque = false;
        }
        double back[3];
        hsv_to_rgb({hsv[0], hsv[1], hsv[2]}, &back[0], &back[1], &back[2]);
        RGBA& r = out.palette[i];
        r.r = clamp01(rgb_fraction * rgb[0] + (1.0 - rgb_fraction) * back[0]);
        r.g = clamp01(rgb_fraction * rgb[1] + (1.0 - rgb_fraction) * back[1]);
        r.b = clamp01(rgb_fraction * rgb[2] + (1.0 - rgb_fraction) * back[2]);
        r.a = clamp01(opaque ? 1.0 : alpha);
    }
}

Xform blend_xform(const std::vector<const Xform*>& x, const Weights& w, AffineInterpolation mode,
                  const std::array<double, 2>* reference) {
    Xform out;
    out.weight = std::max(0.0, w.sum([&](int k) { return x[k]->weight; }));
    out.color = clamp01(w.sum([&](int k) { return x[k]->color; }));
    out.color_speed = clamp01(w.sum([&](int k) { return x[k]->color_speed; }));
    out.opacity = w.sum([&](int k) { return x[k]->opacity; });
    out.animate = w.sum([&](int k) { return x[k]->animate; });
    out.direct_color = clamp01(w.sum([&](int k) { return x[k]->direct_color; }));

    // Variations used anywhere in the segment, in xform order (Pre and Post
    // uses in the order of the segment's first flame that has them, so the
    // segment keeps one kernel key); an xform that lacks one has weight 0 and
    // the registry defaults, as in flam3's arrays.
    std::vector<VariationSlot> used;
    for (int k = 0; k < w.n; ++k)
        for (const auto& v : x[k]->variations)
            if (v.weight != 0) add_slot(used, v.slot());
    for (VariationSlot slot : used) {
        const VariationUse absent = default_use(slot);
        std::vector<const VariationUse*> u(w.n);
        for (int k = 0; k < w.n; ++k) {
            u[k] = find_variation(*x[k], slot.id, slot.mode);
            if (!u[k]) u[k] = &absent;
        }
        VariationUse v;
        v.id = slot.id;
        v.mode = slot.mode;
        v.weight = w.sum([&](int k) { return u[k]->weight; });
        v.params.resize(u[0]->params.size());
        for (size_t p = 0; p < v.params.size(); ++p) v.params[p] = w.sum([&](int k) { return u[k]->params[p]; });
        out.variations.push_back(std::move(v));
    }

    std::vector<const AffineD*> pre(w.n), post(w.n);
    bool all_identity = true;
    for (int k = 0; k < w.n; ++k) {
        pre[k] = &x[k]->affine;
        post[k] = &x[k]->post;
        all_identity = all_identity && x[k]->post.is_identity();
    }
    const bool log = mode == AffineInterpolation::Log;
    out.affine = log ? blend_affine_log(pre, w, reference) : blend_affine_linear(pre, w);
    out.post = all_identity ? AffineD{} : (log ? blend_affine_log(post, w, nullptr) : blend_affine_linear(post, w));
    return out;
}

// flam3's get_stagger_coef: the first flame's share for standard xform i of
// n at the segment's first-flame share t. The xforms' changes start one
// after another, the last xform's first, each smoothed over its own window.
// (With one xform flam3 divides 0 by 0 and blends to NaN; here it changes
// over the whole segment, smoothed.)
double stagger_share(double t, double stagger, int n, int i) {
    const double spread = stagger * (n - 1) / n;  // from the first start to the last
    const double start = n > 1 ? spread * (n - 1 - i) / (n - 1) : 0.0;
    const double end = start + (1 - spread);
    if (t <= start) return 0;
    if (t >= end) return 1;
    return smoothstep((t - start) / (1 - spread));
}

// flam3_interpolate_n over aligned flames.
Flame blend(const std::vector<Flame>& cp, const Weights& w, double stagger, const ReferenceAngles* reference) {
    const Flame& f0 = cp[0];
    Flame out;
    out.name = f0.name;
    blend_palette(cp, w, out);
    out.palette_index = -1;
    out.symmetry = 0;
    out.filter_shape = f0.filter_shape;
    out.temporal_filter_type = f0.temporal_filter_type;
    out.palette_mode = f0.palette_mode;
    out.interpolation = Interpolation::Linear;
    out.interpolation_type = f0.interpolation_type;
    out.palette_interpolation = f0.palette_interpolation;
    out.hsv_rgb_palette_blend = f0.hsv_rgb_palette_blend;
#define FJ_BLEND(field) out.field = w.sum([&](int k) { return cp[k].field; })
#define FJ_BLEND_INT(field) out.field = w.rounded([&](int k) { return cp[k].field; })
    FJ_BLEND(brightness);
    FJ_BLEND(highlight_power);
    FJ_BLEND(gamma);
    FJ_BLEND(vibrancy);
    FJ_BLEND(hue);
    FJ_BLEND_INT(width);
    FJ_BLEND_INT(height);
    FJ_BLEND_INT(supersample);
    FJ_BLEND(center_x);
    FJ_BLEND(center_y);
    FJ_BLEND(background[0]);
    FJ_BLEND(background[1]);
    FJ_BLEND(background[2]);
    FJ_BLEND(scale);
    FJ_BLEND(filter_radius);
    FJ_BLEND(temporal_filter_exp);
    FJ_BLEND(temporal_filter_width);
    FJ_BLEND(quality);
    FJ_BLEND(zoom);
    FJ_BLEND(rotate);
    FJ_BLEND_INT(passes);
    FJ_BLEND_INT(temporal_samples);
    FJ_BLEND(estimator_radius);
    FJ_BLEND(estimator_minimum);
    FJ_BLEND(estimator_curve);
    FJ_BLEND(gamma_threshold);
#undef FJ_BLEND
#undef FJ_BLEND_INT
    // Colour curves point by point where every keyframe's curves have the
    // same numbers of points (Fractorium's own keyframes do), else the first's.
    out.curves = f0.curves;
    bool same_shape = true;
    for (int k = 1; k < w.n; ++k)
        for (int c = 0; c < 4; ++c) same_shape &= cp[k].curves.points[c].size() == f0.curves.points[c].size();
    if (same_shape)
        for (int c = 0; c < 4; ++c)
            for (size_t i = 0; i < f0.curves.points[c].size(); ++i)
                for (int xy = 0; xy < 2; ++xy)
                    out.curves.points[c][i][xy] = w.sum([&](int k) { return cp[k].curves.points[c][i][xy]; });

    const size_t n = f0.xforms.size();
    std::vector<const Xform*> x(w.n);
    for (size_t i = 0; i < n; ++i) {
        for (int k = 0; k < w.n; ++k) x[k] = &cp[k].xforms[i];
        double staggered[2];
        Weights wx = w;
        if (w.n == 2 && stagger > 0) {
            staggered[0] = stagger_share(w.c[0], stagger, static_cast<int>(n), static_cast<int>(i));
            staggered[1] = 1.0 - staggered[0];
            wx.c = staggered;
        }
        Xform xf = blend_xform(x, wx, f0.interpolation_type, reference ? &(*reference)[i] : nullptr);
        xf.chaos.resize(n);
        for (size_t j = 0; j < n; ++j)
            xf.chaos[j] = std::max(0.0, w.sum([&](int k) { return cp[k].xforms[i].chaos[j]; }));
        out.xforms.push_back(std::move(xf));
    }
    out.has_final = f0.has_final;
    if (out.has_final) {
        for (int k = 0; k < w.n; ++k) x[k] = &cp[k].final_xform;
        out.final_xform = blend_xform(x, w, f0.interpolation_type, nullptr);
    }
    return out;
}

}  // namespace

void catmull_rom_weights(double t, double out[4]) {
    const double t2 = t * t, t3 = t2 * t;
    out[0] = (2 * t2 - t - t3) / 2;
    out[1] = (3 * t3 - 5 * t2 + 2) / 2;
    out[2] = (4 * t2 - 3 * t3 + t) / 2;
    out[3] = (t3 - t2) / 2;
}

double smoothstep(double t) { return 3 * t * t - 2 * t * t * t; }

int keyframe_segment(const std::vector<Flame>& keyframes, double time) {
    const int n = static_cast<int>(keyframes.size());
    if (n < 2 || keyframes[0].time >= time) return 0;
    if (keyframes[n - 1].time <= time) return n - 2;
    int i = 0;
    while (keyframes[i + 1].time < time) ++i;
    return i;
}

Flame interpolate(const std::vector<Flame>& keyframes, double time, double stagger, const ReferenceAngles* reference) {
    const int n = static_cast<int>(keyframes.size());
    if (n == 1) return keyframes[0];
    const int i1 = keyframe_segment(keyframes, time);
    const int i2 = i1 + 1;
    double c[4];
    c[0] = (keyframes[i2].time - time) / (keyframes[i2].time - keyframes[i1].time);
    c[1] = 1.0 - c[0];

    const bool smooth = keyframes[i1].interpolation == Interpolation::Smooth && i1 > 0 && i2 < n - 1;
    Flame out;
    if (!smooth) {
        const std::vector<Flame> cp = align_control_points(&keyframes[i1], 2);
        out = blend(cp, {c, 2}, stagger, reference);
    } else {
        const std::vector<Flame> cp = align_control_points(&keyframes[i1 - 1], 4);
        double cr[4];
        catmull_rom_weights(c[1], cr);
        out = blend(cp, {cr, 4}, 0, nullptr);
    }
    out.time = time;
    char at[48];
    std::snprintf(at, sizeof at, "interpolated at time %g", time);
    check_finite(out, at);
    return out;
}

}  // namespace fj
