// flamejit — flames written by Fractorium (Ember): its 2D variations, the
// parameters it adds to flam3's, its colour curves, and the features
// flamejit refuses to fake.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand to render against, so the references are flam3's
// own variations and renderer: on a flat image Fractorium's linear3D is
// linear and its flatten adds nothing, which the tests check function by
// function, image by image, and against flam3-render of a flame's flam3
// spelling; the other variations against values worked by hand.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/variation_registry.h"
#include "cpu/variation_table.h"
#include "errors.h"
#include "genome/flam3_reader.h"
#include "genome/flam3_writer.h"
#include "genome/interpolate.h"
#include "genome/xform_align.h"
#include "image/fidelity.h"
#include "image/png_io.h"
#include "test_support.h"

using fj::test::quoted;
using fj::test::run_command;

namespace {

const fj::VariationUse* find_use(const fj::Xform& xf, const std::string& name) {
    const fj::VariationInfo* info = fj::VariationRegistry::standard().by_name(name);
    REQUIRE(info);
    for (const fj::VariationUse& v : xf.variations)
        if (v.id == info->id) return &v;
    return nullptr;
}

// The reader's error for a flame, or "" when it reads.
std::string read_error(const std::string& xml, bool drop = false) {
    fj::ReadOptions options;
    options.drop_unknown_variations = drop;
    try {
        fj::read_flam3_string(xml, "ember.flame", options);
    } catch (const fj::GenomeError& e) {
        return e.what();
    }
    return "";
}

std::string ember_flame(const std::string& flame_attributes, const std::string& xform_attributes) {
    return R"(<flame version="EMBER-LNX-1.0.0.19" size="64 48" scale="20" )" + flame_attributes +
           R"(><xform weight="1" color="0" coefs="0.5 0 0 0.5 0.2 0" )" + xform_attributes +
           R"(/><xform weight="1" color="1" coefs="0.5 0 0 0.5 -0.2 0" linear="1"/>)"
           R"(<palette count="2" format="RGB">FF0000 0000FF</palette></flame>)";
}

}  // namespace

TEST_CASE("fractorium: on a flat image linear3D computes linear, and flatten adds nothing") {
    const fj::cpu::VariationEntry* linear = fj::cpu::find_variation("linear");
    const fj::cpu::VariationEntry* linear3d = fj::cpu::find_variation("linear3D");
    const fj::cpu::VariationEntry* flatten = fj::cpu::find_variation("flatten");
    REQUIRE(linear);
    REQUIRE(linear3d);
    REQUIRE(flatten);
    std::mt19937 gen(3);
    std::uniform_real_distribution<float> coord(-50.0f, 50.0f), weight(-2.0f, 2.0f);
    const fj::Affine identity{1, 0, 0, 0, 1, 0};
    for (int i = 0; i < 10000; ++i) {
        const fj::VarIn in = fj::make_var_in(coord(gen), coord(gen), &identity);
        const float w = weight(gen), sx = coord(gen), sy = coord(gen);
        fj::Rng rng = fj::make_rng(1, i), rng_linear = rng;
        float ax = sx, ay = sy, bx = sx, by = sy, fx = sx, fy = sy;
        float color = 0.25f;
        linear->fn(in, nullptr, w, rng_linear, ax, ay, color);
        linear3d->fn(in, nullptr, w, rng, bx, by, color);
        CHECK(ax == bx);
        CHECK(ay == by);
        flatten->fn(in, nullptr, w, rng, fx, fy, color);
        CHECK(fx == sx);
        CHECK(fy == sy);
        CHECK(rng.state == rng_linear.state);  // neither draws a random number
    }
    const auto& registry = fj::VariationRegistry::standard();
    for (const char* name : {"linear3D", "flatten"}) {
        const fj::VariationInfo* info = registry.by_name(name);
        REQUIRE(info);
        CHECK(info->id >= fj::kFirstOtherId);
        CHECK(info->origin.rfind("Fractorium", 0) == 0);
    }
}

namespace {

// Runs host variation `name` at (x, y) with weight w and parameters p from a
// running sum of 0.
std::pair<float, float> apply(const char* name, float x, float y, float w, const std::vector<float>& p, fj::Rng& rng) {
    const fj::cpu::VariationEntry* v = fj::cpu::find_variation(name);
    if (!v) FAIL("no host function for " << name);
    const fj::Affine identity{1, 0, 0, 0, 1, 0};
    float ox = 0, oy = 0, color = 0;
    v->fn(fj::make_var_in(x, y, &identity), p.data(), w, rng, ox, oy, color);
    return {ox, oy};
}

}  // namespace

