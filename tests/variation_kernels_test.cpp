// flamejit — every variation in one kernel compiles with NVRTC without a warning.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No GPU needed: the specialized stitcher's kernels with one xform holding
// every variation in turn, twenty at a time, for sm_80 and sm_90, and the
// all-variations switch kernel for sm_90, and the other code shapes of the
// trigonometry and of the xforms' prologue; plus the switch kernel's
// parameter block read back slot by slot, and the device rule that keeps
// CUDA's sinf, cosf and tanf out of snippets.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "codegen/param_layout.h"
#include "codegen/stitcher.h"
#include "codegen/switch_kernel.h"
#include "cuda/compiler.h"
#include "cuda/nvrtc_api.h"
#include "test_support.h"

namespace {

const char* const kArchs[] = {"sm_80", "sm_90"};
// Variations per stitched kernel. ptxas takes more than linear time in one
// function's size: over 320 variations one xform holding them all took 96 s
// an arch here, twenty at a time 23 s in all. The switch kernel still puts
// every variation in one program, so no two snippets may clash.
constexpr size_t kChunk = 20;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Lines of NVRTC's log that mention a warning (ptxas's own included).
std::vector<std::string> warning_lines(const std::string& log) {
    std::vector<std::string> out;
    size_t begin = 0;
    while (begin < log.size()) {
        size_t end = log.find('\n', begin);
        if (end == std::string::npos) end = log.size();
        const std::string line = log.substr(begin, end - begin);
        if (lower(line).find("warning") != std::string::npos) out.push_back(line);
        begin = end + 1;
    }
    return out;
}

fj::CompiledKernel compile(const std::string& source, const std::string& arch, const std::string& tag) {
    fj::CompileRequest request;
    request.source = source;
    request.arch = arch;
    request.name = tag + ".cu";
    return fj::compile_kernel(request, tag + "-" + arch, fj::test::scratch_dir("variation-kernels-failed"));
}

void check_clean(const fj::CompiledKernel& k, const std::string& what) {
    CAPTURE(what);
    CHECK(!k.cubin.empty());
    CHECK(k.registers > 0);
    const auto warnings = warning_lines(k.log);
    for (const std::string& w : warnings) MESSAGE(what << ": " << w);
    CHECK(warnings.empty());
    MESSAGE(what << ": " << k.registers << " registers, spills " << k.spill_stores << "/" << k.spill_loads
                 << " bytes, " << k.compile_ms << " ms, cubin " << k.cubin.size() << " bytes");
}

// Variations [first, first + count) of the registry in one xform (ascending
// ids, flam3's order), with a post affine, beside a plain linear xform.
fj::KernelKey chunk_key(size_t first, size_t count, const std::string& arch) {
    fj::KernelKey key;
    fj::XformShape all;
    const auto& registry = fj::VariationRegistry::standard().all();
    for (size_t i = first; i < std::min(registry.size(), first + count); ++i) all.variations.push_back({registry[i].id});
    all.has_post = true;
    key.xforms = {all, fj::XformShape{{fj::VariationSlot{0}}, false}};
    key.arch = arch;
    return key;
}

int count_of(const std::string& text, const std::string& what) {
    int n = 0;
    for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

fj::VariationUse use_of(const char* name, double weight, fj::VariationMode mode = fj::VariationMode::Regular) {
    const fj::VariationInfo* info = fj::VariationRegistry::standard().by_name(name);
    REQUIRE_MESSAGE(info, name);
    fj::VariationUse use{info->id, weight, {}, mode};
    for (size_t i = 0; i < info->params.size(); ++i) use.params.push_back(0.25 * static_cast<double>(i + 1));
    return use;
}

// Calls of `name(` in code (comments left out) that are not part of a longer
// name or qualified.
int bare_calls(const std::string& text, const std::string& name) {
    int n = 0;
    size_t line_start = 0;
    while (line_start < text.size()) {
        size_t line_end = text.find('\n', line_start);
        if (line_end == std::string::npos) line_end = text.size();
        std::string line = text.substr(line_start, line_end - line_start);
        line = line.substr(0, line.find("//"));
        for (size_t at = line.find(name + "("); at != std::string::npos; at = line.find(name + "(", at + 1)) {
            const char before = at ? line[at - 1] : ' ';
            if (!(std::isalnum(static_cast<unsigned char>(before)) || before == '_' || before == ':')) ++n;
        }
        line_start = line_end + 1;
    }
    return n;
}

}  // namespace

