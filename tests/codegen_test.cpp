// SPDX-License-Identifier: GPL-3.0-or-later
// Kernel key, parameter layout and stitcher: structure in, readable source out.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <utility>

extern "C" {
#include <flam3.h>
}

#include "codegen/param_layout.h"
#include "codegen/stitcher.h"
#include "codegen/switch_kernel.h"
#include "errors.h"
#include "pipeline/frame_structure.h"
#include "pipeline/prepared_frame.h"
#include "test_support.h"

namespace {

fj::Xform make_xform(std::initializer_list<const char*> names, double weight) {
    const auto& reg = fj::VariationRegistry::standard();
    fj::Xform xf;
    xf.weight = weight;
    for (const char* name : names) {
        const fj::VariationInfo* info = reg.by_name(name);
        REQUIRE_MESSAGE(info, name);
        fj::VariationUse use;
        use.id = info->id;
        use.weight = 0.5;
        for (const auto& p : info->params) use.params.push_back(p.default_value);
        xf.variations.push_back(use);
    }
    return xf;
}

fj::Flame sample_flame() {
    fj::Flame f;
    f.xforms.push_back(make_xform({"linear", "spherical"}, 1.0));
    f.xforms.push_back(make_xform({"julia"}, 2.0));
    f.xforms.back().post.c = 0.25;
    f.has_final = true;
    f.final_xform = make_xform({"spherical"}, 0.0);
    return f;
}

}  // namespace

TEST_CASE("kernel key: values do not change the key, structure does") {
    fj::Flame a = sample_flame();
    fj::Flame b = a;
    b.xforms[0].weight = 7;
    b.xforms[0].affine.a = 0.3;
    b.xforms[1].variations[0].weight = -2;
    b.palette[3].r = 0.5;
    const fj::KernelOptions opt;
    CHECK(fj::make_kernel_key(a, opt) == fj::make_kernel_key(b, opt));
    CHECK(fj::make_kernel_key(a, opt).canonical() == fj::make_kernel_key(b, opt).canonical());

    fj::Flame c = a;
    c.xforms[0].post.f = 1;  // a post affine appears
    CHECK_FALSE(fj::make_kernel_key(a, opt) == fj::make_kernel_key(c, opt));
    fj::Flame d = a;
    d.has_final = false;
    CHECK(fj::make_kernel_key(a, opt).canonical() != fj::make_kernel_key(d, opt).canonical());
    fj::KernelOptions other = opt;
    other.shuffle = fj::Shuffle::Divergent;
    CHECK(fj::make_kernel_key(a, opt).canonical() != fj::make_kernel_key(a, other).canonical());
}

TEST_CASE("kernel key: a flame of more xforms than a point's state can name is an input error") {
    fj::Flame f = sample_flame();
    while (f.xforms.size() < static_cast<size_t>(fj::kMaxXforms)) f.xforms.push_back(f.xforms[0]);
    CHECK(fj::make_kernel_key(f, {}).xforms.size() == static_cast<size_t>(fj::kMaxXforms));
    f.xforms.push_back(f.xforms[0]);  // from a reader that does not check, e.g. an interpolation
    CHECK_THROWS_AS(fj::make_kernel_key(f, {}), fj::InputError);
}

TEST_CASE("kernel key: the sorted exchange's shared memory over 48 KiB, or the switch kernel, is an input error") {
    // 5 words a thread and 2 per xform and warp: at 1024 threads, 112 xforms
    // fill the 49152 bytes (20480 + 28672) and 113 do not fit.
    fj::Flame f = sample_flame();
    while (f.xforms.size() < 112) f.xforms.push_back(f.xforms[0]);
    fj::KernelOptions options;
    options.shuffle = fj::Shuffle::Sorted;
    options.block_size = 1024;
    CHECK(fj::make_kernel_key(f, options).xforms.size() == 112u);
    f.xforms.push_back(f.xforms[0]);
    CHECK_THROWS_WITH_AS(fj::make_kernel_key(f, options),
                         doctest::Contains("113 xforms in blocks of 1024 threads need 49408 bytes"), fj::InputError);
    options.block_size = 256;
    CHECK(fj::make_kernel_key(f, options).xforms.size() == 113u);
    options.block_size = 1024;
    options.shuffle = fj::Shuffle::Ring;
    CHECK(fj::make_kernel_key(f, options).xforms.size() == 113u);
    // The switch kernel's xform count is a value: its tables have no size.
    options.shuffle = fj::Shuffle::Sorted;
    options.block_size = 256;
    options.form = fj::KernelForm::Switch;
    CHECK_THROWS_WITH_AS(fj::make_kernel_key(f, options), doctest::Contains("not with --kernel switch"),
                         fj::InputError);
}

