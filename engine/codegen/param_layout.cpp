// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/param_layout.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace fj {
namespace {

XformLayout layout_xform(const XformShape& shape, const VariationRegistry& registry, int base) {
    XformLayout x;
    x.base = base;
    int offset = XformLayout::kVariations;
    for (const VariationSlot& slot : shape.variations) {
        const VariationInfo* info = registry.by_id(slot.id);
        if (!info) throw std::runtime_error("no snippet for variation id " + std::to_string(slot.id));
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
    r[XformLayout::kDirectColor] = static_cast<float>(xf.direct_color);
    for (size_t v = 0; v < xf.variations.size(); ++v) {
        r[x.weight_offset[v]] = static_cast<float>(xf.variations[v].weight);
        for (size_t p = 0; p < xf.variations[v].params.size(); ++p)
            r[x.param_offset[v] + p] = static_cast<float>(xf.variations[v].params[p]);
    }
}

// One row of cumulative selection probabilities; the last entry is 1 exactly
// so a uniform draw in [0,1) always selects some xform.
void put_cumulative(const std::vector<double>& probabilities, float* out) {
    double sum = 0;
    for (size_t i = 0; i < probabilities.size(); ++i) {
        sum += probabilities[i];
        out[i] = static_cast<float>(sum);
    }
    out[probabilities.size() - 1] = 1.0f;
}

// Row 0 (a chain's first step) and, with xaos, row i+1 (after xform i).
std::vector<std::vector<double>> selection_rows(const Flame& flame, bool xaos) {
    const size_t n = flame.xforms.size();
    std::vector<double> weights(n);
    for (size_t j = 0; j < n; ++j) weights[j] = flame.xforms[j].weight;
    std::vector<std::vector<double>> rows{selection_probabilities(weights, 0)};
    if (!xaos) return rows;
    for (size_t i = 0; i < n; ++i) {
        const auto& chaos = flame.xforms[i].chaos;
        std::vector<double> row(n);
        for (size_t j = 0; j < n; ++j) row[j] = weights[j] * (j < chaos.size() ? chaos[j] : 1.0);
        rows.push_back(selection_probabilities(row, static_cast<int>(i) + 1));
    }
    return rows;
}

// m(k) = max over rows of p_row(k), a rare one raised to
// min(kSpreadBelow, 32·m(k)) (param_layout.h): the unnormalised proposal.
std::vector<double> proposal_weights(const std::vector<std::vector<double>>& rows) {
    std::vector<double> m(rows[0].size(), 0.0);
    for (const auto& row : rows)
        for (size_t k = 0; k < m.size(); ++k) m[k] = std::max(m[k], row[k]);
    for (double& mk : m)
        if (mk > 0 && mk < kSpreadBelow) mk = std::min(kSpreadBelow, 32 * mk);
    return m;
}

}  // namespace

ParamLayout make_param_layout(const KernelKey& key, const VariationRegistry& registry) {
    ParamLayout layout;
    const int n = static_cast<int>(key.xforms.size());
    layout.xform_count = n;
    layout.select = ParamLayout::kCameraSize;
    layout.select_rows = key.xaos ? n + 1 : 1;
    int offset = layout.select + n * layout.select_rows;
    if (key.xaos) {
        layout.proposal = offset;
        layout.accept = layout.proposal + n;
        offset = layout.accept + n * (n + 1);
    }
    layout.palette = offset;
    offset = layout.palette + 256 * 4;
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

void pack_camera(const double world_to_cell[6], float camera[ParamLayout::kCameraSize]) {
    for (int i = 0; i < 6; ++i) camera[i] = static_cast<float>(world_to_cell[i]);
    for (int row = 0; row < 2; ++row) {
        // A whole part below 2^23, so that the kernels add it, a strip's
        // first row and the histogram's edges exactly (iterate/common.h).
        // A shift beyond it stays in the sum as it is: a picture that far
        // from the camera's origin lies on a grid of floats coarser than its
        // cells anyway (pipeline/frame_plan.h point_grid_cells).
        const double shift = world_to_cell[3 * row + 2];
        const double whole = std::fabs(shift) < (1 << 23) ? std::floor(shift) : 0.0;
        camera[3 * row + 2] = static_cast<float>(shift - whole);
        camera[6 + row] = static_cast<float>(whole);
    }
}

std::vector<float> pack_params(const Flame& flame, const KernelKey& key, const ParamLayout& layout,
                               const double world_to_cell[6]) {
    KernelKey expected = make_kernel_key(flame, kernel_options_of(key));
    // The count channel and time steps are a frame's choice
    // (prepared_frame.cpp) and the atomic ceiling a benchmark's (`bench
    // throughput`), not the flame's structure.
    expected.density_count = key.density_count;
    expected.time_steps = key.time_steps;
    expected.atomic_ceiling = key.atomic_ceiling;
    if (expected != key) throw std::logic_error("pack_params: flame does not have the kernel key's structure");
    std::vector<float> block(layout.total, 0.0f);
    pack_camera(world_to_cell, block.data() + ParamLayout::kCamera);

    const int n = layout.xform_count;
    const auto rows = selection_rows(flame, key.xaos);
    for (size_t r = 0; r < rows.size(); ++r) put_cumulative(rows[r], block.data() + layout.select + r * n);
    if (key.xaos) {
        const std::vector<double> m = proposal_weights(rows);
        const double mass = std::accumulate(m.begin(), m.end(), 0.0);
        std::vector<double> q(n);
        for (int k = 0; k < n; ++k) q[k] = m[k] / mass;
        put_cumulative(q, block.data() + layout.proposal);
        for (size_t r = 0; r < rows.size(); ++r)
            for (int k = 0; k < n; ++k)
                block[layout.accept + r * n + k] = m[k] > 0 ? static_cast<float>(rows[r][k] / m[k]) : 0.0f;
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

std::vector<double> selection_probabilities(const std::vector<double>& weights, int row) {
    constexpr double kGrain = 16384;
    double total = 0;
    for (double w : weights) {
        if (w < 0) throw std::runtime_error("negative xform weight (or weight × chaos) in selection row " + std::to_string(row));
        total += w;
    }
    if (!(total > 0)) throw std::runtime_error("cannot iterate: all xform weights are zero in selection row " + std::to_string(row));
    // Entries below ceil(cum·G/Σ) belong to xforms up to this one.
    std::vector<double> p(weights.size());
    double cumulative = 0, entries_before = 0;
    for (size_t k = 0; k < weights.size(); ++k) {
        cumulative += weights[k];
        const double entries = k + 1 == weights.size() ? kGrain : std::min(kGrain, std::ceil(cumulative / total * kGrain));
        p[k] = (entries - entries_before) / kGrain;
        entries_before = entries;
    }
    return p;
}

bool has_rare_xform(const Flame& flame) {
    std::vector<double> weights;
    double total = 0;
    for (const Xform& xf : flame.xforms) {
        // Weights no table can be made of are refused when the flame is packed.
        if (!(xf.weight >= 0) || !std::isfinite(xf.weight)) return false;
        weights.push_back(xf.weight);
        total += xf.weight;
    }
    if (!(total > 0) || !std::isfinite(total)) return false;
    for (double p : selection_probabilities(weights, 0))
        if (p > 0 && p < kSpreadBelow) return true;
    return false;
}

double xaos_proposal_mass(const Flame& flame) {
    const auto m = proposal_weights(selection_rows(flame, true));
    return std::accumulate(m.begin(), m.end(), 0.0);
}

double rounds_per_step(const Flame& flame, const KernelKey& key) {
    return key.xaos && !selects_per_thread(key.shuffle) ? xaos_proposal_mass(flame) : 1.0;
}

}  // namespace fj
