// flamejit — the specialized kernel: one inlined function per xform, holding only its variations.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/stitcher.h"

#include <algorithm>
#include <functional>
#include <sstream>
#include <stdexcept>
#include <vector>

#include "codegen/stitch_parts.h"

namespace fj {
namespace {

// One variation call, by its effect (use_effect). A weight of 0 (a padded
// variation in an animation) is skipped as flam3 skips it: 0 · inf would
// otherwise spoil the sum.
void write_use(std::ostringstream& out, UseEffect effect, const VariationSlot& slot, const VariationInfo& info,
               const XformLayout& x, size_t v) {
    const std::string call = "fj_var_" + info.name + "(", args = "X + " + std::to_string(x.param_offset[v]) +
                                                                   ", X[" + std::to_string(x.weight_offset[v]) + "], rng, ";
    const std::string weight = "X[" + std::to_string(x.weight_offset[v]) + "] != 0.0f";
    if (effect == UseEffect::Sum) {
        out << "    if (" << weight << ") " << call << "in, " << args << "ox, oy, c);\n";
        return;
    }
    if (effect == UseEffect::ResetSum) {
        out << "    if (" << weight << ") {  // drops the sum before it\n"
            << "        ox = 0.0f;\n        oy = 0.0f;\n"
            << "        " << call << "in, " << args << "ox, oy, c);\n    }\n";
        return;
    }
    // The others evaluate at the point (or sum) they then change.
    const std::string px = changes_point(effect) ? "tx" : "ox", py = changes_point(effect) ? "ty" : "oy";
    out << "    if (" << weight << ") {  // " << mode_prefix(slot.mode) << info.name << "\n"
        << "        const fj::VarIn at = fj::make_var_in(" << px << ", " << py << ", aff);\n";
    if (replaces(effect)) out << "        " << px << " = 0.0f;\n        " << py << " = 0.0f;\n";
    out << "        " << call << "at, " << args << px << ", " << py << ", c);\n    }\n";
}

// Whether the xform's variations all see the pre-affine's point: none of its
// uses changes the transformed point first (pre_blur, Fractorium's pre_).
// Only such xforms can take the point and its VarIn from the shared prologue.
bool sees_affine_point(const XformShape& shape, const VariationRegistry& registry) {
    return std::none_of(shape.variations.begin(), shape.variations.end(), [&](const VariationSlot& slot) {
        return changes_point(use_effect(slot, *registry.by_id(slot.id)));
    });
}

// What the xform's uses at the transformed point read of its VarIn (FJ_READS_* bits).
unsigned var_in_reads(const XformShape& shape, const VariationRegistry& registry) {
    unsigned reads = 0;
    for (const VariationSlot& slot : shape.variations) {
        const VariationInfo& info = *registry.by_id(slot.id);
        if (adds_at_point(use_effect(slot, info))) reads |= info.reads;
    }
    return reads;
}

// The function of one xform: pre-affine; its uses in application_order, the
// sum opened after those that change the transformed point (as that point,
// Fractorium's rule, when the xform passes it on); post affine if present;
// colour blend. Where a use may change the colour index, the blend comes
// first, so the uses see it, and the changed index is mixed with the
// blended one by var_color at the end (a NaN index becomes 0, as in
// Fractorium). Offsets are constants of the layout; every value is read
// from the parameter block. An xform that fj_apply_xform calls
// (`dispatched`; not the final one) takes FJ_XFORM_ARGS, and where its
// variations see the pre-affine's point it gets that point and its VarIn
// through FJ_XFORM_POINT and FJ_XFORM_VAR_IN (write_xform_macros).
void write_xform(std::ostringstream& out, const std::string& fn, const XformShape& shape,
                 const XformLayout& x, const VariationRegistry& registry, const std::string& what, bool dispatched) {
    out << "// " << what << ":";
    for (const VariationSlot& s : shape.variations) out << ' ' << mode_prefix(s.mode) << registry.by_id(s.id)->name;
    out << (shape.has_post ? " (post affine)" : "") << "\n";
    const bool from_prologue = dispatched && sees_affine_point(shape, registry);
    out << "__device__ FJ_INLINE void " << fn
        << (dispatched ? "(FJ_XFORM_ARGS) {\n"
                       : "(const float* __restrict__ P, float& x, float& y, float& c, fj::Rng& rng) {\n")
        << "    const float* X = P + " << x.base << ";\n"
        << "    const fj::Affine* aff = reinterpret_cast<const fj::Affine*>(X + " << XformLayout::kAffine << ");\n";
    if (from_prologue)
        out << "    FJ_XFORM_POINT;\n";
    else
        out << "    float tx, ty;\n"
            << "    fj::apply_affine(*aff, x, y, tx, ty);\n";
    const std::string blend = "    c = X[" + std::to_string(XformLayout::kColorSpeed) + "] * X[" +
                              std::to_string(XformLayout::kColor) + "] + (1.0f - X[" +
                              std::to_string(XformLayout::kColorSpeed) + "]) * c;\n";
    // Where no use reads the colour index, the blend waits for the end: the
    // kernels' register pressure is lower that way (the kernel report).
    const bool mixes_color = writes_color(shape, registry);
    if (mixes_color) out << blend << "    const float blended = c;\n";
    bool opened = false;
    const auto open_sum = [&] {
        if (opened) return;
        opened = true;
        if (shape.passes_point())
            out << "    float ox = tx, oy = ty;\n";
        else
            out << (from_prologue ? "    FJ_XFORM_VAR_IN;\n"
                                  : "    const fj::VarIn in = fj::make_var_in(tx, ty, aff);\n")
                << "    float ox = 0.0f, oy = 0.0f;\n";
    };
    for (size_t v : application_order(shape, registry)) {
        const VariationInfo& info = *registry.by_id(shape.variations[v].id);
        const UseEffect effect = use_effect(shape.variations[v], info);
        if (!changes_point(effect)) open_sum();
        write_use(out, effect, shape.variations[v], info, x, v);
    }
    open_sum();
    if (shape.has_post)
        out << "    fj::apply_affine(*reinterpret_cast<const fj::Affine*>(X + " << XformLayout::kPost
            << "), ox, oy, x, y);\n";
    else
        out << "    x = ox;\n    y = oy;\n";
    if (mixes_color)
        out << "    c = blended + X[" << XformLayout::kDirectColor << "] * (c - blended);\n"
            << "    if (c != c) c = 0.0f;\n";
    else
        out << blend;
    out << "}\n\n";
}

// The xforms' common signature and their first steps, in two shapes chosen
// when the source is compiled. By default every xform applies its own
// pre-affine and makes its own VarIn, inlined in its case of the dispatch,
// so that the compiler keeps only the fields it reads. With
// -DFJ_SHARED_PROLOGUE the dispatch applies the pre-affine and makes the
// VarIn once, before its switch, computing the radius and angles only for
// the xform at hand when it reads them (a warp-uniform test on k): one copy
// of that code instead of one per xform, which NVRTC compiles in less time
// (benchmarks/README.md, "What is left of expensive8's compile"); its speed
// is to be measured on a GPU before it can be the default. A linked kernel's
// xform programs take the first shape only (`own_only`): their functions
// have no dispatch to share a prologue with.
void write_xform_macros(std::ostringstream& out, bool own_only = false) {
    if (!own_only)
        out << "#if defined(FJ_SHARED_PROLOGUE)\n"
            << "#define FJ_XFORM_ARGS const float* __restrict__ P, const fj::VarIn& shared_in, float& x, float& y, "
               "float& c, fj::Rng& rng\n"
            << "#define FJ_XFORM_POINT (void)0\n"
            << "#define FJ_XFORM_VAR_IN \\\n"
            << "    fj::VarIn in = shared_in; \\\n"
            << "    in.aff = aff\n"
            << "#else\n";
    out << "#define FJ_XFORM_ARGS const float* __restrict__ P, float& x, float& y, float& c, fj::Rng& rng\n"
        << "#define FJ_XFORM_POINT \\\n"
        << "    float tx, ty; \\\n"
        << "    fj::apply_affine(*aff, x, y, tx, ty)\n"
        << "#define FJ_XFORM_VAR_IN const fj::VarIn in = fj::make_var_in(tx, ty, aff)\n";
    out << (own_only ? "\n" : "#endif\n\n");
}

// What an xform function that is called, not inlined, hands back (a linked
// kernel's, or one under FJ_XFORM_CALLS): its point, colour index and random
// state, in registers (a reference argument of such a function would put its
// value in local memory).
void write_xform_result(std::ostringstream& out) {
    out << "struct FjXformResult {\n"
        << "    float x, y, c;\n"
        << "    unsigned long long rng;\n"
        << "};\n\n";
}

// A called xform function (`signature`, taking P, x, y, c and rng_state by
// value) that applies the inlined xform function `fn`.
void write_xform_call(std::ostringstream& out, const std::string& signature, const std::string& fn) {
    out << signature << " {\n"
        << "    fj::Rng rng;\n"
        << "    rng.state = rng_state;\n"
        << "    " << fn << "(P, x, y, c, rng);\n"
        << "    return {x, y, c, rng.state};\n"
        << "}\n";
}

const char* const kXformCallParameters =
    "(const float* __restrict__ P, float x, float y, float c, unsigned long long rng_state)";
// What the caller takes back from an FjXformResult r.
const char* const kTakeXformResult = "    x = r.x;\n    y = r.y;\n    c = r.c;\n    rng.state = r.rng;\n";

// fj_apply_xform as a switch of calls, `called(i)` naming xform i's function.
void write_call_dispatch(std::ostringstream& out, const KernelKey& key, const ParamLayout& layout,
                         const std::function<std::string(int)>& called) {
    const int n = static_cast<int>(key.xforms.size());
    out << "__device__ FJ_INLINE void fj_apply_xform(const float* __restrict__ P, int k, float& x, float& y, "
           "float& c, float& vis, fj::Rng& rng) {\n"
        << "    FjXformResult r;\n"
        << "    switch (k) {\n";
    for (int i = 0; i < n; ++i)
        out << "    " << (i + 1 < n ? "case " + std::to_string(i) + ":" : std::string("default:")) << " r = "
            << called(i) << "(P, x, y, c, rng.state); vis = P["
            << layout.xforms[i].base + XformLayout::kVisibility << "]; break;\n";
    out << "    }\n" << kTakeXformResult << "}\n";
}

// Dispatch on the selected xform. The kernel selects warp-uniformly (except
// under --shuffle divergent), so every lane takes the same case.
void write_dispatch(std::ostringstream& out, const KernelKey& key, const ParamLayout& layout,
                    const VariationRegistry& registry) {
    const int n = static_cast<int>(key.xforms.size());
    const auto label = [n](int i) { return i + 1 < n ? "case " + std::to_string(i) + ":" : std::string("default:"); };
    const std::string signature = "__device__ FJ_INLINE void fj_apply_xform(const float* __restrict__ P, int k, "
                                  "float& x, float& y, float& c, float& vis, fj::Rng& rng) {\n";
    const auto write_switch = [&](const std::string& args) {
        out << "    switch (k) {\n";
        for (int i = 0; i < n; ++i)
            out << "    " << label(i) << " fj_xform_" << i << "(P, " << args << "x, y, c, rng); vis = P["
                << layout.xforms[i].base + XformLayout::kVisibility << "]; break;\n";
        out << "    }\n}\n";
    };
    out << "#if defined(FJ_SHARED_PROLOGUE)\n" << signature
        << "    // Xform k's pre-affine and what its variations read of VarIn; none\n"
        << "    // for an xform whose pre-variations change the point first (it makes\n"
        << "    // its own).\n"
        << "    const fj::Affine* a = nullptr;\n"
        << "    unsigned reads = 0u;\n"
        << "    switch (k) {\n";
    std::vector<bool> from_prologue(n);
    for (int i = 0; i < n; ++i) from_prologue[i] = sees_affine_point(key.xforms[i], registry);
    const bool every = std::find(from_prologue.begin(), from_prologue.end(), false) == from_prologue.end();
    for (int i = 0; i < n; ++i) {
        if (!from_prologue[i]) continue;
        out << "    " << (every ? label(i) : "case " + std::to_string(i) + ":")
            << " a = reinterpret_cast<const fj::Affine*>(P + " << layout.xforms[i].base + XformLayout::kAffine
            << "); reads = " << var_in_reads(key.xforms[i], registry) << "u; break;\n";
    }
    out << "    }\n"
        << "    fj::VarIn in = {};\n"
        << "    if (a) {\n"
        << "        float tx, ty;\n"
        << "        fj::apply_affine(*a, x, y, tx, ty);\n"
        << "        in = fj::make_var_in_reading(tx, ty, a, reads);\n"
        << "    }\n";
    write_switch("in, ");
    // Every xform a function of its own, called (FJ_XFORM_CALLS): NVVM
    // optimizes each apart, in time that grows with the xforms' code where
    // the one inlined switch's grows faster, and on several threads under
    // -split-compile; ptxas, seeing the whole program, saves no registers
    // around the calls. Its speed on a GPU is not measured yet, so it is a
    // shape to measure, not the default (benchmarks/README.md, "Xforms as
    // calls").
    out << "#elif defined(FJ_XFORM_CALLS)\n";
    write_xform_result(out);
    const auto called = [](int i) { return "fj_xform_call_" + std::to_string(i); };
    for (int i = 0; i < n; ++i)
        write_xform_call(out, "static __device__ FJ_NOINLINE FjXformResult " + called(i) + kXformCallParameters,
                         "fj_xform_" + std::to_string(i));
    write_call_dispatch(out, key, layout, called);
    out << "#else\n" << signature;
    write_switch("");
    out << "#endif\n\n";
}

// The function a linked kernel's program defines for an xform (`name`:
// fj_linked_xform_K, or fj_linked_final), which the entry points call.
std::string linked_signature(const std::string& name) {
    return "extern \"C\" __device__ FjXformResult " + name + kXformCallParameters;
}

std::string linked_xform_name(int i) { return "fj_linked_xform_" + std::to_string(i); }

// A linked kernel's dispatch, and its fj_apply_final: calls of functions
// defined in programs of their own.
void write_linked_dispatch(std::ostringstream& out, const KernelKey& key, const ParamLayout& layout) {
    const int n = static_cast<int>(key.xforms.size());
    write_xform_result(out);
    for (int i = 0; i < n; ++i) out << linked_signature(linked_xform_name(i)) << ";\n";
    if (key.has_final)
        out << linked_signature("fj_linked_final") << ";\n\n"
            << "__device__ FJ_INLINE void fj_apply_final(const float* __restrict__ P, float& x, float& y, float& c, "
               "fj::Rng& rng) {\n"
            << "    const FjXformResult r = fj_linked_final(P, x, y, c, rng.state);\n"
            << kTakeXformResult << "}\n";
    out << "\n";
    write_call_dispatch(out, key, layout, linked_xform_name);
    out << "\n";
}

// The checks every kernel of a key passes before it is written.
void check_key(const KernelKey& key) {
    if (key.xforms.empty()) throw std::runtime_error("cannot generate a kernel for a flame without xforms");
    if (key.xforms.size() > static_cast<size_t>(kMaxXforms))
        throw std::runtime_error("more than " + std::to_string(kMaxXforms) + " xforms are not supported");
    stitch::check_block_size(key.block_size);
}

// The layout offsets and code switches the iteration template reads.
void write_template_constants(std::ostringstream& out, const KernelKey& key, const ParamLayout& layout) {
    out << "// ---- generated: layout constants and code options\n";
    stitch::write_code_switches(out, key);
    // fj_iterate compiled for a full SM of threads (iterate/iterate_kernel.cuh).
    out << "#define FJ_FULL_OCCUPANCY 1\n";
    out << "#define FJ_NXFORMS " << key.xforms.size() << "\n"
        << "#define FJ_SELECT " << layout.select << "\n"
        << "#define FJ_PALETTE " << layout.palette << "\n";
    if (key.xaos)
        out << "#define FJ_PROPOSAL " << layout.proposal << "\n"
            << "#define FJ_ACCEPT " << layout.accept << "\n";
    if (key.has_final)
        out << "#define FJ_FINAL_OPACITY " << layout.final_xform.base + XformLayout::kVisibility << "\n";
    out << "\n";
}

}  // namespace

std::string stitch_kernel(const KernelKey& key, const ParamLayout& layout, const VariationRegistry& registry,
                          const SnippetSource& source) {
    check_key(key);
    std::ostringstream out;
    stitch::write_prologue(out, "kernel key:\n//   " + key.canonical(), source);
    stitch::write_variations(out, key.variation_ids(), registry, source);
    write_template_constants(out, key, layout);

    const int n = static_cast<int>(key.xforms.size());
    write_xform_macros(out);
    for (int i = 0; i < n; ++i)
        write_xform(out, "fj_xform_" + std::to_string(i), key.xforms[i], layout.xforms[i], registry,
                    "xform " + std::to_string(i), true);
    if (key.has_final)
        write_xform(out, "fj_apply_final", key.final_xform, layout.final_xform, registry, "final xform", false);
    write_dispatch(out, key, layout, registry);
    stitch::write_iterate_template(out, source);
    return out.str();
}

std::string linked_program_banner(size_t index, size_t count) {
    return "// ==== program " + std::to_string(index + 1) + " of " + std::to_string(count) +
           " (compiled on its own, then linked)\n";
}

int linked_xform_registers(const KernelKey& key) {
    // fj_iterate's bound (iterate/iterate_kernel.cuh): the key's, which the
    // entry's launch bounds give it too (32 by default, full occupancy's); a
    // motion-blurred kernel asks for one block, so its bound is the register
    // file over the block (ptxas allocates by eights, 255 at most).
    if (!key.time_steps) return key.linked_registers;
    return std::min(255, 65536 / key.block_size / 8 * 8);
}

std::vector<std::string> stitch_linked_kernel(const KernelKey& key, const ParamLayout& layout,
                                              const VariationRegistry& registry, const SnippetSource& source) {
    check_key(key);
    const std::string key_text = "kernel key:\n//   " + key.canonical();
    std::vector<std::string> programs;
    std::ostringstream main;
    stitch::write_prologue(main, "a linked kernel's entry points; " + key_text, source);
    write_template_constants(main, key, layout);
    main << "// fj_iterate bounded as its xform functions are\n#define FJ_LINKED_REGISTERS " << key.linked_registers
         << "\n";
    write_linked_dispatch(main, key, layout);
    main << "// fj_seed: the last program\n#define FJ_SEED_APART 1\n\n";
    stitch::write_iterate_template(main, source);
    programs.push_back(main.str());
    // One program per xform: its variations, its function as stitch_kernel
    // writes it, and the linked function that calls it.
    const auto write_program = [&](const XformShape& shape, const XformLayout& x, const std::string& fn,
                                   const std::string& what, bool dispatched, const std::string& linked) {
        std::ostringstream out;
        stitch::write_prologue(out, what + " of a linked kernel; " + key_text, source);
        stitch::write_variations(out, shape.variation_ids(), registry, source);
        out << "// ---- generated: the " << what << ", and the function the entry points call\n";
        if (dispatched) write_xform_macros(out, true);
        write_xform(out, fn, shape, x, registry, what, dispatched);
        write_xform_result(out);
        write_xform_call(out, linked_signature(linked), fn);
        programs.push_back(out.str());
    };
    for (size_t i = 0; i < key.xforms.size(); ++i) {
        const int k = static_cast<int>(i);
        write_program(key.xforms[i], layout.xforms[i], "fj_xform_" + std::to_string(k), "xform " + std::to_string(k),
                      true, linked_xform_name(k));
    }
    if (key.has_final)
        write_program(key.final_xform, layout.final_xform, "fj_apply_final", "final xform", false, "fj_linked_final");
    // The seeding kernel, the same for every genome.
    std::ostringstream seed;
    stitch::write_prologue(seed, "the seeding kernel of linked kernels", source);
    stitch::write_seed_kernel(seed, source);
    programs.push_back(seed.str());
    return programs;
}

}  // namespace fj