TEST_CASE("fractorium: sineblur, tile_hlp, tile_log and shredlin as Fractorium defines them") {
    const int n = 100000;
    fj::Rng rng = fj::make_rng(5, 0);
    // sineblur: radius acos(1 - 2u)/pi of the weight, u uniform or u^power, so
    // P(r <= s·w) is (1 - cos(pi s))/2 at power 1 and 1 - sqrt((1 + cos(pi s))/2) at 2.
    for (float power : {1.0f, 2.0f}) {
        CAPTURE(power);
        int within[3] = {0, 0, 0};
        double angle_x = 0;
        for (int i = 0; i < n; ++i) {
            const auto [ox, oy] = apply("sineblur", 0.3f, -0.2f, 2.0f, {power}, rng);
            const double r = std::hypot(ox, oy) / 2.0;
            for (int k = 0; k < 3; ++k) within[k] += r <= 0.25 * (k + 1);
            angle_x += ox / std::max(1e-9, double(std::hypot(ox, oy)));
        }
        for (int k = 0; k < 3; ++k) {
            const double c = std::cos(M_PI * 0.25 * (k + 1));
            const double want = power == 1.0f ? (1 - c) / 2 : 1 - std::sqrt((1 + c) / 2);
            CHECK(within[k] / double(n) == doctest::Approx(want).epsilon(0.02));
        }
        CHECK(std::fabs(angle_x / n) < 0.01);  // uniform angle
    }
    // tile_hlp: x moves one tile width (times the weight) toward 0 with
    // probability (1 - cos(pi·frac))/2; y is only weighted.
    for (float x : {0.5f, 0.9f}) {
        int moved = 0, wrong = 0;
        for (int i = 0; i < n; ++i) {
            const auto [ox, oy] = apply("tile_hlp", x, 0.4f, 0.5f, {1.0f}, rng);
            wrong += oy != 0.2f;
            if (ox != 0.5f * x) {
                wrong += std::fabs(ox - (0.5f * x - 0.5f)) > 1e-6f;
                ++moved;
            }
        }
        CHECK(wrong == 0);
        CHECK(moved / double(n) == doctest::Approx((1 - std::cos(M_PI * x)) / 2).epsilon(0.02));
    }
    // tile_log: x moves a whole number of units, |k| = round(spread·|log u|):
    // no move with probability 1 - e^(-0.5/spread); up and down alike.
    int still = 0, up = 0, down = 0, wrong = 0;
    for (int i = 0; i < n; ++i) {
        const auto [ox, oy] = apply("tile_log", 0.25f, 0.5f, 1.0f, {1.0f}, rng);
        const float k = ox - 0.25f;
        wrong += oy != 0.5f || k != std::round(k);
        still += k == 0;
        up += k > 0;
        down += k < 0;
    }
    CHECK(wrong == 0);
    CHECK(still / double(n) == doctest::Approx(1 - std::exp(-0.5)).epsilon(0.02));
    CHECK(up / double(down) == doctest::Approx(1).epsilon(0.03));
    // shredlin, worked by hand: distance 1, width 0.5: x = 1.3 lies 0.3 into
    // strip 1, narrowed to 0.15, centred by (0.5 - 0)(1 - 0.5): 1.4; -1.3 mirrors it.
    const auto a = apply("shredlin", 1.3f, -1.3f, 2.0f, {1, 0.5f, 1, 0.5f}, rng);
    CHECK(a.first == doctest::Approx(2 * 1.4));
    CHECK(a.second == doctest::Approx(-2 * 1.4));
    // Distance 2, width 0.25: x = 3 is 1.5 strips, 0.5·0.25 + 1 + 0.5·0.75 = 1.5, times 2.
    const auto b = apply("shredlin", 3.0f, 0.0f, 1.0f, {2, 0.25f, 1, 0.5f}, rng);
    CHECK(b.first == doctest::Approx(3.0));
    CHECK(b.second == doctest::Approx(0.25));
}

TEST_CASE("fractorium: bwraps and hemisphere as Fractorium defines them") {
    fj::Rng rng = fj::make_rng(6, 0);
    // bwraps, cellsize 1, no space, gain 1: discs of radius 0.5 at the cell
    // centres; inside one a point moves out by radius/bubble = 1.0625 over
    // (l²/4 + 1) (bubble 0.5/(1 + 1/16)), l its offset from the centre.
    const std::vector<float> plain = {1, 0, 1, 0, 0};
    const double g2 = 1 + 1e-6, k = 1.0625 / (0.02 * g2 * g2 / 4 + 1);
    auto a = apply("bwraps", 0.6f, 0.6f, 2.0f, plain, rng);
    CHECK(a.first == doctest::Approx(2 * (0.5 + 0.1 * g2 * k)).epsilon(1e-5));
    CHECK(a.second == doctest::Approx(2 * (0.5 + 0.1 * g2 * k)).epsilon(1e-5));
    a = apply("bwraps", 0.95f, 0.95f, 2.0f, plain, rng);  // between the discs: only weighted
    CHECK(a.first == doctest::Approx(1.9));
    CHECK(a.second == doctest::Approx(1.9));
    a = apply("bwraps", 0.95f, 0.95f, 2.0f, {0, 0, 1, 0, 0}, rng);  // cellsize 0
    CHECK(a.first == doctest::Approx(1.9));
    // An inner twist of a quarter turn turns a point next to the centre by
    // almost that: an offset along x ends up along -y.
    a = apply("bwraps", 0.51f, 0.5f, 1.0f, {1, 0, 1, float(M_PI / 2), 0}, rng);
    CHECK(a.first == doctest::Approx(0.5).epsilon(1e-4));
    CHECK(a.second == doctest::Approx(0.5 - 0.01 * 1.0625).epsilon(1e-4));
    // hemisphere: (x, y)/sqrt(x² + y² + 1).
    a = apply("hemisphere", 3.0f, 4.0f, 2.0f, {}, rng);
    CHECK(a.first == doctest::Approx(2 * 3 / std::sqrt(26.0)));
    CHECK(a.second == doctest::Approx(2 * 4 / std::sqrt(26.0)));
}

