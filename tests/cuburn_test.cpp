// flamejit — cuburn JSON nodes and profiles, checked against the flam3 XML they were made from.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The corpus holds the same eight Electric Sheep as flam3 XML and as cuburn
// nodes (cuburn converted them). Read through the two readers, every value
// cuburn carries must agree: xform weights, colours, affines (cuburn stores
// them in polar form, y flipped, to 6 significant digits), variations and
// parameters, camera, tone values and the palette.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <tuple>

#include "errors.h"
#include "genome/cuburn_reader.h"
#include "genome/flam3_reader.h"
#include "genome/interpolate.h"
#include "genome/sequence.h"
#include "image/png_io.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

using fj::test::quoted;

// %.6g keeps 6 significant digits: relative 1e-5 of the affine's scale.
bool close(double a, double b, double scale) { return std::fabs(a - b) <= 2e-5 * std::max(1.0, scale); }

void compare_xform(const std::string& where, const fj::Xform& json, const fj::Xform& xml) {
    CHECK_MESSAGE(json.weight == doctest::Approx(xml.weight), where << " weight");
    CHECK_MESSAGE(json.color == doctest::Approx(xml.color), where << " color");
    CHECK_MESSAGE(json.color_speed == doctest::Approx(xml.color_speed), where << " color_speed");
    CHECK_MESSAGE(json.opacity == doctest::Approx(xml.opacity), where << " opacity");
    for (const auto& [ours, theirs, what] : {std::tuple{&json.affine, &xml.affine, "coefs"}, std::tuple{&json.post, &xml.post, "post"}}) {
        const double a[6] = {ours->a, ours->b, ours->c, ours->d, ours->e, ours->f};
        const double b[6] = {theirs->a, theirs->b, theirs->c, theirs->d, theirs->e, theirs->f};
        double scale = 0;
        for (double v : b) scale = std::max(scale, std::fabs(v));
        for (int k = 0; k < 6; ++k)
            CHECK_MESSAGE(close(a[k], b[k], scale), where << " " << what << "[" << k << "] " << a[k] << " vs XML " << b[k]);
    }
    REQUIRE_MESSAGE(json.variations.size() == xml.variations.size(), where << " variation count");
    for (size_t v = 0; v < json.variations.size(); ++v) {
        CHECK(json.variations[v].id == xml.variations[v].id);
        CHECK(json.variations[v].weight == doctest::Approx(xml.variations[v].weight));
        REQUIRE(json.variations[v].params.size() == xml.variations[v].params.size());
        for (size_t p = 0; p < json.variations[v].params.size(); ++p)
            CHECK(json.variations[v].params[p] == doctest::Approx(xml.variations[v].params[p]).epsilon(2e-5));
    }
}

// The corpus's cuburn nodes; none there fails the test case.
std::vector<std::string> node_names() {
    std::vector<std::string> names;
    const std::string dir = fj::test::corpus_path("cuburn-flock/nodes");
    if (!fj::test::corpus_present("cuburn-flock/nodes")) return names;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string stem = e.path().stem().string();
        if (stem.find("-extended") == std::string::npos) names.push_back(stem);
    }
    std::sort(names.begin(), names.end());
    REQUIRE_MESSAGE(!names.empty(), "no cuburn nodes in " << dir);
    return names;
}

}  // namespace