TEST_CASE("kernel key: every accumulation mode has its own key, name and code switch") {
    const auto& reg = fj::VariationRegistry::standard();
    const fj::Flame f = sample_flame();
    std::set<std::string> keys;
    const std::pair<fj::Accumulation, const char*> modes[] = {
        {fj::Accumulation::Atomic, "ATOMIC"}, {fj::Accumulation::Scalar, "SCALAR"},
        {fj::Accumulation::Warp, "WARP"},     {fj::Accumulation::Shared, "SHARED"},
        {fj::Accumulation::Packed, "PACKED"}, {fj::Accumulation::None, "NONE"}};
    for (const auto& [acc, macro] : modes) {
        CAPTURE(fj::to_string(acc));
        fj::Accumulation parsed = fj::Accumulation::None;
        REQUIRE(fj::parse_accumulation(fj::to_string(acc), &parsed));
        CHECK(parsed == acc);
        fj::KernelOptions opt;
        opt.accumulation = acc;
        const fj::KernelKey key = fj::make_kernel_key(f, opt);
        keys.insert(key.canonical());
        const std::string src =
            fj::stitch_kernel(key, fj::make_param_layout(key, reg), reg, fj::SnippetSource::standard());
        CHECK(src.find(std::string("#define FJ_ACCUM_") + macro + " 1") != std::string::npos);
        // The modes' code comes before the kernels that call it.
        const size_t modes_at = src.find("// ---- iterate/accumulate.cuh");
        const size_t kernels_at = src.find("// ---- iterate/iterate_kernel.cuh");
        CHECK(modes_at != std::string::npos);
        CHECK(kernels_at != std::string::npos);
        CHECK(modes_at < kernels_at);
    }
    CHECK(keys.size() == 6);
    // The default keeps its old text, so existing cache keys stay valid.
    CHECK(fj::make_kernel_key(f, {}).canonical().find("accumulate") == std::string::npos);
    fj::Accumulation unused;
    CHECK_FALSE(fj::parse_accumulation("lossy", &unused));
}

TEST_CASE("param layout: records do not overlap and the block holds every value") {
    const auto& reg = fj::VariationRegistry::standard();
    const fj::Flame f = sample_flame();
    const fj::KernelKey key = fj::make_kernel_key(f, {});
    const fj::ParamLayout layout = fj::make_param_layout(key, reg);
    CHECK(layout.palette == layout.select + 2);
    CHECK(layout.xforms[0].base == layout.palette + 1024);
    CHECK(layout.xforms[1].base == layout.xforms[0].base + layout.xforms[0].size);
    CHECK(layout.final_xform.base == layout.xforms[1].base + layout.xforms[1].size);
    CHECK(layout.total == layout.final_xform.base + layout.final_xform.size);

    const double camera[6] = {2, 0, 10.25, 0, 2, -20.5};
    const std::vector<float> block = fj::pack_params(f, key, layout, camera);
    REQUIRE(static_cast<int>(block.size()) == layout.total);
    // The shifts as fraction and whole part (iterate/common.h camera_xy).
    CHECK(block[0] == 2.0f);
    CHECK(block[2] == 0.25f);
    CHECK(block[5] == 0.5f);
    CHECK(block[6] == 10.0f);
    CHECK(block[7] == -21.0f);
    // Cumulative weights 1/3, 1, on flam3's 16384-entry grain.
    CHECK(block[layout.select] == doctest::Approx(5462.0 / 16384.0));
    CHECK(block[layout.select + 1] == 1.0f);
    const auto& x1 = layout.xforms[1];
    CHECK(block[x1.base + fj::XformLayout::kPost + 2] == 0.25f);
    CHECK(block[x1.base + x1.weight_offset[0]] == 0.5f);
    // Visibility of opacity 0.5 is 0.1 in flam3 (adjust_percentage).
    fj::Flame g = f;
    g.xforms[0].opacity = 0.5;
    const auto block2 = fj::pack_params(g, key, layout, camera);
    CHECK(block2[layout.xforms[0].base + fj::XformLayout::kVisibility] == doctest::Approx(0.1));
    // A frame's count channel and time steps and a benchmark's atomic
    // ceiling are switches of the module, not structure: the same flame
    // packs the same block, and the key's text names them.
    for (bool fj::KernelKey::*flag :
         {&fj::KernelKey::density_count, &fj::KernelKey::time_steps, &fj::KernelKey::atomic_ceiling}) {
        fj::KernelKey switched = key;
        switched.*flag = true;
        CHECK(fj::pack_params(f, switched, layout, camera) == block);
        CHECK(switched.canonical() != key.canonical());
        const std::string source =
            fj::stitch_kernel(switched, layout, fj::VariationRegistry::standard(), fj::SnippetSource::standard());
        CHECK(source != fj::stitch_kernel(key, layout, fj::VariationRegistry::standard(), fj::SnippetSource::standard()));
    }
}

