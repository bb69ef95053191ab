// flamejit — one kernel structure for all time samples of a frame.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/frame_structure.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "codegen/param_layout.h"
#include "genome/xform_align.h"

namespace fj {
namespace {

// The smallest double above 1: a structural marker that every float
// conversion turns back into 1.0f.
const double kOneMarker = std::nextafter(1.0, 2.0);

void merge(SlotShape& into, const Xform& xf) {
    for (const auto& v : xf.variations) add_slot(into.variations, v.slot());
    into.post = into.post || !xf.post.is_identity();
}

// The xform's uses in the structure's order: samples from two segments may
// list the same Pre or Post uses in different orders (the kernel applies the
// structure's).
void conform_xform(Xform& xf, const SlotShape& shape) {
    for (VariationSlot s : shape.variations) ensure_variation(xf, s.id, s.mode);
    std::vector<VariationUse> ordered;
    for (VariationSlot s : shape.variations) ordered.push_back(*find_variation(xf, s.id, s.mode));
    xf.variations = std::move(ordered);
    if (shape.post && xf.post.is_identity()) xf.post.a = kOneMarker;
}

void mark_xaos(Flame& flame) {
    auto& row = flame.xforms[0].chaos;
    if (row.empty()) row.assign(flame.xforms.size(), 1.0);
    row[0] = kOneMarker;
}

}  // namespace

FrameStructure union_structure(const std::vector<const Flame*>& flames, PaletteMode palette_mode) {
    FrameStructure s;
    s.palette_mode = palette_mode;
    for (const Flame* f : flames) {
        if (f->xforms.size() > s.xforms.size()) s.xforms.resize(f->xforms.size());
        for (size_t i = 0; i < f->xforms.size(); ++i) merge(s.xforms[i], f->xforms[i]);
        if (f->has_final) {
            s.has_final = true;
            merge(s.final_xform, f->final_xform);
        }
        s.xaos = s.xaos || f->has_xaos();
    }
    return s;
}

Flame conform(const Flame& flame, const FrameStructure& s) {
    if (flame.xforms.size() > s.xforms.size())
        throw std::logic_error("conform: the flame has more xforms than the frame structure");
    Flame out = flame;
    out.palette_mode = s.palette_mode;
    while (out.xforms.size() < s.xforms.size()) {
        Xform pad;
        pad.weight = 0;
        out.xforms.push_back(pad);
    }
    for (size_t i = 0; i < s.xforms.size(); ++i) conform_xform(out.xforms[i], s.xforms[i]);
    if (s.has_final) {
        if (!out.has_final) {
            out.has_final = true;
            out.final_xform = Xform{};
            out.final_xform.opacity = 0;
        }
        conform_xform(out.final_xform, s.final_xform);
    }
    if (s.xaos && !out.has_xaos()) mark_xaos(out);
    return out;
}

Flame spread_rare_xforms(const Flame& flame) {
    Flame out = flame;
    if (!out.has_xaos() && has_rare_xform(out)) mark_xaos(out);
    return out;
}

bool segment_has_rare_xform(const std::vector<Flame>& keyframes, int segment) {
    const size_t i = static_cast<size_t>(segment);
    return has_rare_xform(keyframes[i]) || (i + 1 < keyframes.size() && has_rare_xform(keyframes[i + 1]));
}

double ring_idle_share(const Flame& flame) {
    const Flame drawn = spread_rare_xforms(flame);
    if (!drawn.has_xaos()) return 0;
    try {
        return 1 - 1 / xaos_proposal_mass(drawn);
    } catch (const std::runtime_error&) {
        return 0;
    }
}

KernelOptions frame_kernel_options(const std::vector<const Flame*>& flames, const KernelOptions& options) {
    KernelOptions out = options;
    if (!options.sort_idle_frames || options.shuffle != Shuffle::Ring || options.form == KernelForm::Switch) return out;
    size_t xforms = 0;
    for (const Flame* f : flames) xforms = std::max(xforms, f->xforms.size());
    if (xforms > static_cast<size_t>(kMaxXforms) ||
        sorted_shared_bytes(static_cast<int>(xforms), options.block_size) > kMaxStaticShared)
        return out;
    if (std::any_of(flames.begin(), flames.end(), [](const Flame* f) { return ring_idle_share(*f) >= kSortFromIdle; }))
        out.shuffle = Shuffle::Sorted;
    return out;
}

}  // namespace fj