TEST_CASE("cuburn: every corpus node reads as the flam3 XML sheep it was converted from") {
    const std::vector<std::string> names = node_names();
    fj::CuburnReadOptions options;
    options.profile_file = fj::test::corpus_path("cuburn-flock/profiles/1080p.json");
    for (const std::string& name : names) {
        CAPTURE(name);
        const auto json = fj::read_cuburn_file(fj::test::corpus_path("cuburn-flock/nodes/" + name + ".json"), options);
        const auto xml = fj::read_flam3_file(fj::test::corpus_path("electric-sheep/" + name + ".flam3"));
        REQUIRE(json.size() == 1);
        REQUIRE(xml.size() == 1);
        const fj::Flame& j = json[0];
        const fj::Flame& x = xml[0];
        CHECK(j.width == 1920);
        CHECK(j.height == 1080);
        CHECK(j.quality == 2500);
        // cuburn keeps the scale relative to the width.
        CHECK(j.scale / j.width == doctest::Approx(x.scale / x.width).epsilon(1e-5));
        CHECK(j.center_x == doctest::Approx(x.center_x));
        CHECK(j.center_y == doctest::Approx(x.center_y));
        CHECK(j.rotate == doctest::Approx(x.rotate));
        CHECK(j.gamma == doctest::Approx(x.gamma));
        CHECK(j.gamma_threshold == doctest::Approx(x.gamma_threshold));
        CHECK(j.vibrancy == doctest::Approx(x.vibrancy));
        CHECK(j.brightness == doctest::Approx(x.brightness));
        CHECK(j.estimator_radius == doctest::Approx(x.estimator_radius));
        CHECK(j.estimator_minimum == doctest::Approx(x.estimator_minimum));
        CHECK(j.estimator_curve == doctest::Approx(x.estimator_curve));
        CHECK(j.filter_radius == doctest::Approx(x.filter_radius));
        int palette_diffs = 0;
        for (int i = 0; i < 256; ++i)
            for (auto [a, b] : {std::pair{j.palette[i].r, x.palette[i].r}, std::pair{j.palette[i].g, x.palette[i].g},
                                std::pair{j.palette[i].b, x.palette[i].b}})
                palette_diffs += std::fabs(a - b) > 1e-9;
        CHECK(palette_diffs == 0);
        REQUIRE(j.xforms.size() == x.xforms.size());
        for (size_t i = 0; i < j.xforms.size(); ++i) compare_xform("xform " + std::to_string(i), j.xforms[i], x.xforms[i]);
        REQUIRE(j.has_final == x.has_final);
        if (j.has_final) compare_xform("final", j.final_xform, x.final_xform);
    }
}

TEST_CASE("cuburn: a node with a base is its base plus its own edits") {
    if (!fj::test::corpus_present("cuburn-flock/nodes")) return;
    const auto base = fj::read_cuburn_file(fj::test::corpus_path("cuburn-flock/nodes/electricsheep.244.00216.json"));
    const auto edited = fj::read_cuburn_file(fj::test::corpus_path("cuburn-flock/nodes/electricsheep.244.00216-extended.json"));
    REQUIRE(edited.size() == 1);
    REQUIRE(edited[0].xforms.size() == base[0].xforms.size());
    const int julia = fj::VariationRegistry::standard().by_name("julia")->id;
    double weight = 0;
    for (const auto& v : edited[0].xforms[0].variations)
        if (v.id == julia) weight = v.weight;
    CHECK(weight == doctest::Approx(0.02));
    CHECK(edited[0].xforms[0].variations.size() == base[0].xforms[0].variations.size() + 1);
    CHECK(edited[0].xforms[1].affine == base[0].xforms[1].affine);
}

TEST_CASE("cuburn: a node's loop as keyframes turns each animated xform once, evenly, between keyframes too") {
    const std::string node = R"({"type": "node", "name": "spin",
      "camera": {"scale": 0.25},
      "palette": ["rgb8", ")" + std::string(1024, 'A') + R"("],
      "time": {"duration": 0.5},
      "xforms": {
        "0": {"weight": 1, "pre_affine": {"angle": [30, -360], "spread": 40, "magnitude": {"x": 0.6, "y": 0.4},
              "offset": {"x": 0.1, "y": -0.2}}, "variations": {"linear": {"weight": 1}}},
        "1": {"weight": 0.5, "color": 1, "pre_affine": {"angle": 10}, "variations": {"spherical": {"weight": 1}}}}})";
    fj::CuburnReadOptions options;
    options.loop = true;
    const auto keys = fj::read_cuburn_string(node, "spin.json", ".", options);
    // 360° at ≤ 45° per keyframe: 8 steps over round(24 fps · 30 s · 0.5) = 360 frames.
    REQUIRE(keys.size() == 9);
    CHECK(keys.front().time == 0);
    CHECK(keys.back().time == 360);
    CHECK(keys[0].temporal_samples == 1024);
    std::vector<fj::Flame> seq = keys;
    CHECK_NOTHROW(fj::check_sequence(seq, "spin"));
    fj::CuburnReadOptions still;
    for (double frame : {0.0, 17.0, 45.0, 100.5, 359.0}) {
        CAPTURE(frame);
        // The node evaluated directly at this point of the loop...
        const std::string at = std::to_string(30 - 360 * frame / 360);
        std::string direct = node;
        direct.replace(direct.find("[30, -360]"), 10, at);
        const fj::Flame expect = fj::read_cuburn_string(direct, "spin.json", ".", still)[0];
        // ...equals the keyframes interpolated as flam3 does.
        const fj::Flame got = fj::interpolate(keys, frame);
        const fj::AffineD& a = got.xforms[0].affine;
        const fj::AffineD& b = expect.xforms[0].affine;
        for (auto [x, y] : {std::pair{a.a, b.a}, {a.b, b.b}, {a.c, b.c}, {a.d, b.d}, {a.e, b.e}, {a.f, b.f}})
            CHECK(x == doctest::Approx(y).epsilon(1e-9));
        CHECK(got.xforms[1].affine.a == doctest::Approx(expect.xforms[1].affine.a));
    }
}