TEST_CASE("param layout: xaos rows, and a lazy proposal that keeps every row's distribution") {
    const auto& reg = fj::VariationRegistry::standard();
    fj::Flame f = sample_flame();
    f.xforms[0].chaos = {0.0, 1.0};  // after xform 0, only xform 1
    const fj::KernelKey key = fj::make_kernel_key(f, {});
    REQUIRE(key.xaos);
    const fj::ParamLayout layout = fj::make_param_layout(key, reg);
    CHECK(layout.select_rows == 3);
    const double camera[6] = {1, 0, 0, 0, 1, 0};
    const auto block = fj::pack_params(f, key, layout, camera);
    CHECK(block[layout.select + 2 + 0] == 0.0f);  // row 1: never xform 0
    CHECK(block[layout.select + 2 + 1] == 1.0f);
    // Proposal ∝ max over rows: m = (5462/16384, 1), M = 1 + 5462/16384.
    const double m0 = 5462.0 / 16384.0, mass = 1.0 + m0;
    CHECK(fj::xaos_proposal_mass(f) == doctest::Approx(mass));
    CHECK(block[layout.proposal] == doctest::Approx(m0 / mass));
    // For every row r and xform k: q(k) · accept(r, k) · M = p_r(k).
    for (int r = 0; r < 3; ++r) {
        const float* S = &block[layout.select + r * 2];
        const double p[2] = {S[0], 1.0 - S[0]};
        const double q[2] = {block[layout.proposal], 1.0 - block[layout.proposal]};
        for (int k = 0; k < 2; ++k)
            CHECK(q[k] * block[layout.accept + r * 2 + k] * mass == doctest::Approx(p[k]).epsilon(1e-6));
    }
    f.xforms[1].chaos = {0.0, 0.0};
    CHECK_THROWS(fj::pack_params(f, key, layout, camera));
}

TEST_CASE("param layout: a rare xform takes the lazy selection, proposed more often and accepted by each lane alone") {
    const auto& reg = fj::VariationRegistry::standard();
    fj::Flame f = sample_flame();
    REQUIRE(f.xforms.size() == 2);
    f.xforms[0].weight = 1;
    f.xforms[1].weight = 1;
    CHECK_FALSE(fj::has_rare_xform(f));
    CHECK_FALSE(fj::make_kernel_key(fj::spread_rare_xforms(f), {}).xaos);
    // p = (1 - 82/16384, 82/16384): under kSpreadBelow, so proposed at
    // min(1/16, 32 p) = 1/16 of the unnormalised mass.
    f.xforms[1].weight = 0.005;
    const auto p = fj::selection_probabilities({1.0, 0.005}, 0);
    REQUIRE(p[1] < fj::kSpreadBelow);
    CHECK(fj::has_rare_xform(f));
    const fj::Flame drawn = fj::spread_rare_xforms(f);
    const fj::KernelKey key = fj::make_kernel_key(drawn, {});
    CHECK(key.xaos);
    CHECK_FALSE(fj::make_kernel_key(f, {}).xaos);  // the flame itself is left as it was
    const double m1 = std::min(fj::kSpreadBelow, 32 * p[1]), mass = p[0] + m1;
    CHECK(fj::xaos_proposal_mass(f) == doctest::Approx(mass));
    CHECK(fj::rounds_per_step(f, key) == doctest::Approx(mass));
    const fj::ParamLayout layout = fj::make_param_layout(key, reg);
    const double camera[6] = {1, 0, 0, 0, 1, 0};
    const auto block = fj::pack_params(drawn, key, layout, camera);
    const double q[2] = {block[layout.proposal], 1.0 - block[layout.proposal]};
    CHECK(q[1] == doctest::Approx(m1 / mass).epsilon(1e-6));
    // A lane accepts the rare xform with p / m of its proposals, and every
    // row (all alike: the marker row packs as ones) keeps flam3's
    // probabilities.
    for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 2; ++k)
            CHECK(q[k] * block[layout.accept + r * 2 + k] * mass == doctest::Approx(p[k]).epsilon(1e-6));
    CHECK(block[layout.accept + 1] == doctest::Approx(p[1] / m1).epsilon(1e-6));
    // The still's frame takes it; its genome text does not.
    const fj::PreparedFrame frame = fj::prepare_still(f, {});
    CHECK(frame.key.xaos);
    CHECK_FALSE(frame.post_flame.has_xaos());
    // A zero weight (an animation's padding) is never drawn: not rare.
    f.xforms[1].weight = 0;
    CHECK_FALSE(fj::has_rare_xform(f));
}

