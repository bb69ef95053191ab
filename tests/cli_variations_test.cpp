// flamejit — `flamejit variations` lists exactly the registry, named as flam3's own table.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <sstream>
#include <string>

extern "C" {
#include <flam3.h>
}

#include "codegen/variation_registry.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

std::string flamejit(const std::string& args) {
    std::string command = "'";
    command += fj::test::flamejit_binary();
    command += "' ";
    return command + args;
}

nlohmann::json listing(const std::string& args) {
    const auto r = run_command(flamejit("variations --json " + args) + " 2>/dev/null");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    return nlohmann::json::parse(r.output);
}

const nlohmann::json& entry(const nlohmann::json& list, const std::string& name) {
    for (const auto& v : list["variations"])
        if (v["name"] == name) return v;
    FAIL("no entry " << name);
    return list;
}

}  // namespace

TEST_CASE("cli variations: the JSON listing is the registry, entry for entry") {
    const auto& registry = fj::VariationRegistry::standard();
    const nlohmann::json list = listing("");
    REQUIRE(list["count"] == registry.all().size());
    REQUIRE(list["variations"].size() == registry.all().size());
    int flam3 = 0;
    for (size_t i = 0; i < registry.all().size(); ++i) {
        const fj::VariationInfo& info = registry.all()[i];
        const nlohmann::json& v = list["variations"][i];
        CAPTURE(info.name);
        CHECK(v["id"] == info.id);
        CHECK(v["name"] == info.name);
        CHECK(v["random_draws"] == info.random_draws);
        CHECK(v["pre"] == info.pre);
        CHECK(v["origin"] == info.origin);
        if (info.from_flam3()) {
            ++flam3;
            CHECK(v["origin"] == "flam3 3.1.1");
        }
        REQUIRE(v["ignored"].size() == info.ignored.size());
        for (size_t k = 0; k < info.ignored.size(); ++k) {
            CHECK(v["ignored"][k]["name"] == info.ignored[k].name);
            CHECK(v["ignored"][k].contains("only") == !info.ignored[k].any_value);
        }
        REQUIRE(v["params"].size() == info.params.size());
        for (size_t p = 0; p < info.params.size(); ++p) {
            CHECK(v["params"][p]["name"] == info.params[p].name);
            CHECK(v["params"][p]["default"].get<double>() == info.params[p].default_value);
        }
        REQUIRE(v["aliases"].size() == info.aliases.size());
        for (size_t a = 0; a < info.aliases.size(); ++a) {
            CHECK(v["aliases"][a]["alias"] == info.aliases[a].first);
            CHECK(v["aliases"][a]["param"] == info.aliases[a].second);
        }
    }
    CHECK(flam3 == 99);
}

TEST_CASE("cli variations: ids and names are flam3's own table (libflam3 flam3_variation_names)") {
    const nlohmann::json list = listing("");
    // flam3's come first, in flam3's order; other renderers' follow.
    REQUIRE(list["variations"].size() >= flam3_nvariations);
    for (int id = 0; id < flam3_nvariations; ++id) {
        CAPTURE(id);
        CHECK(list["variations"][id]["id"] == id);
        CHECK(list["variations"][id]["name"] == std::string(flam3_variation_names[id]));
    }
}