TEST_CASE("cuburn: a loop warns once about velocities it holds still, and not about angles") {
    const std::string pal = R"("palette": ["rgb8", ")" + std::string(1024, 'A') + R"("])";
    const auto warnings = [&](const std::string& magnitude) {
        const std::string node = "{" + pal + R"(, "xforms": {"0": {"weight": 1, "pre_affine": {"angle": [30, -360],
            "magnitude": {"x": )" + magnitude + R"(}}, "variations": {"linear": {"weight": 1}}}}})";
        std::ostringstream captured;
        std::streambuf* old = std::cerr.rdbuf(captured.rdbuf());
        fj::CuburnReadOptions options;
        options.loop = true;
        try {
            fj::read_cuburn_string(node, "held.json", ".", options);
        } catch (...) {
            std::cerr.rdbuf(old);
            throw;
        }
        std::cerr.rdbuf(old);
        return captured.str();
    };
    const std::string held = warnings("[0.6, 0.2]");
    CHECK(held.rfind("warning: held.json: 1 non-angle value(s)", 0) == 0);
    CHECK(held.find("xforms.0.pre_affine.magnitude.x") != std::string::npos);
    CHECK(std::count(held.begin(), held.end(), '\n') == 1);
    CHECK(warnings("0.6") == "");
    CHECK(warnings("[0.6, 0]") == "");
}

TEST_CASE("cuburn: a node named without a folder finds its base from the current folder") {
    if (!fj::test::corpus_present("cuburn-flock/nodes")) return;
    const auto named = fj::read_cuburn_file(fj::test::corpus_path("cuburn-flock/nodes/electricsheep.244.00216-extended.json"));
    const std::filesystem::path before = std::filesystem::current_path();
    std::filesystem::current_path(fj::test::corpus_path("cuburn-flock/nodes"));
    std::vector<fj::Flame> bare;
    std::string error;
    try {
        bare = fj::read_cuburn_file("electricsheep.244.00216-extended.json");
    } catch (const fj::GenomeError& e) {
        error = e.what();
    }
    std::filesystem::current_path(before);
    REQUIRE_MESSAGE(error.empty(), error);
    REQUIRE(bare.size() == 1);
    CHECK(bare[0].xforms.size() == named[0].xforms.size());
    CHECK(bare[0].xforms[1].affine == named[0].xforms[1].affine);
}

TEST_CASE("cuburn: a profile's width and height are whole numbers in 1..65535") {
    const std::string dir = fj::test::scratch_dir("profile-size");
    const std::string node = R"({"palette": ["rgb8", ")" + std::string(1024, 'A') +
                             R"("], "xforms": {"0": {"weight": 1, "variations": {"linear": {"weight": 1}}}}})";
    for (const char* size : {R"("width": 1e30)", R"("width": -3)", R"("height": 0)", R"("height": 70000)",
                             R"("width": 12.5)", R"("height": 1e-300)"}) {
        CAPTURE(size);
        fj::test::write_file(dir + "/p.json", std::string(R"({"type": "profile", )") + size + "}");
        fj::CuburnReadOptions options;
        options.profile_file = dir + "/p.json";
        CHECK_THROWS_WITH_AS(fj::read_cuburn_string(node, "n.json", ".", options),
                             doctest::Contains("p.json: width and height must be whole numbers in 1..65535"),
                             fj::GenomeError);
    }
    fj::test::write_file(dir + "/p.json", R"({"type": "profile", "width": 320, "height": 200})");
    fj::CuburnReadOptions options;
    options.profile_file = dir + "/p.json";
    const auto flames = fj::read_cuburn_string(node, "n.json", ".", options);
    REQUIRE(flames.size() == 1);
    CHECK(flames[0].width == 320);
    CHECK(flames[0].height == 200);
}

