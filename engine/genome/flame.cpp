// flamejit — the genome model's derived quantities.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flame.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <string_view>

#include "errors.h"

namespace fj {

const char* mode_prefix(VariationMode mode) {
    switch (mode) {
        case VariationMode::Regular: return "";
        case VariationMode::Pre: return "pre_";
        case VariationMode::Post: return "post_";
    }
    return "";
}

size_t slot_position(const std::vector<VariationSlot>& slots, VariationSlot s) {
    size_t at = 0;
    while (at < slots.size() && slots[at].mode == VariationMode::Pre) ++at;
    if (s.mode == VariationMode::Pre) return at;
    if (s.mode == VariationMode::Post) return slots.size();
    while (at < slots.size() && slots[at].mode == VariationMode::Regular && slots[at].id < s.id) ++at;
    return at;
}

void add_slot(std::vector<VariationSlot>& slots, VariationSlot s) {
    if (std::find(slots.begin(), slots.end(), s) == slots.end())
        slots.insert(slots.begin() + static_cast<std::ptrdiff_t>(slot_position(slots, s)), s);
}

Xform Motion::zero_amplitudes() {
    Xform xf;
    xf.color_speed = 0;
    xf.opacity = 0;
    xf.animate = 0;
    xf.direct_color = 0;
    xf.affine = AffineD{0, 0, 0, 0, 0, 0};
    xf.post = AffineD{0, 0, 0, 0, 0, 0};
    return xf;
}

bool ColorCurves::identity() const {
    for (const auto& curve : points)
        for (const Point& p : curve)
            if (p[0] != p[1]) return false;
    return true;
}

bool Flame::has_xaos() const {
    for (const Xform& xf : xforms)
        for (double c : xf.chaos)
            if (c != 1.0) return true;
    return false;
}

double Flame::sample_count() const {
    // zoom enlarges the image by 2^zoom per axis, so flam3 keeps the density
    // per output pixel by scaling the sample count with the area, 4^zoom.
    return quality * std::pow(4.0, zoom) * static_cast<double>(width) * static_cast<double>(height);
}

void check_finite(const Flame& f, const std::string& context) {
    // The message is made only for the value that fails: interpolation
    // checks every time sample of a motion-blurred frame.
    const auto check = [&](double v, std::string_view name, const char* part) {
        if (!std::isfinite(v)) throw InputError(context + ": " + std::string(name) + part + " is not finite");
    };
    const auto check_xform = [&](const Xform& x, std::string_view name) {
        for (double v : {x.weight, x.color, x.color_speed, x.opacity, x.animate, x.direct_color}) check(v, name, "");
        for (const AffineD& m : {x.affine, x.post})
            for (double v : {m.a, m.b, m.c, m.d, m.e, m.f}) check(v, name, " coefs");
        for (const VariationUse& use : x.variations) {
            check(use.weight, name, " variation weight");
            for (double v : use.params) check(v, name, " variation parameter");
        }
        for (double v : x.chaos) check(v, name, " chaos");
    };
    for (double v : {f.center_x, f.center_y, f.scale, f.zoom, f.rotate}) check(v, "the camera", "");
    for (double v : {f.filter_radius, f.quality, f.background[0], f.background[1], f.background[2], f.brightness,
                     f.gamma, f.gamma_threshold, f.vibrancy, f.highlight_power, f.estimator_radius,
                     f.estimator_minimum, f.estimator_curve, f.hue, f.hsv_rgb_palette_blend,
                     f.temporal_filter_width, f.temporal_filter_exp})
        check(v, "a <flame> setting", "");
    for (const RGBA& c : f.palette)
        for (double v : {c.r, c.g, c.b, c.a}) check(v, "the palette", "");
    for (size_t i = 0; i < f.xforms.size(); ++i) check_xform(f.xforms[i], "<xform " + std::to_string(i) + ">");
    if (f.has_final) check_xform(f.final_xform, "<finalxform>");
}

}  // namespace fj