TEST_CASE("selection probabilities equal libflam3's xform table, plain and with xaos") {
    // Weights chosen to land between table entries; row 1 uses chaos.
    const std::string xml =
        "<flame size=\"10 10\"><xform weight=\"0.3\" linear=\"1\" chaos=\"1 0.25 3\"/>"
        "<xform weight=\"0.0001\" linear=\"1\"/><xform weight=\"1.7\" linear=\"1\"/></flame>";
    std::string text = xml, name = "distrib.flam3";
    int count = 0;
    flam3_genome* cp = flam3_parse_xml2(text.data(), name.data(), flam3_defaults_on, &count);
    REQUIRE(count == 1);
    unsigned short* table = flam3_create_xform_distrib(cp);
    REQUIRE(table);
    const std::vector<double> weights{0.3, 0.0001, 1.7};
    const std::vector<double> chaos_row{0.3 * 1, 0.0001 * 0.25, 1.7 * 3};
    const std::vector<std::vector<double>> rows{weights, chaos_row};
    for (int r = 0; r < 2; ++r) {
        const auto p = fj::selection_probabilities(rows[r], r);
        int entries[3] = {0, 0, 0};
        for (int i = 0; i < 16384; ++i) ++entries[table[r * 16384 + i]];
        for (int k = 0; k < 3; ++k) CHECK_MESSAGE(std::abs(p[k] * 16384 - entries[k]) <= 1, "row " << r << " xform " << k);
    }
    free(table);
    clear_cp(cp, flam3_defaults_on);
    free(cp);
}

TEST_CASE("stitcher: one function per xform holding exactly its variations, no switch") {
    const auto& reg = fj::VariationRegistry::standard();
    const fj::Flame f = sample_flame();
    const fj::KernelKey key = fj::make_kernel_key(f, {});
    const std::string src =
        fj::stitch_kernel(key, fj::make_param_layout(key, reg), reg, fj::SnippetSource::standard());
    // No run-time dispatch over variations: the only switches pick the xform
    // (the shared prologue's two, the calls' and the inlined dispatch's).
    CHECK(fj::test::xform_switches(src) == 4);
    CHECK(fj::test::xform_switches("void fj_apply_xform() { switch (k) {} }") == 1);
    CHECK(fj::test::xform_switches("void fj_apply_xform() { switch (k) {} switch (v) {} }") == -1);
    CHECK(fj::test::xform_switches("switch (k) {} void fj_apply_xform() {}") == -1);
    CHECK(src.find("void fj_xform_0(") != std::string::npos);
    CHECK(src.find("void fj_xform_1(") != std::string::npos);
    CHECK(src.find("void fj_xform_2(") == std::string::npos);
    CHECK(src.find("void fj_apply_final(") != std::string::npos);
    // fj_iterate is compiled for a full SM of threads; the switch kernel is not.
    CHECK(src.find("#define FJ_FULL_OCCUPANCY 1") != std::string::npos);
    CHECK(fj::switch_kernel_source(key, reg, fj::SnippetSource::standard()).find("#define FJ_FULL_OCCUPANCY") ==
          std::string::npos);
    CHECK(src.find("FJ_VARIATION(julia)") != std::string::npos);
    // A variation the key does not use is not in the source.
    CHECK(src.find("FJ_VARIATION(julian)") == std::string::npos);
    // Values are not baked in: the post translation 0.25 appears nowhere.
    CHECK(src.find("0.25") == std::string::npos);
    const std::string dir = fj::test::scratch_dir("stitch");
    std::ofstream(dir + "/kernel.cu") << src;
    MESSAGE("stitched source: " << dir << "/kernel.cu");
}

