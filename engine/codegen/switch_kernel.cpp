// flamejit — the all-variations switch kernel: the reference for the kernel report.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/switch_kernel.h"

#include <algorithm>
#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen/param_layout.h"
#include "codegen/stitch_parts.h"
#include "codegen/stitcher.h"

namespace fj {
namespace {

// The dispatch function over every variation. Each case calls the snippet
// exactly as the specialized xform functions do.
void write_dispatch(std::ostream& out, const VariationRegistry& registry) {
    out << "FJ_HD FJ_INLINE int " << kVariationDispatchName
        << "(int id, const fj::VarIn& in, const float* p, float w, fj::Rng& rng, float& ox, float& oy, "
           "float& c) {\n"
        << "    switch (id) {\n";
    for (const VariationInfo& v : registry.all())
        out << "    case " << v.id << ": fj_var_" << v.name << "(in, p, w, rng, ox, oy, c); return " << v.params.size()
            << ";\n";
    out << "    default: return 0;\n    }\n}\n\n";
}

// The generic xform: its record says how many slots of each kind follow and
// whether the post affine applies; the same steps as the stitcher's
// write_xform, with the variation list read instead of unrolled. It mixes the
// colour index by var_color whatever its variations are: where none writes
// the index, the mix leaves the blended one unchanged, as the stitched
// xform does by omitting it.
const char* kGenericXform = R"(// Applies the xform whose record starts at X (layout: codegen/switch_kernel.h).
__device__ FJ_INLINE void fj_switch_xform(const float* __restrict__ X, float& x, float& y, float& c, fj::Rng& rng) {
    const fj::Affine* aff = reinterpret_cast<const fj::Affine*>(X + FJ_REC_AFFINE);
    float tx, ty;
    fj::apply_affine(*aff, x, y, tx, ty);
    c = X[FJ_REC_COLOR_SPEED] * X[FJ_REC_COLOR] + (1.0f - X[FJ_REC_COLOR_SPEED]) * c;
    const float blended = c;
    const int pre_slots = (int)X[FJ_REC_PRE_SLOTS];
    const int sum_end = pre_slots + (int)X[FJ_REC_SLOTS];
    const int end = sum_end + (int)X[FJ_REC_POST_SLOTS];
    const float* S = X + FJ_REC_FIRST_SLOT;
    // One loop and one dispatch site, as a renderer of this kind would have.
    // Slots below pre_slots change the transformed point; those below
    // sum_end add to the sum at the point as it then stands; the rest (Post)
    // change the sum. A slot's flag zeroes what it changes first.
    float ox = 0.0f, oy = 0.0f;
    fj::VarIn in{};
    for (int s = 0; s <= end; ++s) {
        if (s == pre_slots) {
            if (X[FJ_REC_PASSES_POINT] != 0.0f) {
                ox = tx;
                oy = ty;
            }
            in = fj::make_var_in(tx, ty, aff);
        }
        if (s == end) break;
        const bool on_point = s < pre_slots;
        float vx = on_point ? tx : ox, vy = on_point ? ty : oy;
        if (on_point || s >= sum_end) in = fj::make_var_in(vx, vy, aff);
        if (S[2] != 0.0f) vx = vy = 0.0f;
        S += 3 + fj_apply_variation((int)S[0], in, S + 3, S[1], rng, vx, vy, c);
        if (on_point) {
            tx = vx;
            ty = vy;
        } else {
            ox = vx;
            oy = vy;
        }
    }
    if (X[FJ_REC_HAS_POST] != 0.0f) {
        fj::apply_affine(*reinterpret_cast<const fj::Affine*>(X + FJ_REC_POST), ox, oy, x, y);
    } else {
        x = ox;
        y = oy;
    }
    c = blended + X[FJ_REC_DIRECT_COLOR] * (c - blended);
    if (c != c) c = 0.0f;
}

__device__ FJ_INLINE void fj_apply_xform(const float* __restrict__ P, int k, float& x, float& y, float& c,
                                         float& vis, fj::Rng& rng) {
    const float* X = P + (int)P[(int)P[FJ_HDR_RECORDS] + k];
    fj_switch_xform(X, x, y, c, rng);
    vis = X[FJ_REC_VISIBILITY];
}

#if FJ_HAS_FINAL
__device__ FJ_INLINE void fj_apply_final(const float* __restrict__ P, float& x, float& y, float& c, fj::Rng& rng) {
    fj_switch_xform(P + (int)P[FJ_HDR_FINAL], x, y, c, rng);
}
#endif

)";

}  // namespace