TEST_CASE("variation kernels: the registry holds flam3's 99 variations, then other renderers'") {
    const auto& all = fj::VariationRegistry::standard().all();
    REQUIRE(all.size() >= 99);
    for (size_t i = 0; i < 99; ++i) {
        CHECK(all[i].id == static_cast<int>(i));
        CHECK(all[i].origin == "flam3 3.1.1");
    }
    for (size_t i = 99; i < all.size(); ++i) {
        CAPTURE(all[i].name);
        CHECK(all[i].id >= fj::kFirstOtherId);
        CHECK(!all[i].from_flam3());
        CHECK(all[i].origin.rfind("flam3", 0) == std::string::npos);
    }
}

TEST_CASE("variation kernels: every variation compiles in one xform, twenty at a time, without warnings (sm_80, sm_90)") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    const size_t count = registry.all().size();
    for (const char* arch : kArchs)
        for (size_t first = 0; first < count; first += kChunk) {
            const fj::KernelKey key = chunk_key(first, kChunk, arch);
            const std::string source =
                fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry, fj::SnippetSource::standard());
            // Every variation is called directly (its definition goes through the
            // FJ_VARIATION macro, so each name written out is a call), none through a switch.
            for (size_t i = first; i < std::min(count, first + kChunk); ++i) {
                const fj::VariationInfo& v = registry.all()[i];
                CHECK_MESSAGE(count_of(source, "fj_var_" + v.name + "(") == (v.id == 0 ? 2 : 1), v.name);
            }
            CHECK(source.find(fj::kVariationDispatchName) == std::string::npos);
            check_clean(compile(source, arch, "stitched-" + std::to_string(first)),
                        "stitched from variation " + std::to_string(first) + ", " + arch);
        }
}

TEST_CASE("device rules: snippets take sin, cos, tan, fmod and pow from fj::, where the shape of their device code is chosen") {
    // CUDA inlines sinf, cosf and tanf whole, their reduction for huge
    // arguments included, at every call; fj::sine, fj::cosine and
    // fj::tangent can keep that part out of line (snippets/fj_device.h).
    // fj::modulo and fj::power do the same for fmodf and powf in the code
    // NVRTC compiles (the post-pass is compiled ahead of time).
    const fj::SnippetSource snippets = fj::SnippetSource::standard();
    int files = 0;
    for (const char* folder : {"variations", "shared", "iterate", "post"})
        for (const std::string& path : snippets.list(folder)) {
            const std::string text = snippets.read(path).value_or("");
            ++files;
            for (const char* name : {"sinf", "cosf", "tanf", "sincosf"})
                CHECK_MESSAGE(bare_calls(text, name) == 0, path << " calls " << name);
            if (std::string(folder) != "post")
                for (const char* name : {"fmodf", "powf"})
                    CHECK_MESSAGE(bare_calls(text, name) == 0, path << " calls " << name);
        }
    CHECK(files > 300);
    CHECK(bare_calls("x = sinf(a) + fj::sine(b) + asinf(c); // sinf(d)", "sinf") == 1);
}

TEST_CASE("variation kernels: the trigonometry's code shapes compile without warnings, to less code than CUDA's functions inlined whole") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    fj::KernelKey key;
    for (const char* name : {"julian", "cpow", "wedge_sph", "sinusoidal", "tangent", "waves"})
        key.xforms.push_back(fj::XformShape{{fj::VariationSlot{registry.by_name(name)->id}}, false});
    key.arch = "sm_90";
    const std::string source =
        fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry, fj::SnippetSource::standard());
    std::vector<std::string> inline_options = fj::nvrtc_options(key.arch);
    inline_options.push_back("-DFJ_TRIG_INLINE");
    const fj::NvrtcRun inlined = fj::run_nvrtc(source, "trig.cu", inline_options);
    REQUIRE(inlined.compiled);
    CHECK(warning_lines(inlined.log).empty());
    // The default (the guard, the short path written out) and the calls: the long reduction once per
    // kernel instead of once per call.
    for (const std::string& shape : std::vector<std::string>{"", "-DFJ_TRIG_CALLS"}) {
        CAPTURE(shape);
        std::vector<std::string> options = fj::nvrtc_options(key.arch);
        if (!shape.empty()) options.push_back(shape);
        const fj::NvrtcRun run = fj::run_nvrtc(source, "trig.cu", options);
        REQUIRE(run.compiled);
        CHECK(warning_lines(run.log).empty());
        CHECK(fj::parse_ptxas_report(run.log, "fj_iterate").registers > 0);
        CHECK(run.cubin.size() < inlined.cubin.size());
        MESSAGE((shape.empty() ? "default" : shape) << ": CUBIN " << run.cubin.size() << " bytes, inlined "
                                                     << inlined.cubin.size());
    }
}

