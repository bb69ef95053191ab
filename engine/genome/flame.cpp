// flamejit — the genome model's derived quantities.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flame.h"

#include <algorithm>
#include <cmath>

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

}  // namespace fj
