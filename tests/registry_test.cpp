// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

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
    // The standard set: Fractorium's direct-colour variations and falloff2,
    // none of flam3's.
    for (const auto& v : fj::VariationRegistry::standard().all()) {
        const bool direct = v.name.starts_with("dc_") || v.name == "falloff2";
        CHECK_MESSAGE(v.writes_color == direct, v.name);
    }
}