// For the code shapes that change how xforms are written: xforms reading
// different fields of VarIn, costly variations, one with a pre_ use (it makes
// its own VarIn), one with a post affine, direct colour, and a final xform.
fj::KernelKey shapes_key() {
    const auto& registry = fj::VariationRegistry::standard();
    using M = fj::VariationMode;
    const auto slot = [&](const char* name, M mode = M::Regular) {
        return fj::VariationSlot{registry.by_name(name)->id, mode};
    };
    fj::KernelKey key;
    key.xforms = {fj::XformShape{{slot("julian")}, false},
                  fj::XformShape{{slot("polar"), slot("ex"), slot("hyperbolic")}, true},
                  fj::XformShape{{slot("swirl", M::Pre), slot("julia")}, false},
                  fj::XformShape{{slot("edisc"), slot("dc_linear")}, false},
                  fj::XformShape{{slot("wedge_sph")}, false},
                  fj::XformShape{{slot("bipolar"), slot("ngon")}, false}};
    key.has_final = true;
    key.final_xform = fj::XformShape{{slot("spherical")}, false};
    return key;
}

TEST_CASE("variation kernels: xforms as calls (-DFJ_XFORM_CALLS) compile without warnings or spills, each xform once, out of line (sm_80, sm_90)") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    fj::KernelKey key = shapes_key();  // the final xform stays inlined
    for (const char* arch : kArchs) {
        CAPTURE(arch);
        key.arch = arch;
        const std::string source =
            fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry, fj::SnippetSource::standard());
        std::vector<std::string> options = fj::nvrtc_options(arch);
        options.push_back("-DFJ_XFORM_CALLS");
        const fj::NvrtcRun calls = fj::run_nvrtc(source, "calls.cu", options);
        REQUIRE(calls.compiled);
        CHECK(warning_lines(calls.log).empty());
        fj::PtxasReport report = fj::parse_ptxas_report(calls.log, "fj_iterate");
        CHECK(report.registers > 0);
        CHECK(report.registers <= 32);
        fj::add_function_spills(calls.log, &report);
        CHECK(report.spill_stores == 0);
        // One function per xform, called: ptxas reports each.
        for (size_t i = 0; i < key.xforms.size(); ++i)
            CHECK(calls.log.find("fj_xform_call_" + std::to_string(i)) != std::string::npos);
        CHECK(calls.log.find("fj_xform_call_" + std::to_string(key.xforms.size())) == std::string::npos);
    }
}

TEST_CASE("variation kernels: the shared prologue (-DFJ_SHARED_PROLOGUE) compiles without warnings or spills, to less code (sm_80, sm_90)") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    fj::KernelKey key = shapes_key();
    for (const char* arch : kArchs) {
        CAPTURE(arch);
        key.arch = arch;
        const std::string source =
            fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry, fj::SnippetSource::standard());
        const fj::NvrtcRun plain = fj::run_nvrtc(source, "prologue.cu", fj::nvrtc_options(arch));
        std::vector<std::string> options = fj::nvrtc_options(arch);
        options.push_back("-DFJ_SHARED_PROLOGUE");
        const fj::NvrtcRun shared = fj::run_nvrtc(source, "prologue.cu", options);
        REQUIRE(plain.compiled);
        REQUIRE(shared.compiled);
        CHECK(warning_lines(shared.log).empty());
        const fj::PtxasReport report = fj::parse_ptxas_report(shared.log, "fj_iterate");
        CHECK(report.registers > 0);
        CHECK(report.registers <= 32);
        CHECK(report.spill_stores == 0);
        CHECK(shared.cubin.size() < plain.cubin.size());
        MESSAGE(std::string(arch) << ": CUBIN " << shared.cubin.size() << " bytes, per-xform prologues "
                                   << plain.cubin.size());
    }
}

TEST_CASE("variation kernels: the switch kernel compiles without warnings (sm_90)") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    // One arch and the plain code switches: over every variation the switch
    // kernel takes a minute to compile, three with a final xform (which
    // inlines its dispatch a second time); the snippets' code for sm_80 is
    // the stitched kernel's above, and the template's xaos and final-xform
    // code is every other suite's.
    fj::KernelKey key;
    key.arch = "sm_90";
    const std::string source = fj::switch_kernel_source(key, registry, fj::SnippetSource::standard());
    // The dispatch holds a case for each variation, in one of its two switches.
    for (const fj::VariationInfo& v : registry.all())
        CHECK_MESSAGE(count_of(source, "case " + std::to_string(v.id) + ": fj_var_" + v.name + "(") == 1, v.name);
    check_clean(compile(source, key.arch, "switch"), "switch kernel, sm_90");
}