TEST_CASE("cuburn: malformed documents are rejected with one line naming the file") {
    const std::string pal = R"("palette": ["rgb8", ")" + std::string(1024, 'A') + R"("])";
    const std::string xf = R"("xforms": {"0": {"weight": 1, "variations": {"linear": {"weight": 1}}}})";
    const std::vector<std::pair<std::string, std::string>> bad = {
        {"not-json", "{"},
        {"profile", R"({"type": "profile", "width": 100})"},
        {"edge", R"({"type": "edge", "link": {"src": "a", "dst": "b"}})"},
        {"no-palette", "{" + xf + "}"},
        {"short-palette", R"({"palette": ["rgb8", "AAAA"], )" + xf + "}"},
        {"no-xforms", "{" + pal + "}"},
        {"unknown-variation", "{" + pal + R"(, "xforms": {"0": {"weight": 1, "variations": {"frobnicate": {"weight": 1}}}}})"},
        {"unknown-param", "{" + pal + R"(, "xforms": {"0": {"weight": 1, "variations": {"rings2": {"weight": 1, "nope": 2}}}}})"},
        {"knots", "{" + pal + R"(, "xforms": {"0": {"weight": [0, 1, 1, 2], "variations": {"linear": {"weight": 1}}}}})"},
        {"missing-base", "{\"base\": \"nodes/absent\", " + pal + ", " + xf + "}"},
        {"overlong-base", "{\"base\": \"nodes/" + std::string(5000, 'x') + "\", " + pal + ", " + xf + "}"},
        {"type-not-string", R"({"type": null, )" + pal + ", " + xf + "}"},
        {"name-not-string", R"({"name": [], )" + pal + ", " + xf + "}"},
        {"variation-not-object", "{" + pal + R"(, "xforms": {"0": {"weight": 1, "variations": {"linear": 5}}}})"},
        {"scale-overflow", R"({"camera": {"scale": 1e308}, )" + pal + ", " + xf + "}"},
        {"number-overflow", R"({"camera": {"scale": 1e400}, )" + pal + ", " + xf + "}"},
        {"negative-weight", "{" + pal + R"(, "xforms": {"0": {"weight": 1}, "1": {"weight": -0.5}}})"},
        {"zero-weights", "{" + pal + R"(, "xforms": {"0": {"weight": 0}, "1": {"weight": 0}}})"},
        {"negative-chaos", "{" + pal + R"(, "xforms": {"0": {"weight": 1, "chaos": {"0": -1}}}})"},
    };
    for (const auto& [name, text] : bad) {
        CAPTURE(name);
        std::string message;
        try {
            fj::read_cuburn_string(text, name + ".json", ".");
        } catch (const fj::GenomeError& e) {
            message = e.what();
        }
        CHECK(message.rfind(name + ".json: ", 0) == 0);
        CHECK(message.find('\n') == std::string::npos);
        MESSAGE(message);
    }
    SUBCASE("weights and chaos as flam3 takes them, with the element named") {
        // flam3 XML that convert writes must read back, so a node breaking
        // flam3's rules is refused at read time, not at iteration.
        const std::vector<std::pair<std::string, std::string>> named = {
            {R"("xforms": {"0": {"weight": 1}, "1": {"weight": -0.5}})", "xforms.1.weight: must not be negative"},
            {R"("xforms": {"0": {"weight": 0}, "1": {"weight": 0}})", "xforms: the weights add up to 0"},
            {R"("xforms": {"0": {"weight": 1, "chaos": {"0": -1}}})", "xforms.0.chaos.0: must not be negative"},
        };
        for (const auto& [xforms, what] : named) {
            const std::string expected = "w.json: " + what;
            CHECK_THROWS_WITH_AS(fj::read_cuburn_string("{" + pal + ", " + xforms + "}", "w.json", "."),
                                 doctest::Contains(expected.c_str()), fj::GenomeError);
        }
        CHECK_NOTHROW(fj::read_cuburn_string("{" + pal + R"(, "xforms": {"0": {"weight": 1}, "1": {"weight": 0}}})",
                                             "w.json", "."));
    }
    SUBCASE("chaos keys name xforms, in the node's xform order") {
        // Natural order puts "2" before "10"; "x" names nothing.
        const fj::Flame f = fj::read_cuburn_string(
            "{" + pal + R"(, "xforms": {"10": {"weight": 1, "chaos": {"2": 0.25}}, "2": {"weight": 1, "chaos": {"10": 0}}}})",
            "c.json", ".").at(0);
        REQUIRE(f.xforms.size() == 2);
        CHECK(f.xforms[0].chaos == std::vector<double>{1.0, 0.0});   // xform "2"
        CHECK(f.xforms[1].chaos == std::vector<double>{0.25});       // xform "10"
        CHECK_THROWS_WITH_AS(
            fj::read_cuburn_string("{" + pal + R"(, "xforms": {"0": {"weight": 1, "chaos": {"1x": 0}}}})", "c.json", "."),
            doctest::Contains("c.json: xforms.0.chaos.1x: names no xform of this node"), fj::GenomeError);
    }
    SUBCASE("nesting past the stack, in brackets or in a dotted key") {
        std::string brackets, dots;
        for (int i = 0; i < 100000; ++i) {
            brackets += R"({"a": )";
            dots += "a.";
        }
        brackets += "1" + std::string(100000, '}');
        CHECK_THROWS_WITH_AS(fj::read_cuburn_string(brackets, "deep.json", "."),
                             doctest::Contains("deep.json: nests more than 64 deep"), fj::GenomeError);
        // A loop walks the whole node for velocities.
        fj::CuburnReadOptions loop;
        loop.loop = true;
        CHECK_THROWS_WITH_AS(fj::read_cuburn_string("{" + pal + ", " + xf + R"(, ")" + dots + R"(a": 1})", "dots.json", ".", loop),
                             doctest::Contains("nests more than 64 deep"), fj::GenomeError);
    }
    SUBCASE("a loop whose angle turns too fast for its keyframes") {
        fj::CuburnReadOptions loop;
        loop.loop = true;
        const std::string spinning =
            "{" + pal + R"(, "xforms": {"0": {"weight": 1, "pre_affine": {"angle": [0, 1e12]}, )" +
            R"("variations": {"linear": {"weight": 1}}}}})";
        CHECK_THROWS_WITH_AS(fj::read_cuburn_string(spinning, "spin.json", ".", loop),
                             doctest::Contains("spin.json: an angle turns more than"), fj::GenomeError);
    }
}

