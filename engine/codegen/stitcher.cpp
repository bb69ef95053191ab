// flamejit — the specialized kernel: one inlined function per xform, holding only its variations.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/stitcher.h"
#include "errors.h"

#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen/stitch_parts.h"

namespace fj {
namespace {

// The function of one xform: pre-affine, its variations in flam3's order (pre
// variations first), post affine if present, colour blend. Offsets are
// constants of the layout; every value is read from the parameter block.
void write_xform(std::ostringstream& out, const std::string& fn, const XformShape& shape,
                 const XformLayout& x, const VariationRegistry& registry, const std::string& what) {
    out << "// " << what << ":";
    for (int id : shape.variations) out << ' ' << registry.by_id(id)->name;
    out << (shape.has_post ? " (post affine)" : "") << "\n";
    out << "__device__ FJ_INLINE void " << fn
        << "(const float* __restrict__ P, float& x, float& y, float& c, fj::Rng& rng) {\n"
        << "    const float* X = P + " << x.base << ";\n"
        << "    const fj::Affine* aff = reinterpret_cast<const fj::Affine*>(X + " << XformLayout::kAffine << ");\n"
        << "    float tx, ty;\n"
        << "    fj::apply_affine(*aff, x, y, tx, ty);\n";
    for (size_t v = 0; v < shape.variations.size(); ++v) {
        const VariationInfo* info = registry.by_id(shape.variations[v]);
        if (!info->pre) continue;
        out << "    if (X[" << x.weight_offset[v] << "] != 0.0f) {\n"
            << "        const fj::VarIn pin = fj::make_var_in(tx, ty, aff);\n"
            << "        fj_var_" << info->name << "(pin, X + " << x.param_offset[v] << ", X[" << x.weight_offset[v]
            << "], rng, tx, ty);\n    }\n";
    }
    out << "    const fj::VarIn in = fj::make_var_in(tx, ty, aff);\n"
        << "    float ox = 0.0f, oy = 0.0f;\n";
    for (size_t v = 0; v < shape.variations.size(); ++v) {
        const VariationInfo* info = registry.by_id(shape.variations[v]);
        if (info->pre) continue;
        // A weight of 0 (a padded variation in an animation) is skipped as
        // flam3 skips it: 0 · inf would otherwise spoil the sum.
        out << "    if (X[" << x.weight_offset[v] << "] != 0.0f) fj_var_" << info->name << "(in, X + "
            << x.param_offset[v] << ", X[" << x.weight_offset[v] << "], rng, ox, oy);\n";
    }
    if (shape.has_post)
        out << "    fj::apply_affine(*reinterpret_cast<const fj::Affine*>(X + " << XformLayout::kPost
            << "), ox, oy, x, y);\n";
    else
        out << "    x = ox;\n    y = oy;\n";
    out << "    c = X[" << XformLayout::kColorSpeed << "] * X[" << XformLayout::kColor << "] + (1.0f - X["
        << XformLayout::kColorSpeed << "]) * c;\n}\n\n";
}

}  // namespace

std::string stitch_kernel(const KernelKey& key, const ParamLayout& layout, const VariationRegistry& registry,
                          const SnippetSource& source) {
    if (key.xforms.empty()) throw std::runtime_error("cannot generate a kernel for a flame without xforms");
    if (key.xforms.size() > 254)
        throw InputError(std::to_string(key.xforms.size()) + " xforms: the kernel takes at most 254");
    stitch::check_block_size(key.block_size);

    std::ostringstream out;
    stitch::write_prologue(out, "kernel key:\n//   " + key.canonical(), source);
    std::set<int> used;
    for (const auto& s : key.xforms) used.insert(s.variations.begin(), s.variations.end());
    if (key.has_final) used.insert(key.final_xform.variations.begin(), key.final_xform.variations.end());
    stitch::write_variations(out, used, registry, source);

    const int n = static_cast<int>(key.xforms.size());
    out << "// ---- generated: layout constants and code options\n";
    stitch::write_code_switches(out, key);
    out << "#define FJ_NXFORMS " << n << "\n"
        << "#define FJ_SELECT " << layout.select << "\n"
        << "#define FJ_PALETTE " << layout.palette << "\n";
    if (key.xaos)
        out << "#define FJ_PROPOSAL " << layout.proposal << "\n"
            << "#define FJ_ACCEPT " << layout.accept << "\n";
    if (key.has_final)
        out << "#define FJ_FINAL_OPACITY " << layout.final_xform.base + XformLayout::kVisibility << "\n";
    out << "\n";

    for (int i = 0; i < n; ++i)
        write_xform(out, "fj_xform_" + std::to_string(i), key.xforms[i], layout.xforms[i], registry,
                    "xform " + std::to_string(i));
    if (key.has_final) write_xform(out, "fj_apply_final", key.final_xform, layout.final_xform, registry, "final xform");

    // Dispatch on the selected xform. The kernel selects warp-uniformly
    // (except under --shuffle divergent), so every lane takes the same case.
    out << "__device__ FJ_INLINE void fj_apply_xform(const float* __restrict__ P, int k, float& x, float& y, "
           "float& c, float& vis, fj::Rng& rng) {\n"
        << "    switch (k) {\n";
    for (int i = 0; i < n; ++i)
        out << "    " << (i + 1 < n ? "case " + std::to_string(i) + ":" : "default:") << " fj_xform_" << i
            << "(P, x, y, c, rng); vis = P[" << layout.xforms[i].base + XformLayout::kVisibility << "]; break;\n";
    out << "    }\n}\n\n";
    stitch::write_iterate_template(out, source);
    return out.str();
}

}  // namespace fj