TEST_CASE("variation kernels: the switch kernel's block holds each xform's variations as slots") {
    const auto& registry = fj::VariationRegistry::standard();
    using M = fj::VariationMode;
    fj::Flame flame;
    fj::Xform a;
    a.weight = 1;
    a.variations = {use_of("swirl", 0.3, M::Pre),  use_of("blur", 0.2, M::Pre),    use_of("linear", 0.5),
                    use_of("julia", 0.25),         use_of("pre_blur", 0.1),        use_of("mobius", 2),
                    use_of("bwraps", 0.7, M::Post), use_of("sineblur", 0, M::Post)};
    a.post.c = 0.5;
    fj::Xform b;
    b.weight = 3;
    b.color = 0.75;
    b.variations = {use_of("oscilloscope", -1, M::Pre), use_of("spherical", 0.5, M::Post)};
    b.chaos = {1.0, 0.5};
    flame.xforms = {a, b};
    flame.has_final = true;
    flame.final_xform.variations = {use_of("spherical", 1)};
    const fj::KernelKey key = fj::make_kernel_key(flame, {});
    REQUIRE(key.xaos);
    const double camera[6] = {2, 0, 1, 0, 2, 3};
    const std::vector<float> block = fj::pack_switch_params(flame, key, registry, camera);
    const fj::ParamLayout layout = fj::make_param_layout(key, registry);
    const std::vector<float> spec = fj::pack_params(flame, key, layout, camera);

    using L = fj::SwitchLayout;
    for (int i = 0; i < fj::ParamLayout::kCameraSize; ++i) CHECK(block[i] == spec[fj::ParamLayout::kCamera + i]);
    CHECK(block[6] == 1.0f);  // the camera's first shift, whole
    CHECK(block[L::kCount] == 2.0f);
    for (int i = 0; i < 1024; ++i) CHECK(block[L::kPalette + i] == spec[layout.palette + i]);
    const int select = static_cast<int>(block[L::kSelect]);
    for (int i = 0; i < 2 * 3; ++i) CHECK(block[select + i] == spec[layout.select + i]);
    CHECK(block[static_cast<int>(block[L::kAccept]) + 5] == spec[layout.accept + 5]);

    // Reads the records back the way fj_switch_xform does.
    auto check_record = [&](int at, const fj::Xform& xf, const fj::XformLayout& x) {
        REQUIRE(at > 0);
        REQUIRE(at + L::kFirstSlot <= static_cast<int>(block.size()));
        for (int k = 0; k < fj::XformLayout::kVariations; ++k) CHECK(block[at + k] == spec[x.base + k]);
        CHECK(block[at + L::kHasPost] == (xf.post.is_identity() ? 0.0f : 1.0f));
        const int pre = static_cast<int>(block[at + L::kPreSlots]), slots = static_cast<int>(block[at + L::kSlots]),
                  post = static_cast<int>(block[at + L::kPostSlots]);
        CHECK(pre + slots + post == static_cast<int>(xf.variations.size()));
        const bool regular = std::any_of(xf.variations.begin(), xf.variations.end(),
                                         [](const fj::VariationUse& u) { return u.mode == M::Regular; });
        CHECK(block[at + L::kPassesPoint] == (pre > 0 && !regular ? 1.0f : 0.0f));
        // Expected order: flam3's pre_blur, Pre uses, Regular, Post (each in list order).
        std::vector<const fj::VariationUse*> order;
        for (const auto& u : xf.variations)
            if (u.mode == M::Regular && registry.by_id(u.id)->pre) order.push_back(&u);
        for (M m : {M::Pre, M::Regular, M::Post})
            for (const auto& u : xf.variations)
                if (u.mode == m && !(m == M::Regular && registry.by_id(u.id)->pre)) order.push_back(&u);
        int s = at + L::kFirstSlot;
        for (const fj::VariationUse* u : order) {
            const fj::VariationInfo* info = registry.by_id(static_cast<int>(block[s]));
            REQUIRE(info);
            CHECK(info->id == u->id);
            CHECK(block[s + 1] == static_cast<float>(u->weight));
            // Replaces: a Pre or Post use of non-zero weight whose variation does not sum.
            const bool sets = u->mode != M::Regular && !info->pre_post_sum && u->weight != 0;
            CHECK_MESSAGE(block[s + 2] == (sets ? 1.0f : 0.0f), info->name);
            for (size_t p = 0; p < info->params.size(); ++p) CHECK(block[s + 3 + p] == static_cast<float>(u->params[p]));
            s += 3 + static_cast<int>(info->params.size());
        }
    };
    const int records = static_cast<int>(block[L::kRecords]);
    check_record(static_cast<int>(block[records + 0]), flame.xforms[0], layout.xforms[0]);
    check_record(static_cast<int>(block[records + 1]), flame.xforms[1], layout.xforms[1]);
    check_record(static_cast<int>(block[L::kFinal]), flame.final_xform, layout.final_xform);
}