std::string switch_dispatch_source(const VariationRegistry& registry, const SnippetSource& source) {
    std::ostringstream out;
    stitch::write_prologue(out, "every variation behind a switch", source);
    std::set<int> all;
    for (const VariationInfo& v : registry.all()) all.insert(v.id);
    stitch::write_variations(out, all, registry, source);
    out << "// ---- generated: dispatch on a variation id\n";
    write_dispatch(out, registry);
    return out.str();
}

std::string switch_kernel_source(const KernelKey& key, const VariationRegistry& registry,
                                 const SnippetSource& source) {
    stitch::check_block_size(key.block_size);
    std::ostringstream out;
    out << switch_dispatch_source(registry, source);
    // The template's layout names become reads of the block's header.
    out << "// ---- generated: code options; layout offsets read from the parameter block\n";
    stitch::write_code_switches(out, key);
    out << "#define FJ_NXFORMS ((int)P[" << SwitchLayout::kCount << "])\n"
        << "#define FJ_SELECT ((int)P[" << SwitchLayout::kSelect << "])\n"
        << "#define FJ_PROPOSAL ((int)P[" << SwitchLayout::kProposal << "])\n"
        << "#define FJ_ACCEPT ((int)P[" << SwitchLayout::kAccept << "])\n"
        << "#define FJ_PALETTE " << SwitchLayout::kPalette << "\n"
        << "#define FJ_FINAL_OPACITY ((int)P[" << SwitchLayout::kFinal << "] + " << XformLayout::kVisibility
        << ")\n"
        << "#define FJ_HDR_RECORDS " << SwitchLayout::kRecords << "\n"
        << "#define FJ_HDR_FINAL " << SwitchLayout::kFinal << "\n"
        << "#define FJ_REC_AFFINE " << XformLayout::kAffine << "\n"
        << "#define FJ_REC_POST " << XformLayout::kPost << "\n"
        << "#define FJ_REC_COLOR " << XformLayout::kColor << "\n"
        << "#define FJ_REC_COLOR_SPEED " << XformLayout::kColorSpeed << "\n"
        << "#define FJ_REC_VISIBILITY " << XformLayout::kVisibility << "\n"
        << "#define FJ_REC_DIRECT_COLOR " << XformLayout::kDirectColor << "\n"
        << "#define FJ_REC_HAS_POST " << SwitchLayout::kHasPost << "\n"
        << "#define FJ_REC_PASSES_POINT " << SwitchLayout::kPassesPoint << "\n"
        << "#define FJ_REC_PRE_SLOTS " << SwitchLayout::kPreSlots << "\n"
        << "#define FJ_REC_SLOTS " << SwitchLayout::kSlots << "\n"
        << "#define FJ_REC_POST_SLOTS " << SwitchLayout::kPostSlots << "\n"
        << "#define FJ_REC_FIRST_SLOT " << SwitchLayout::kFirstSlot << "\n\n";
    out << kGenericXform;
    stitch::write_iterate_template(out, source);
    return out.str();
}