TEST_CASE("stitcher: a linked kernel is a program of entry points calling one program per xform, and the seeding kernel's") {
    const auto& reg = fj::VariationRegistry::standard();
    fj::Flame f = sample_flame();
    f.xforms.push_back(make_xform({"julian", "spherical"}, 1.0));
    fj::KernelOptions linked;
    linked.form = fj::KernelForm::Linked;
    const fj::KernelKey key = fj::make_kernel_key(f, linked);
    // Its own key (and text), the form parsed back from its name.
    CHECK(key.canonical() == fj::make_kernel_key(f, {}).canonical() + " kernel=linked");
    fj::KernelForm parsed = fj::KernelForm::Specialized;
    CHECK(fj::parse_kernel_form("linked", &parsed));
    CHECK(parsed == fj::KernelForm::Linked);
    CHECK_FALSE(fj::parse_kernel_form("generic", &parsed));

    const fj::ParamLayout layout = fj::make_param_layout(key, reg);
    const fj::KernelPrograms programs = fj::kernel_programs(key, layout, reg, fj::SnippetSource::standard());
    REQUIRE(programs.sources.size() == 6);
    CHECK(programs.part_registers == 32);
    const std::string& main = programs.sources[0];
    // The iteration's entry points and a call per xform and for the final
    // xform; no variations, and no seeding kernel: that is the last program,
    // alone with the prologue, the same for every key.
    CHECK(main.find("fj_iterate(") != std::string::npos);
    CHECK(main.find("#define FJ_SEED_APART 1") != std::string::npos);
    const std::string& seed = programs.sources[5];
    CHECK(seed.find("extern \"C\" __global__ void fj_seed(") != std::string::npos);
    CHECK(seed.find("FJ_SEED_APART 1") == std::string::npos);
    CHECK(seed.find("fj_iterate") == std::string::npos);
    for (const char* name : {"linear", "spherical", "julia", "julian"})
        CHECK(seed.find(std::string("FJ_VARIATION(") + name + ")") == std::string::npos);
    fj::Flame other = f;
    other.xforms.pop_back();
    const fj::KernelKey other_key = fj::make_kernel_key(other, linked);
    CHECK(fj::kernel_programs(other_key, fj::make_param_layout(other_key, reg), reg, fj::SnippetSource::standard())
              .sources.back() == seed);
    for (const char* name : {"linear", "spherical", "julia", "julian"})
        CHECK(main.find(std::string("FJ_VARIATION(") + name + ")") == std::string::npos);
    CHECK(main.find("void fj_xform_") == std::string::npos);
    for (int i = 0; i < 3; ++i)
        CHECK(main.find("r = fj_linked_xform_" + std::to_string(i) + "(P, x, y, c, rng.state)") != std::string::npos);
    CHECK(main.find("r = fj_linked_final(P, x, y, c, rng.state)") != std::string::npos);
    // Each xform's program (the final one's last): its function and only its
    // variations, written as the specialized kernel writes them.
    const std::string specialized = fj::stitch_kernel(fj::make_kernel_key(f, {}), layout, reg,
                                                      fj::SnippetSource::standard());
    const std::vector<std::set<std::string>> uses = {
        {"linear", "spherical"}, {"julia"}, {"julian", "spherical"}, {"spherical"}};
    for (int i = 0; i < 4; ++i) {
        CAPTURE(i);
        const std::string& part = programs.sources[i + 1];
        const std::string fn = i < 3 ? "void fj_xform_" + std::to_string(i) + "(" : "void fj_apply_final(";
        CHECK(part.find(i < 3 ? "FjXformResult fj_linked_xform_" + std::to_string(i) + "("
                              : "FjXformResult fj_linked_final(") != std::string::npos);
        CHECK(part.find("fj_iterate") == std::string::npos);
        for (const char* name : {"linear", "spherical", "julia", "julian"})
            CHECK((part.find(std::string("FJ_VARIATION(") + name + ")") != std::string::npos) ==
                  (uses[i].count(name) == 1));
        const size_t at = part.find(fn), specialized_at = specialized.find(fn);
        REQUIRE(at != std::string::npos);
        REQUIRE(specialized_at != std::string::npos);
        const size_t length = part.find("\n}\n", at) - at;
        CHECK(part.substr(at, length) == specialized.substr(specialized_at, length));
    }
    // A motion-blurred kernel's fj_iterate asks for one block: the register
    // file over its threads, by eights.
    fj::KernelKey steps = key;
    steps.time_steps = true;
    CHECK(fj::linked_xform_registers(steps) == 255);
    steps.block_size = 1024;
    CHECK(fj::linked_xform_registers(steps) == 64);
    steps.block_size = 384;
    CHECK(fj::linked_xform_registers(steps) == 168);
    // A looser bound (fewer registers saved around each call): the xforms'
    // functions and the entry take it, and the key says so; the specialized
    // kernel's text and key do not change with it.
    fj::KernelOptions wide = linked;
    wide.linked_registers = 64;
    const fj::KernelKey wide_key = fj::make_kernel_key(f, wide);
    CHECK(wide_key.canonical() == key.canonical() + " registers=64");
    CHECK(wide_key != key);
    CHECK(fj::make_kernel_key(f, fj::kernel_options_of(wide_key)) == wide_key);  // what pack_params checks by
    const fj::KernelPrograms wide_programs =
        fj::kernel_programs(wide_key, layout, reg, fj::SnippetSource::standard());
    CHECK(wide_programs.part_registers == 64);
    CHECK(main.find("#define FJ_LINKED_REGISTERS 32\n") != std::string::npos);
    CHECK(wide_programs.sources[0].find("#define FJ_LINKED_REGISTERS 64\n") != std::string::npos);
    fj::KernelOptions specialized_wide;
    specialized_wide.linked_registers = 64;
    CHECK(fj::make_kernel_key(f, specialized_wide).canonical() == fj::make_kernel_key(f, {}).canonical());
    CHECK(specialized.find("#define FJ_LINKED_REGISTERS") == std::string::npos);
    // Bounds that leave room for a block of the key's size, by eights.
    CHECK(fj::valid_linked_registers(32, 1024));
    CHECK(fj::valid_linked_registers(64, 1024));
    CHECK_FALSE(fj::valid_linked_registers(72, 1024));
    CHECK(fj::valid_linked_registers(128, 512));
    CHECK_FALSE(fj::valid_linked_registers(136, 256));
    CHECK_FALSE(fj::valid_linked_registers(24, 256));
    CHECK_FALSE(fj::valid_linked_registers(60, 256));
    // For people to read: every program, under its banner.
    const std::string text = fj::kernel_source(key, layout, reg, fj::SnippetSource::standard());
    CHECK(text.find("// ==== program 6 of 6") != std::string::npos);
    CHECK(text.find(programs.sources[5]) != std::string::npos);
}

