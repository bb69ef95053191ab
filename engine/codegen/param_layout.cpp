// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/param_layout.h"

#include <cmath>
#include <stdexcept>

namespace fj {
namespace {

XformLayout layout_xform(const XformShape& shape, const VariationRegistry& registry, int base) {
    XformLayout x;
    x.base = base;
    int offset = XformLayout::kVariations;
    for (int id : shape.variations) {
        const VariationInfo* info = registry.by_id(id);
        if (!info) throw std::runtime_error("no snippet for variation id " + std::to_string(id));
        x.weight_offset.push_back(offset);
        x.param_offset.push_back(offset + 1);
        offset += 1 + static_cast<int>(info->params.size());
    }
    x.size = offset;
    return x;
}

void put_affine(float* out, const AffineD& m) {
    out[0] = static_cast<float>(m.a);
    out[1] = static_cast<float>(m.b);
    out[2] = static_cast<float>(m.c);
    out[3] = static_cast<float>(m.d);
    out[4] = static_cast<float>(m.e);
    out[5] = static_cast<float>(m.f);
}

// flam3 stores visibility as opacity^log2(10) (interpolation.c adjust_percentage).
double visibility(double opacity) {
    return opacity <= 0 ? 0.0 : std::pow(opacity, std::log2(10.0));
}

void pack_xform(const Xform& xf, const XformLayout& x, float* block, bool final_xform) {
    float* r = block + x.base;
    put_affine(r + XformLayout::kAffine, xf.affine);
    put_affine(r + XformLayout::kPost, xf.post);
    r[XformLayout::kColor] = static_cast<float>(xf.color);
    r[XformLayout::kColorSpeed] = static_cast<float>(xf.color_speed);
    r[XformLayout::kVisibility] = static_cast<float>(final_xform ? xf.opacity : visibility(xf.opacity));
    for (size_t v = 0; v < xf.variations.size(); ++v) {
        r[x.weight_offset[v]] = static_cast<float>(xf.variations[v].weight);
        for (size_t p = 0; p < xf.variations[v].params.size(); ++p)
            r[x.param_offset[v] + p] = static_cast<float>(xf.variations[v].params[p]);
    }
}

// One row of cumulative, normalised selection weights; the last entry is 1
// exactly so a uniform draw in [0,1) always selects some xform.
void pack_select_row(const std::vector<double>& weights, float* out, int row) {
    double total = 0;
    for (double w : weights) {
        if (w < 0) throw std::runtime_error("negative xform weight (or weight × chaos) in row " + std::to_string(row));
        total += w;
    }
    if (!(total > 0)) throw std::runtime_error("cannot iterate: all xform weights are zero in selection row " + std::to_string(row));
    double sum = 0;
    for (size_t i = 0; i < weights.size(); ++i) {
        sum += weights[i];
        out[i] = static_cast<float>(sum / total);
    }
    out[weights.size() - 1] = 1.0f;
}

}  // namespace

ParamLayout make_param_layout(const KernelKey& key, const VariationRegistry& registry) {
    ParamLayout layout;
    const int n = static_cast<int>(key.xforms.size());
    layout.xform_count = n;
    layout.select = 6;
    layout.select_rows = key.xaos ? n + 1 : 1;
    layout.palette = layout.select + n * layout.select_rows;
    int offset = layout.palette + 256 * 4;
    for (const auto& shape : key.xforms) {
        layout.xforms.push_back(layout_xform(shape, registry, offset));
        offset += layout.xforms.back().size;
    }
    if (key.has_final) {
        layout.final_xform = layout_xform(key.final_xform, registry, offset);
        offset += layout.final_xform.size;
    }
    layout.total = offset;
    return layout;
}

std::vector<float> pack_params(const Flame& flame, const KernelKey& key, const ParamLayout& layout,
                               const double world_to_cell[6]) {
    if (make_kernel_key(flame, {key.shuffle, key.block_size, key.arch}) != key)
        throw std::logic_error("pack_params: flame does not have the kernel key's structure");
    std::vector<float> block(layout.total, 0.0f);
    for (int i = 0; i < 6; ++i) block[ParamLayout::kCamera + i] = static_cast<float>(world_to_cell[i]);

    const int n = layout.xform_count;
    std::vector<double> weights(n);
    for (int j = 0; j < n; ++j) weights[j] = flame.xforms[j].weight;
    pack_select_row(weights, block.data() + layout.select, 0);
    if (key.xaos) {
        for (int i = 0; i < n; ++i) {
            const auto& chaos = flame.xforms[i].chaos;
            std::vector<double> row(n);
            for (int j = 0; j < n; ++j)
                row[j] = weights[j] * (j < static_cast<int>(chaos.size()) ? chaos[j] : 1.0);
            pack_select_row(row, block.data() + layout.select + (i + 1) * n, i + 1);
        }
    }
    for (int c = 0; c < 256; ++c) {
        const RGBA& e = flame.palette[c];
        float* out = block.data() + layout.palette + 4 * c;
        // Scaled by 255 here so each hit adds visibility × entry (flam3's dmap).
        out[0] = static_cast<float>(e.r * 255.0);
        out[1] = static_cast<float>(e.g * 255.0);
        out[2] = static_cast<float>(e.b * 255.0);
        out[3] = static_cast<float>(e.a * 255.0);
    }
    for (int i = 0; i < n; ++i) pack_xform(flame.xforms[i], layout.xforms[i], block.data(), false);
    if (key.has_final) pack_xform(flame.final_xform, layout.final_xform, block.data(), true);
    return block;
}

}  // namespace fj