TEST_CASE("fractorium: bTransform and blur_zoom as Fractorium defines them") {
    fj::Rng rng = fj::make_rng(7, 0);
    std::mt19937 gen(8);
    std::uniform_real_distribution<float> coord(-3.0f, 3.0f);
    for (int i = 0; i < 2000; ++i) {
        const float x = coord(gen), y = coord(gen);
        if (std::hypot(x - 1, y) < 0.05 || std::hypot(x + 1, y) < 0.05 || std::fabs(y) < 1e-3f) continue;
        CAPTURE(x);
        CAPTURE(y);
        // A point's bipolar coordinates give it back: with no rotation, power
        // 1, no move and no split, bTransform only weights the point.
        auto a = apply("bTransform", x, y, 1.5f, {0, 1, 0, 0}, rng);
        CHECK(a.first == doctest::Approx(1.5 * x).epsilon(1e-3).scale(1));
        CHECK(a.second == doctest::Approx(1.5 * y).epsilon(1e-3).scale(1));
        // split moves tau away from the y axis on either side: on the right
        // as move does, on the left as the opposite move.
        const auto split = apply("bTransform", x, y, 1.0f, {0.3f, 1, 0, 0.4f}, rng);
        const auto moved = apply("bTransform", x, y, 1.0f, {0.3f, 1, x >= 0 ? 0.4f : -0.4f, 0}, rng);
        CHECK(split.first == doctest::Approx(moved.first).epsilon(1e-5).scale(1));
        CHECK(split.second == doctest::Approx(moved.second).epsilon(1e-5).scale(1));
        // blur_zoom: the point scaled about (bx, -by) by one factor in [1, 1 + length].
        const float bx = 0.25f, by = -0.5f;
        a = apply("blur_zoom", x, y, 2.0f, {0.5f, bx, by}, rng);
        const double zx = (a.first / 2 - bx) / (x - bx), zy = (a.second / 2 + by) / (y + by);
        if (std::fabs(x - bx) > 0.1f && std::fabs(y + by) > 0.1f) {
            CHECK(zx == doctest::Approx(zy).epsilon(1e-4));
            CHECK(zx >= 1 - 1e-5);
            CHECK(zx <= 1.5 + 1e-5);
        }
    }
    // Power 3: sigma lands in one of three copies, a third of a turn apart
    // in the angle sigma, at random: three distinct points, about equally often.
    std::map<std::pair<long, long>, int> copies;
    for (int i = 0; i < 3000; ++i) {
        const auto a = apply("bTransform", 0.4f, 0.7f, 1.0f, {0, 3, 0, 0}, rng);
        ++copies[{std::lround(a.first * 1e4), std::lround(a.second * 1e4)}];
    }
    REQUIRE(copies.size() == 3);
    for (const auto& [point, count] : copies) CHECK(count == doctest::Approx(1000).epsilon(0.1));
}