TEST_CASE("stitcher: a shared helper comes with the snippets that include it, once, after its own helpers") {
    const auto& reg = fj::VariationRegistry::standard();
    auto stitched = [&](std::initializer_list<const char*> names) {
        fj::Flame f;
        f.xforms.push_back(make_xform(names, 1.0));
        const fj::KernelKey key = fj::make_kernel_key(f, {});
        return fj::stitch_kernel(key, fj::make_param_layout(key, reg), reg, fj::SnippetSource::standard());
    };
    const auto count = [](const std::string& text, const std::string& what) {
        size_t n = 0;
        for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
        return n;
    };
    // flam3's variations need none of them.
    CHECK(count(stitched({"linear", "julia"}), "// ---- shared/") == 0);
    // crackle includes the noise, which includes the hashes; crackle2 and
    // dust include the hashes themselves: each is written once, the hashes
    // first, both before the first variation.
    const std::string src = stitched({"crackle", "crackle2", "dust"});
    CHECK(count(src, "// ---- shared/hashes.h") == 1);
    CHECK(count(src, "// ---- shared/noise.h") == 1);
    CHECK(count(src, "FJ_HD FJ_INLINE float simplex_noise(") == 1);
    CHECK(src.find("// ---- shared/hashes.h") < src.find("// ---- shared/noise.h"));
    CHECK(src.find("// ---- shared/noise.h") < src.find("// ---- variations/"));
    CHECK(src.find("#include \"shared/") == std::string::npos);
    // jac_sn brings only its own helper.
    const std::string jac = stitched({"jac_sn"});
    CHECK(count(jac, "// ---- shared/") == 1);
    CHECK(count(jac, "// ---- shared/jacobi.h") == 1);
}
