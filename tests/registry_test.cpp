// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <filesystem>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "codegen/variation_registry.h"
#include "cpu/variation_table.h"
#include "test_support.h"

TEST_CASE("registry: every embedded variation has a host function") {
    const auto& reg = fj::VariationRegistry::standard();
    REQUIRE(!reg.all().empty());
    for (const auto& v : reg.all()) CHECK_MESSAGE(fj::cpu::find_variation(v.name), v.name);
    CHECK(reg.all().size() == static_cast<size_t>(fj::cpu::variation_count()));
}

namespace {

// A snippet folder holding one variation file with `annotations` before its
// definition (of `body`); the registry's error when loading it ("" when it loads).
std::string load_error(const std::string& annotations, const std::string& body = "{}") {
    const std::string dir = fj::test::scratch_dir("registry");
    std::filesystem::create_directories(dir + "/variations");
    fj::test::write_file(dir + "/variations/probe.h", "// @variation probe\n// @id 1500\n// @origin test\n" +
                                                          annotations + "FJ_VARIATION(probe) " + body + "\n");
    try {
        fj::VariationRegistry::load(fj::SnippetSource::from_directory(dir));
    } catch (const std::runtime_error& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("registry: annotations load, and names that would read as another use or parameter are refused") {
    CHECK(load_error("// @param probe_a 1\n// @assign sum\n") == "");
    // Fractorium's pre_ and post_ mark a use's mode on parameter names.
    CHECK(load_error("// @param pre_a 1\n").find("pre_ and post_") != std::string::npos);
    CHECK(load_error("// @param probe_a 1\n// @alias post_a probe_a\n").find("pre_ and post_") != std::string::npos);
    CHECK(load_error("// @ignored pre_z\n").find("pre_ and post_") != std::string::npos);
    CHECK(load_error("// @assign set\n").find("@assign") != std::string::npos);
    CHECK(load_error("// @param probe_a 1\n// @ignored probe_a\n").find("also a @param") != std::string::npos);
}

TEST_CASE("registry: only a variation annotated @color may touch the colour index, and it must set it") {
    CHECK(load_error("// @color\n", "{ color = 0.5f; }") == "");
    CHECK(load_error("", "{ color = 0.5f; }").find("without @color") != std::string::npos);
    CHECK(load_error("// @color\n", "{ ox += w; }").find("never assigns") != std::string::npos);
    // The standard set: Fractorium's direct-colour variations, falloff2 and
    // pixel_flow, none of flam3's.
    for (const auto& v : fj::VariationRegistry::standard().all()) {
        const bool direct = v.name.starts_with("dc_") || v.name == "falloff2" || v.name == "pixel_flow";
        CHECK_MESSAGE(v.writes_color == direct, v.name);
    }
}

TEST_CASE("registry: what a snippet reads of VarIn comes from its code, comments aside") {
    CHECK(fj::var_in_reads("{ ox += w * in.x; oy += w * in.y / in.r2; }") == 0u);
    CHECK(fj::var_in_reads("{ ox += in.r2 + in.r; }") == FJ_READS_R);
    CHECK(fj::var_in_reads("{ ox += in.theta; oy += in . phi; }") == (FJ_READS_THETA | FJ_READS_PHI));
    CHECK(fj::var_in_reads("{ ox += in.sina * in.cosa; }") == FJ_READS_RATIOS);
    CHECK(fj::var_in_reads("// reads in.theta in flam3\n{ ox += in.x; /* in.phi */ }") == 0u);
    CHECK(fj::var_in_reads("{ int index = 0; float inner = 1.0f, b = a.in; ox += index + inner + b; }") == 0u);
    // `in` whole, or a field this does not know: everything.
    const unsigned all = FJ_READS_ALL;
    CHECK(fj::var_in_reads("{ ox += fj::helper(in, p); }") == all);
    CHECK(fj::var_in_reads("{ const fj::VarIn& v = in; ox += v.x; }") == all);
    CHECK(fj::var_in_reads("{ ox += in.mystery; }") == all);

    const auto& reg = fj::VariationRegistry::standard();
    CHECK(reg.by_name("linear")->reads == 0u);
    CHECK(reg.by_name("spherical")->reads == 0u);
    CHECK(reg.by_name("julian")->reads == FJ_READS_PHI);
    CHECK(reg.by_name("swirl")->reads == 0u);
    CHECK(reg.by_name("polar")->reads == (FJ_READS_R | FJ_READS_THETA));
    CHECK(reg.by_name("edisc")->reads == all);  // hands `in` to a shared helper
}

// The stitcher's shared prologue (FJ_SHARED_PROLOGUE) computes only the
// fields an xform's variations read, as the registry found them; a field
// missed would read 0. Every variation, at random points, affines and
// parameters (and its defaults), must give the same bits either way.
TEST_CASE("registry: every variation gives the same values from a VarIn holding only what it reads") {
    const auto& reg = fj::VariationRegistry::standard();
    fj::Rng pick = fj::make_rng(20261127, 1);
    const auto uniform = [&](float lo, float hi) { return lo + (hi - lo) * fj::rand01(pick); };
    const auto same = [](float a, float b) { return a == b || (a != a && b != b); };
    for (const auto& v : reg.all()) {
        const fj::cpu::VariationEntry* entry = fj::cpu::find_variation(v.name);
        REQUIRE_MESSAGE(entry, v.name);
        int differ = 0;
        for (int trial = 0; trial < 64; ++trial) {
            std::vector<float> params;
            for (const auto& p : v.params)
                params.push_back(trial == 0 ? static_cast<float>(p.default_value) : uniform(-3.0f, 3.0f));
            params.resize(params.size() + 1);  // never empty
            const fj::Affine aff = {uniform(-1, 1), uniform(-1, 1), uniform(-1, 1),
                                    uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
            const float x = trial % 8 == 1 ? 0.0f : uniform(-2, 2), y = trial % 8 == 2 ? 0.0f : uniform(-2, 2);
            const float w = uniform(0.1f, 1.5f), color0 = uniform(0, 1);
            const fj::Rng rng0 = fj::make_rng(7, trial);
            float out[2][3];
            for (int shape = 0; shape < 2; ++shape) {
                const fj::VarIn in = shape == 0 ? fj::make_var_in(x, y, &aff)
                                                : fj::make_var_in_reading(x, y, &aff, v.reads);
                fj::Rng rng = rng0;
                float ox = 0.25f, oy = -0.5f, color = color0;
                entry->fn(in, params.data(), w, rng, ox, oy, color);
                out[shape][0] = ox;
                out[shape][1] = oy;
                out[shape][2] = color;
            }
            for (int k = 0; k < 3; ++k) differ += !same(out[0][k], out[1][k]);
        }
        CHECK_MESSAGE(differ == 0, v.name << " reads more of VarIn than the registry found (" << v.reads << ")");
    }
}

TEST_CASE("registry: every variation returns for every point, with parameters at extremes too") {
    // A variation must come back from each point whatever extreme parameters
    // make of it (NaN or infinity included, which the iteration then
    // replaces), never loop on. nBlur's side and stripe counts of 10^30 once
    // spun its loops forever. (A regression hangs here until ctest's timeout.)
    const std::vector<float>& extremes = fj::test::extreme_parameter_values();
    const float points[][2] = {{0.3f, 0.2f}, {0, 0}, {-1e6f, 1e6f}, {1e-30f, -2}};
    std::mt19937 gen(4848);
    fj::Rng rng = fj::make_rng(4848, 0);
    static const fj::Affine identity{1, 0, 0, 0, 1, 0};
    long long calls = 0;
    for (const fj::VariationInfo& info : fj::VariationRegistry::standard().all()) {
        const fj::cpu::VariationEntry* entry = fj::cpu::find_variation(info.name);
        REQUIRE_MESSAGE(entry, info.name);
        for (int set = 0; set < 24; ++set) {
            std::vector<float> p(info.params.size());
            for (float& v : p) v = extremes[gen() % extremes.size()];
            for (const auto& xy : points) {
                float ox = 0, oy = 0, c = 0.5f;
                entry->fn(fj::make_var_in(xy[0], xy[1], &identity), p.data(), set % 2 ? 1.0f : -0.7f, rng, ox, oy, c);
                ++calls;
            }
        }
    }
    CHECK(calls == static_cast<long long>(fj::VariationRegistry::standard().all().size()) * 24 * 4);
}