TEST_CASE("fractorium: hexes turns and stretches each point within its hexagonal cell; gaussian is the point plus noise") {
    // Cell centres of size s: (1.5(i − j), (√3/2)(i + j))·s; a point's cell
    // is the nearest centre, found here by search.
    const float s = 0.7f;
    const auto centre = [&](double x, double y) {
        double best = 1e300, cx = 0, cy = 0;
        const int i0 = static_cast<int>(std::floor((x / 1.5 + y / std::sqrt(3.0)) / (2 * s)));
        const int j0 = static_cast<int>(std::floor((y / std::sqrt(3.0) - x / 1.5) / (2 * s)));
        for (int i = i0 - 3; i <= i0 + 3; ++i)
            for (int j = j0 - 3; j <= j0 + 3; ++j) {
                const double px = 1.5 * (i - j) * s, py = std::sqrt(3.0) / 2 * (i + j) * s;
                const double d = std::hypot(x - px, y - py);
                if (d < best) best = d, cx = px, cy = py;
            }
        return std::pair{cx, cy};
    };
    // The hexagonal norm of an offset from a centre: 1 on the cell's edge,
    // whose normals point at 30° + k·60°, √3·s/2 from the centre.
    const auto hex_norm = [&](double dx, double dy) {
        double most = 0;
        for (int k = 0; k < 6; ++k) {
            const double a = (30 + 60 * k) * M_PI / 180;
            most = std::max(most, (dx * std::cos(a) + dy * std::sin(a)) / (std::sqrt(3.0) / 2 * s));
        }
        return most;
    };
    std::mt19937 gen(8);
    std::uniform_real_distribution<float> coord(-4, 4);
    fj::Rng rng = fj::make_rng(9, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen);
        const auto [cx, cy] = centre(x, y);
        const double dx = x - cx, dy = y - cy, r = std::hypot(dx, dy), h = hex_norm(dx, dy);
        if (h < 0.01 || h > 0.99) continue;  // the centre itself, or an edge between two cells
        // Parameters: cellsize, power, rotate (turns), scale. Without turn or
        // stretch: the point itself.
        auto o = apply("hexes", x, y, 2.0f, {s, 1, 0, 1}, rng);
        wrong += std::hypot(o.first / 2 - x, o.second / 2 - y) > 1e-4;
        // A sixth of a turn maps the hexagon onto itself: the point turns
        // clockwise by 60° about its centre, at the same distance.
        o = apply("hexes", x, y, 1.0f, {s, 1, 1.0f / 6, 1}, rng);
        const double ta = std::atan2(o.second - cy, o.first - cx) - std::atan2(dy, dx) + M_PI / 3;
        wrong += std::fabs(std::hypot(o.first - cx, o.second - cy) - r) > 1e-4 ||
                 std::fabs(std::remainder(ta, 2 * M_PI)) > 1e-3;
        // Power 2, scale 1.5: along its ray, to hexagonal norm 1.5·h².
        o = apply("hexes", x, y, 1.0f, {s, 2, 0, 1.5f}, rng);
        const double ox = o.first - cx, oy = o.second - cy;
        wrong += std::fabs(hex_norm(ox, oy) - 1.5 * h * h) > 1e-4 || std::fabs(ox * dy - oy * dx) > 1e-4;
    }
    CHECK(wrong == 0);
    CHECK(apply("hexes", 0.3f, 0.2f, 1.0f, {0, 1, 0.166f, 1}, rng) == std::pair{0.0f, 0.0f});  // cellsize 0

    // gaussian: the unweighted point plus gaussian_blur's noise, draw for draw.
    for (int i = 0; i < 1000; ++i) {
        const float x = coord(gen), y = coord(gen);
        fj::Rng twin = rng;
        const auto g = apply("gaussian", x, y, 0.5f, {}, rng);
        const auto b = apply("gaussian_blur", x, y, 0.5f, {}, twin);
        wrong += g.first != b.first + x || g.second != b.second + y || rng.state != twin.state;
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium: pre_ and post_ uses read in the order they apply, with their own parameters, and write back") {
    using M = fj::VariationMode;
    const auto& registry = fj::VariationRegistry::standard();
    const std::string xml = ember_flame(
        "", R"(post_sineblur="0.2" post_sineblur_power="3" pre_bwraps="0.5" pre_bwraps_cellsize="0.25" linear="1" )"
            R"(bwraps="0.1" pre_swirl="0.3" pre_gaussian_blur="0.04" post_spherical="1" pre_waves2_freqz="2")");
    REQUIRE(read_error(xml) == "");
    const fj::Flame flame = fj::read_flam3_string(xml, "modes.flame")[0];
    struct Expected {
        const char* name;
        M mode;
        double weight;
        std::vector<double> params;
    };
    // Pre uses in file order (pre_gaussian_blur after another Pre use is
    // gaussian_blur's, not flam3's pre_blur, which applies first), Regular
    // ones by id, Post uses in file order; each use its own parameters.
    const std::vector<Expected> expected = {
        {"bwraps", M::Pre, 0.5, {0.25, 0, 1, 0, 0}}, {"swirl", M::Pre, 0.3, {}},
        {"gaussian_blur", M::Pre, 0.04, {}},         {"linear", M::Regular, 1, {}},
        {"bwraps", M::Regular, 0.1, {1, 0, 1, 0, 0}}, {"sineblur", M::Post, 0.2, {3}},
        {"spherical", M::Post, 1, {}}};
    const auto& uses = flame.xforms[0].variations;
    REQUIRE(uses.size() == expected.size());
    for (size_t i = 0; i < uses.size(); ++i) {
        CAPTURE(i);
        CHECK(registry.by_id(uses[i].id)->name == expected[i].name);
        CHECK(uses[i].mode == expected[i].mode);
        CHECK(uses[i].weight == expected[i].weight);
        CHECK(uses[i].params == expected[i].params);
    }
    const std::string key = fj::make_kernel_key(flame, {}).canonical();
    CHECK(key.find("[pre_" + std::to_string(registry.by_name("bwraps")->id) + ",") != std::string::npos);
    // Written in Fractorium's dialect and read back the same.
    const std::string written = fj::write_flam3_string(flame);
    CHECK(written.find("EMBER") != std::string::npos);
    CHECK(written.find("post_sineblur_power=\"3\"") != std::string::npos);
    const fj::Flame again = fj::read_flam3_string(written, "again.flame")[0];
    REQUIRE(again.xforms[0].variations.size() == uses.size());
    for (size_t i = 0; i < uses.size(); ++i) {
        CHECK(again.xforms[0].variations[i].slot() == uses[i].slot());
        CHECK(again.xforms[0].variations[i].weight == uses[i].weight);
        CHECK(again.xforms[0].variations[i].params == uses[i].params);
    }
    // Prefixed names of no variation are unknown, under their own name;
    // flam3's pre_blur has no pre_ use of its own.
    CHECK(read_error(ember_flame("", R"(pre_nosuch="1")")).find("\"pre_nosuch\"") != std::string::npos);
    CHECK(read_error(ember_flame("", R"(pre_pre_blur="1")")).find("\"pre_pre_blur\"") != std::string::npos);
    CHECK(read_error(ember_flame("", R"(post_julia="1" post_nosuch_param="1")")).find("post_nosuch_param") !=
          std::string::npos);
}