TEST_CASE("cuburn: the command line renders a node as a still and as an animation") {
    if (!fj::test::corpus_present("cuburn-flock/nodes")) return;
    const std::string dir = fj::test::scratch_dir("cuburn-cli");
    const std::string node = fj::test::corpus_path("cuburn-flock/nodes/electricsheep.244.80674.json");
    const std::string profile = fj::test::corpus_path("cuburn-flock/profiles/lores_preview.json");
    const auto still = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(node) + " --profile " +
                                   quoted(profile) + " --quality 5 --backend cpu --seed 1 -o " + quoted(dir + "/still.png"));
    REQUIRE_MESSAGE(still.status == 0, still.output);
    const fj::PngImage img = fj::read_png(dir + "/still.png");
    CHECK(img.width == 480);
    CHECK(img.height == 270);
    const auto anim = run_command(quoted(fj::test::flamejit_binary()) + " animate " + quoted(node) + " --profile " +
                                  quoted(profile) + " --frames 0:2 --quality 2 --temporal-samples 3 --backend cpu --seed 1 -o " +
                                  quoted(dir + "/f%03d.png"));
    REQUIRE_MESSAGE(anim.status == 0, anim.output);
    for (const char* f : {"/f000.png", "/f001.png", "/f002.png"}) CHECK(fj::test::file_exists(dir + f));
    const auto bad = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(profile) + " --backend cpu -o " +
                                 quoted(dir + "/bad.png"));
    CHECK(bad.status == 2);
}