std::vector<float> pack_switch_params(const Flame& flame, const KernelKey& key, const VariationRegistry& registry,
                                      const double world_to_cell[6]) {
    // The specialized block already holds every value in its final float
    // form (selection rows, xaos proposal, palette, visibility): pack it and
    // move the values, so the two kernels read identical numbers.
    const ParamLayout layout = make_param_layout(key, registry);
    const std::vector<float> spec = pack_params(flame, key, layout, world_to_cell);
    const int n = layout.xform_count;

    std::vector<float> block(SwitchLayout::kPalette, 0.0f);
    auto append = [&](int from, int count) {
        const int at = static_cast<int>(block.size());
        block.insert(block.end(), spec.begin() + from, spec.begin() + from + count);
        return at;
    };
    std::copy(spec.begin() + ParamLayout::kCamera, spec.begin() + ParamLayout::kCamera + ParamLayout::kCameraSize,
              block.begin());
    block[SwitchLayout::kCount] = static_cast<float>(n);
    append(layout.palette, 256 * 4);
    block[SwitchLayout::kSelect] = static_cast<float>(append(layout.select, n * layout.select_rows));
    if (key.xaos) {
        block[SwitchLayout::kProposal] = static_cast<float>(append(layout.proposal, n));
        block[SwitchLayout::kAccept] = static_cast<float>(append(layout.accept, n * (n + 1)));
    }
    const int records = static_cast<int>(block.size());
    block[SwitchLayout::kRecords] = static_cast<float>(records);
    block.resize(block.size() + n, 0.0f);

    auto put_record = [&](const XformShape& shape, const XformLayout& x) {
        const int at = append(x.base, XformLayout::kVariations);
        block.resize(at + SwitchLayout::kFirstSlot, 0.0f);
        block[at + SwitchLayout::kHasPost] = shape.has_post ? 1.0f : 0.0f;
        block[at + SwitchLayout::kPassesPoint] = shape.passes_point() ? 1.0f : 0.0f;
        // Slots in application_order: those that change the transformed
        // point, the Regular ones, then the Post ones.
        int counts[3] = {};  // point, sum, post
        for (size_t v : application_order(shape, registry)) {
            const VariationInfo* info = registry.by_id(shape.variations[v].id);
            const UseEffect effect = use_effect(shape.variations[v], *info);
            const float weight = spec[x.base + x.weight_offset[v]];
            block.push_back(static_cast<float>(info->id));
            block.push_back(weight);
            const bool zeroes = replaces(effect) || effect == UseEffect::ResetSum;
            block.push_back(zeroes && weight != 0.0f ? 1.0f : 0.0f);
            append(x.base + x.param_offset[v], static_cast<int>(info->params.size()));
            ++counts[changes_point(effect) ? 0 : adds_at_point(effect) ? 1 : 2];
        }
        block[at + SwitchLayout::kPreSlots] = static_cast<float>(counts[0]);
        block[at + SwitchLayout::kSlots] = static_cast<float>(counts[1]);
        block[at + SwitchLayout::kPostSlots] = static_cast<float>(counts[2]);
        return at;
    };
    for (int i = 0; i < n; ++i) {
        const int at = put_record(key.xforms[i], layout.xforms[i]);
        block[records + i] = static_cast<float>(at);
    }
    if (key.has_final) block[SwitchLayout::kFinal] = static_cast<float>(put_record(key.final_xform, layout.final_xform));
    // Offsets travel as floats: they must stay exact.
    if (block.size() >= (1u << 24)) throw std::runtime_error("switch kernel parameter block too large");
    return block;
}

KernelPrograms kernel_programs(const KernelKey& key, const ParamLayout& layout, const VariationRegistry& registry,
                               const SnippetSource& source) {
    KernelPrograms out;
    switch (key.form) {
        case KernelForm::Specialized: out.sources = {stitch_kernel(key, layout, registry, source)}; break;
        case KernelForm::Switch: out.sources = {switch_kernel_source(key, registry, source)}; break;
        case KernelForm::Linked:
            out.sources = stitch_linked_kernel(key, layout, registry, source);
            out.part_registers = linked_xform_registers(key);
            break;
    }
    return out;
}

std::string kernel_source(const KernelKey& key, const ParamLayout& layout, const VariationRegistry& registry,
                          const SnippetSource& source) {
    const KernelPrograms programs = kernel_programs(key, layout, registry, source);
    if (programs.sources.size() == 1) return programs.sources[0];
    std::string text;
    for (size_t i = 0; i < programs.sources.size(); ++i)
        text += linked_program_banner(i, programs.sources.size()) + programs.sources[i] + "\n";
    return text;
}

std::vector<float> pack_kernel_params(const Flame& flame, const KernelKey& key, const ParamLayout& layout,
                                      const double world_to_cell[6]) {
    if (key.form != KernelForm::Switch) return pack_params(flame, key, layout, world_to_cell);
    return pack_switch_params(flame, key, VariationRegistry::standard(), world_to_cell);
}

}  // namespace fj