TEST_CASE("fractorium: interpolation keeps a segment's pre_ uses in the order of its first keyframe") {
    using M = fj::VariationMode;
    const auto& registry = fj::VariationRegistry::standard();
    std::string a = ember_flame("time=\"0\"", R"(pre_swirl="0.5" linear="1")");
    std::string b = ember_flame("time=\"10\"", R"(pre_blur="0.2" pre_swirl="1" linear="1")");
    a.replace(a.rfind("</flame>"), 8, "</flame>" + b);
    const std::vector<fj::Flame> keys = fj::read_flam3_string("<flames>" + a + "</flames>", "seq.flame");
    REQUIRE(keys.size() == 2);
    const auto names = [&](double t) {
        const fj::Flame f = fj::interpolate(keys, t);
        std::vector<std::string> out;
        for (const fj::VariationUse& u : f.xforms[0].variations)
            out.push_back(std::string(fj::mode_prefix(u.mode)) + registry.by_id(u.id)->name);
        return out;
    };
    // One kernel key for the segment: at 10 as well, the second keyframe's
    // blur (weight 0.2 there) is applied after swirl.
    const std::vector<std::string> order = {"pre_swirl", "pre_blur", "linear"};
    for (double t : {0.0, 4.0, 6.0, 10.0}) {
        CAPTURE(t);
        CHECK(names(t) == order);
    }
    CHECK(names(11) == order);  // extrapolated from the last segment
    const fj::Flame mid = fj::interpolate(keys, 5);
    CHECK(fj::find_variation(mid.xforms[0], registry.by_name("swirl")->id, M::Pre)->weight == doctest::Approx(0.75));
    CHECK(fj::find_variation(mid.xforms[0], registry.by_name("blur")->id, M::Pre)->weight == doctest::Approx(0.1));
}

TEST_CASE("fractorium: Mobius and pre_gaussian_blur read as flam3's mobius and pre_blur; its own pre_blur as its blur") {
    const std::vector<fj::Flame> flames = fj::read_flam3_string(
        ember_flame("", R"(Mobius="0.5" Mobius_Re_A="1" Mobius_Im_A="0.2" Mobius_Re_B="0" Mobius_Im_B="0.1" )"
                        R"(Mobius_Re_C="0" Mobius_Im_C="-1" Mobius_Re_D="1" Mobius_Im_D="0" pre_gaussian_blur="0.05")"),
        "m.flame");
    const fj::Xform& xf = flames[0].xforms[0];
    REQUIRE(find_use(xf, "mobius"));
    CHECK(find_use(xf, "mobius")->weight == 0.5);
    CHECK(find_use(xf, "mobius")->params == std::vector<double>{1, 0.2, 0, 0.1, 0, -1, 1, 0});
    REQUIRE(find_use(xf, "pre_blur"));
    CHECK(find_use(xf, "pre_blur")->weight == 0.05);
    CHECK(fj::write_flam3_string(flames[0]).find("pre_blur=") != std::string::npos);
    // In a Fractorium file, pre_blur is its blur as a Pre use, not flam3's;
    // written back, it keeps that meaning (Fractorium's dialect, by version).
    const std::string ember = ember_flame("", R"(pre_blur="0.1" linear="1")");
    const fj::Flame own = fj::read_flam3_string(ember, "b.flame")[0];
    REQUIRE(own.xforms[0].variations.size() == 2);
    const fj::VariationUse& blur = own.xforms[0].variations[0];
    CHECK(fj::VariationRegistry::standard().by_id(blur.id)->name == "blur");
    CHECK(blur.mode == fj::VariationMode::Pre);
    CHECK(blur.weight == 0.1);
    const std::string written = fj::write_flam3_string(own);
    CHECK(written.find("EMBER") != std::string::npos);
    CHECK(fj::read_flam3_string(written, "b2.flame")[0].xforms[0].variations[0].slot() == blur.slot());
    std::string flam3_file = ember;
    flam3_file.replace(flam3_file.find("EMBER-LNX-1.0.0.19"), 18, "flam3-3.1.1");
    REQUIRE(find_use(fj::read_flam3_string(flam3_file, "f.flame")[0].xforms[0], "pre_blur"));
}