TEST_CASE("cli variations: flam3's parameter spellings, aliases and flags") {
    const nlohmann::json list = listing("");
    // mobius: flam3 reads Re_A, Im_A, ... Im_D.
    const auto& mobius = entry(list, "mobius");
    REQUIRE(mobius["params"].size() == 8);
    const char* parts[] = {"re_a", "im_a", "re_b", "im_b", "re_c", "im_c", "re_d", "im_d"};
    const char* aliases[] = {"Re_A", "Im_A", "Re_B", "Im_B", "Re_C", "Im_C", "Re_D", "Im_D"};
    for (int i = 0; i < 8; ++i) {
        CHECK(mobius["params"][i]["name"] == std::string("mobius_") + parts[i]);
        CHECK(mobius["params"][i]["default"] == 0.0);
        CHECK(mobius["aliases"][i]["alias"] == aliases[i]);
        CHECK(mobius["aliases"][i]["param"] == std::string("mobius_") + parts[i]);
    }
    // oscilloscope: flam3 reads oscope_*; its frequency defaults to π.
    const auto& osc = entry(list, "oscilloscope");
    REQUIRE(osc["aliases"].size() == 4);
    for (const auto& a : osc["aliases"]) {
        const std::string alias = a["alias"], param = a["param"];
        CHECK(alias.rfind("oscope_", 0) == 0);
        CHECK(param == "oscilloscope_" + alias.substr(7));
    }
    CHECK(std::fabs(osc["params"][1]["default"].get<double>() - M_PI) < 1e-12);
    // pre_blur is the one pre-variation; julia draws its random bit.
    int pre = 0;
    for (const auto& v : list["variations"]) pre += v["pre"].get<bool>();
    CHECK(pre == 1);
    CHECK(entry(list, "pre_blur")["pre"] == true);
    // What Fractorium's pre_ and post_ uses do: blurs add, the rest replace;
    // a pre-variation has none, nor has one that reads the sum before it.
    CHECK(entry(list, "pre_blur")["pre_post"].is_null());
    CHECK(entry(list, "gaussian_blur")["pre_post"] == "add");
    CHECK(entry(list, "spherical")["pre_post"] == "replace");
    CHECK(entry(list, "dc_linear")["pre_post"].is_null());
    // Direct colour: Fractorium's dc_ variations and falloff2, none of flam3's.
    CHECK(entry(list, "dc_gridout")["writes_color"] == true);
    CHECK(entry(list, "falloff2")["writes_color"] == true);
    CHECK(entry(list, "spherical")["writes_color"] == false);
    CHECK(entry(list, "log")["ignored"][0]["name"] == "log_base");
    CHECK(entry(list, "pre_blur")["also"] == nlohmann::json::array({"pre_gaussian_blur"}));
    CHECK(entry(list, "mobius")["also"] == nlohmann::json::array({"Mobius"}));
    CHECK(entry(list, "linear")["also"].empty());
    CHECK(entry(list, "linear3D")["origin"].get<std::string>().rfind("Fractorium", 0) == 0);
    CHECK(entry(list, "julia")["random_draws"].get<int>() >= 1);
    CHECK(entry(list, "linear")["random_draws"] == 0);
    CHECK(entry(list, "super_shape")["params"].size() == 6);
}

TEST_CASE("cli variations: text listing, selection, help and a bad name") {
    const auto& registry = fj::VariationRegistry::standard();
    const auto all = run_command(flamejit("variations"));
    REQUIRE(all.status == 0);
    // One line per variation starting with its id, right-aligned to the
    // widest, and its name.
    const size_t width = std::to_string(registry.all().back().id).size();
    for (const fj::VariationInfo& v : registry.all()) {
        std::ostringstream start;
        start << "\n" << std::setw(static_cast<int>(width)) << v.id << "  " << v.name << " ";
        CHECK_MESSAGE(all.output.find(start.str()) != std::string::npos, v.name);
    }
    CHECK(all.output.find("Re_A = mobius_re_a") != std::string::npos);

    const nlohmann::json some = listing("98 julia 0");
    REQUIRE(some["count"] == 3);
    CHECK(some["variations"][0]["name"] == "linear");
    CHECK(some["variations"][1]["name"] == "julia");
    CHECK(some["variations"][2]["name"] == "mobius");

    const auto help = run_command(flamejit("variations --help"));
    CHECK(help.status == 0);
    CHECK(help.output.find("usage") != std::string::npos);

    const auto bad = run_command(flamejit("variations frobnicate"));
    CHECK(bad.status == 2);
    CHECK(bad.output.find("frobnicate") != std::string::npos);
    CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 1);
    CHECK(run_command(flamejit("variations --frobnicate")).status == 2);
}