TEST_CASE("fractorium: Ember's flames read, with its added parameters dropped where they change nothing") {
    // What Fractorium writes for a 2D flame: linear3D and flatten, the z
    // parameters of waves2, auger's half scale, log's base, a camera at 0
    // and colour curves on the diagonal.
    const std::string flat =
        R"(cam_zpos="0" cam_persp="0" cam_yaw="0" cam_pitch="0" cam_dof="0" new_linear="1" )"
        R"(curves="0 0 1 0.25 0.25 1 0.75 0.75 1 1 1 1 0 0 1 0.25 0.25 1 0.75 0.75 1 1 1 1 0 0 1 0.25 0.25 1 0.75 0.75 1 1 1 1 0 0 1 0.25 0.25 1 0.75 0.75 1 1 1 1" )"
        R"(overall_curve="0 0 0.25 0.25 0.5 0.5 0.75 0.75 1 1" red_curve="0 0 1 1")";
    const std::string xform =
        R"(linear3D="0.7" flatten="1" waves2="0.3" waves2_freqx="2" waves2_scalex="0.1" waves2_freqz="3" )"
        R"(waves2_scalez="0.4" auger="0.2" auger_scale="0.6" auger_half_scale="0.3" log="0.1" log_base="2.71828")";
    const std::string xml = ember_flame(flat, xform);
    REQUIRE(read_error(xml) == "");
    const std::vector<fj::Flame> flames = fj::read_flam3_string(xml, "ember.flame");
    REQUIRE(flames.size() == 1);
    const fj::Xform& xf = flames[0].xforms[0];
    REQUIRE(find_use(xf, "linear3D"));
    CHECK(find_use(xf, "linear3D")->weight == 0.7);
    REQUIRE(find_use(xf, "flatten"));
    REQUIRE(find_use(xf, "waves2"));
    CHECK(find_use(xf, "waves2")->params == std::vector<double>{2, 0.1, 0, 0});
    REQUIRE(find_use(xf, "auger"));
    CHECK(find_use(xf, "auger")->params[3] == 0.6);
    CHECK(!find_use(xf, "linear"));

    // The flamejit XML of it reads back the same, and names no dropped parameter.
    const std::string written = fj::write_flam3_string(flames[0]);
    CHECK(written.find("linear3D=") != std::string::npos);
    CHECK(written.find("flatten=") != std::string::npos);
    for (const char* dropped : {"waves2_freqz", "waves2_scalez", "auger_half_scale", "log_base", "cam_"})
        CHECK_MESSAGE(written.find(dropped) == std::string::npos, dropped);
    const std::vector<fj::Flame> again = fj::read_flam3_string(written, "written.flame");
    REQUIRE(again.size() == 1);
    CHECK(again[0].xforms[0].variations.size() == xf.variations.size());
}

TEST_CASE("fractorium: colour curves read as Fractorium reads them, and write back") {
    const auto curves_of = [](const std::string& attributes) {
        const std::vector<fj::Flame> flames = fj::read_flam3_string(ember_flame(attributes, R"(linear="1")"), "c.flame");
        REQUIRE(flames.size() == 1);
        return flames[0].curves;
    };
    using P = fj::ColorCurves::Point;
    CHECK(curves_of("").empty());
    // Pairs, sorted by x and clamped to [0, 1]; a later attribute replaces an
    // earlier one; Apophysis's `curves` sets all four from 4 points (x y weight).
    fj::ColorCurves c = curves_of(R"(overall_curve="1 1 0 0 0.5 0.2" red_curve="0 0 1.5 -0.5")");
    CHECK(c.points[0] == std::vector<P>{{0, 0}, {0.5, 0.2}, {1, 1}});
    CHECK(c.points[1] == std::vector<P>{{0, 0}, {1, 0}});
    CHECK(c.points[2].empty());
    c = curves_of(R"(curves="0 0 1 0.2 0.4 1 0.7 0.6 1 1 1 1 0 0 1 0.25 0.25 1 0.75 0.75 1 1 1 1 )"
                  R"(0 0 1 0.25 0.25 1 0.75 0.75 1 1 1 1 0 0 1 0.25 0.25 1 0.75 0.75 1 1 1 1" green_curve="0 0 1 0.5")");
    CHECK(c.points[0] == std::vector<P>{{0, 0}, {0.2, 0.4}, {0.7, 0.6}, {1, 1}});
    CHECK(c.points[2] == std::vector<P>{{0, 0}, {1, 0.5}});
    CHECK(c.points[3].size() == 4);
    CHECK(!c.identity());
    // An end point given twice moves a quarter of the way in, as Fractorium's reader does.
    c = curves_of(R"(overall_curve="0 0 0 0 0.5 0.6 1 1")");
    CHECK(c.points[0] == std::vector<P>{{0, 0}, {0.25, 0.25}, {0.5, 0.6}, {1, 1}});
    c = curves_of(R"(overall_curve="0 0 0.5 0.6 1 1 1 1")");
    CHECK(c.points[0] == std::vector<P>{{0, 0}, {0.5, 0.6}, {0.75, 0.75}, {1, 1}});
    // What no spline can pass through is bad input.
    for (const char* bad : {R"(overall_curve="0 0")", R"(overall_curve="0 0 0.5")", R"(red_curve="0 0 0.5 0.1 0.5 0.9 1 1")",
                            R"(curves="0 0 1 1 1 1")"}) {
        CAPTURE(bad);
        const std::string error = read_error(ember_flame(bad, R"(linear="1")"));
        CHECK(error.find("curve") != std::string::npos);
        CHECK(error.find("flame 0") != std::string::npos);
    }
    // Written in Fractorium's spelling, they read back as they were.
    std::vector<fj::Flame> flames = fj::read_flam3_string(
        ember_flame(R"(overall_curve="0 0 0.27 0.04 0.56 0.38 1 1" blue_curve="0 0.1 1 0.9")", R"(linear="1")"), "c.flame");
    const std::string written = fj::write_flam3_string(flames[0]);
    CHECK(written.find("overall_curve=") != std::string::npos);
    CHECK(written.find("red_curve=") == std::string::npos);
    CHECK(fj::read_flam3_string(written, "w.flame")[0].curves == flames[0].curves);
}

TEST_CASE("fractorium: what changes a Fractorium image and flamejit does not render is refused, or dropped on request") {
    struct Case {
        std::string flame, xform, message;
    };
    const Case cases[] = {
        {R"(cam_pitch="0.5")", R"(linear3D="1")", "attribute \"cam_pitch\": Fractorium's 3D camera"},
        {R"(cam_persp="0.2")", R"(linear="1")", "3D camera"},
        {R"(cam_perspective="0.2")", R"(linear="1")", "3D camera"},
        {R"(cam_zpos="1")", R"(linear="1")", "3D camera"},
        {R"(cam_dof="0.1")", R"(linear="1")", "3D camera"},
        {"", R"(log="1" log_base="10")", "log_base \"10\" is not rendered"},
        {"", R"(julia3D="1")", "unknown variation \"julia3D\""},
        // concentric drops the sum before it: linear's in id order, none in the file's.
        {"", R"(concentric="1" linear="0.5")",
         "concentric drops the sum of the variations before it, which flamejit adds in id order (linear before it) "
         "and this file in its own (none)"},
        // The two other kinds that read the sum, each named for what it does with it.
        {"", R"(dc_linear="1" linear="0.5")",
         "dc_linear colours by the sum of the variations before it, which flamejit adds in id order (linear before "
         "it) and this file in its own (none)"},
        {"", R"(hexcrop="1" linear="0.5")",
         "hexcrop crops the sum of the variations before it, which flamejit adds in id order (linear before it) "
         "and this file in its own (none)"},
    };
    for (const Case& c : cases) {
        const std::string xml = ember_flame(c.flame, c.xform);
        CAPTURE(xml);
        const std::string error = read_error(xml);
        CHECK_MESSAGE(error.find(c.message) != std::string::npos, error);
        CHECK(error.find("flame 0") != std::string::npos);
        // --drop-unknown renders the flame without it (flat, no curves, natural log).
        CHECK(read_error(xml, true) == "");
    }
    // In the order flamejit adds them, concentric reads as written.
    CHECK(read_error(ember_flame("", R"(linear="0.5" concentric="1")")) == "");
}

TEST_CASE("fractorium: linear3D renders linear's image bit for bit, and flatten changes no pixel") {
    const std::string dir = fj::test::scratch_dir("fractorium");
    const std::string body = R"(<xform weight="1" color="0" coefs="0.5 0 0 0.5 0.5 0" V="1"/>)"
                             R"(<xform weight="1" color="0.5" coefs="0.5 0 0 0.5 -0.5 0" V="1"/>)"
                             R"(<xform weight="1" color="1" coefs="0.5 0 0 0.5 0 0.5" V="1" EXTRA/>)";
    auto genome = [&](const std::string& variation, const std::string& extra) {
        std::string xml = R"(<flame size="96 72" scale="40" quality="20" estimator_radius="3">)" + body +
                          R"(<palette count="2" format="RGB">FF8000 0080FF</palette></flame>)";
        for (size_t at; (at = xml.find("V=")) != std::string::npos;) xml.replace(at, 1, variation);
        for (size_t at; (at = xml.find("EXTRA")) != std::string::npos;) xml.replace(at, 5, extra);
        return xml;
    };
    const std::vector<std::pair<std::string, std::string>> files = {
        {"linear", genome("linear", "")}, {"linear3D", genome("linear3D", "")},
        {"flatten", genome("linear3D", R"(flatten="0.8")")}};
    std::vector<std::string> pngs;
    for (const auto& [name, xml] : files) {
        fj::test::write_file(dir + "/" + name + ".flam3", xml);
        const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/" + name + ".flam3") +
                                   " -o " + quoted(dir + "/" + name + ".png") +
                                   " --backend cpu --threads 2 --seed 11 --no-png-comments 2>&1");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        pngs.push_back(fj::test::read_file(dir + "/" + name + ".png"));
    }
    REQUIRE(pngs[0].size() > 1000);
    CHECK(pngs[1] == pngs[0]);
    CHECK(pngs[2] == pngs[0]);
}

TEST_CASE("fractorium: the corpus's Ember flames read, or name the variation flamejit lacks") {
    if (!fj::test::corpus_present("fractorium-examples")) return;
    const std::string folder = fj::test::corpus_path("fractorium-examples");
    // curves: read, with curves that change colours; moded: read, with pre_
    // or post_ uses; direct: read, with uses that change the colour index
    int flames = 0, read = 0, unknown = 0, curves = 0, moded = 0, direct = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        for (const std::string& xml : fj::flam3_flame_elements(entry.path().string())) {
            ++flames;
            const std::string error = read_error(xml);
            CAPTURE(error);
            if (error.empty()) {
                ++read;
                const fj::Flame flame = fj::read_flam3_string(xml, "corpus")[0];
                curves += !flame.curves.identity();
                std::vector<fj::Xform> all = flame.xforms;
                if (flame.has_final) all.push_back(flame.final_xform);
                bool any = false, colours = false;
                for (const fj::Xform& xf : all)
                    for (const fj::VariationUse& u : xf.variations) {
                        any = any || u.mode != fj::VariationMode::Regular;
                        colours = colours || fj::VariationRegistry::standard().by_id(u.id)->writes_color;
                    }
                moded += any;
                direct += colours;
            } else if (error.find("unknown variation") != std::string::npos) {
                ++unknown;
            } else {
                FAIL_CHECK("unexpected refusal");
            }
        }
    }
    MESSAGE(flames << " Fractorium corpus flames: " << read << " read (" << curves << " of them with colour curves, "
                   << moded << " with pre_ or post_ uses, " << direct << " with direct colour), " << unknown
                   << " use variations flamejit lacks");
    CHECK(flames >= 100);
    CHECK(read * 10 >= flames * 9);
    CHECK(curves > 0);
    CHECK(moded > 0);
    CHECK(direct > 0);
}

TEST_CASE("fractorium: corpus flames render as flam3 renders them in its spelling (fidelity ratio <= 1.3)") {
    // flam3 reads a Fractorium file too, ignoring what it does not know; for
    // a flame of flam3's variations plus linear3D and flatten, the flam3
    // spelling (linear3D as linear, flatten left out) is the same picture on
    // a flat image, so flam3-render of it is a reference flamejit did not make.
    if (!fj::test::flam3_render_present()) return;
    if (!fj::test::corpus_present("fractorium-examples")) return;
    const std::string folder = fj::test::corpus_path("fractorium-examples");
    const auto without = [](std::string xml, const std::string& attribute) {
        for (size_t at; (at = xml.find(" " + attribute + "=\"")) != std::string::npos;)
            xml.erase(at, xml.find('"', xml.find('"', at) + 1) + 1 - at);
        return xml;
    };
    std::vector<std::pair<std::string, std::string>> picked;  // label, XML
    int with_3d = 0;
    for (const char* name : {"pillemaster_hexagonal_tilings.flame", "tatasz_substitution.flame"}) {
        int index = 0;
        for (const std::string& xml : fj::flam3_flame_elements(folder + "/" + name)) {
            const std::string label = std::string(name) + " #" + std::to_string(index++);
            const bool uses_3d = xml.find("linear3D=") != std::string::npos;
            // An xform with linear and linear3D both would have linear twice in flam3's spelling.
            bool both = false;
            for (size_t at = 0; (at = xml.find("<xform", at)) != std::string::npos; ++at) {
                const std::string xform = xml.substr(at, xml.find('>', at) - at);
                both |= xform.find(" linear=") != std::string::npos && xform.find("linear3D=") != std::string::npos;
            }
            if (both || read_error(xml) != "") continue;
            if (uses_3d && with_3d < 2) {
                picked.emplace_back(label, xml);
                ++with_3d;
            } else if (!uses_3d && name[0] == 't') {
                picked.emplace_back(label, xml);
                break;
            }
        }
    }
    REQUIRE(picked.size() == 3);
    const std::string dir = fj::test::scratch_dir("fractorium-fidelity");
    int n = 0;
    for (const auto& [label, xml] : picked) {
        CAPTURE(label);
        const std::string base = dir + "/" + std::to_string(n++);
        std::string flam3_xml = xml;
        const std::string from = " linear3D=\"", to = " linear=\"";
        for (size_t at; (at = flam3_xml.find(from)) != std::string::npos;) flam3_xml.replace(at, from.size(), to);
        flam3_xml = without(flam3_xml, "flatten");
        fj::test::write_file(base + ".flame", xml);
        fj::test::write_file(base + ".flam3", flam3_xml);
        for (const char* s : {"A", "B"}) {
            const auto r = run_command("env in=" + quoted(base + ".flam3") + " out=" + quoted(base + s + ".png") +
                                       " isaac_seed=fractorium" + s + " nthreads=2 verbose=0 ss=0.2 qs=0.15 flam3-render 2>&1");
            REQUIRE_MESSAGE(r.status == 0, r.output);
        }
        const auto ours = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(base + ".flame") + " -o " +
                                      quoted(base + "C.png") + " --backend cpu --threads 2 --seed 5 --size-scale 0.2 "
                                      "--quality-scale 0.15 2>&1");
        REQUIRE_MESSAGE(ours.status == 0, ours.output);
        const fj::FidelityResult f = fj::fidelity_ratio(fj::read_png(base + "A.png"), fj::read_png(base + "B.png"),
                                                        fj::read_png(base + "C.png"));
        MESSAGE(label << ": fidelity ratio " << f.ratio);
        CHECK(f.ratio <= 1.3);
    }
}
