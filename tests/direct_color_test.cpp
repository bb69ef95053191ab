// flamejit — Fractorium's direct-colour variations and its var_color.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A variation annotated @color changes the point's colour index as well as
// its position (Fractorium's dc_ variations, falloff2, pixel_flow); the xform keeps the
// change in proportion to its var_color. No Fractorium is at hand, so each
// variation is checked against what its definition says in words (a step
// counterclockwise round a square ring, a corner of a square, barycentric
// coordinates in a triangle, scatter that grows with distance), worked out
// here independently of the snippet's arithmetic; var_color against the
// reader, writer and interpolation, and on whole renders. The generated
// kernel's colour path is compared with the CPU backend's in
// tests/emulated_kernels_test.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "codegen/variation_registry.h"
#include "cpu/variation_table.h"
#include "genome/flam3_reader.h"
#include "genome/flam3_writer.h"
#include "genome/interpolate.h"
#include "pipeline/renderer.h"
#include "shared/hashes.h"

namespace {

const fj::Affine kIdentity{1, 0, 0, 0, 1, 0};

struct Out {
    float x, y, c;
};

// Host variation `name` at (x, y), added to a sum of (sx, sy), with colour index c.
Out apply(const char* name, float x, float y, float w, const std::vector<float>& p, float c, fj::Rng& rng,
          const fj::Affine& aff = kIdentity, float sx = 0, float sy = 0) {
    const fj::cpu::VariationEntry* v = fj::cpu::find_variation(name);
    REQUIRE_MESSAGE(v, name);
    Out o{sx, sy, c};
    v->fn(fj::make_var_in(x, y, &aff), p.data(), w, rng, o.x, o.y, o.c);
    return o;
}

// Rounding half away from zero, as Fractorium's grid variations round.
float round_away(float v) { return v >= 0 ? std::floor(v + 0.5f) : std::ceil(v - 0.5f); }

}  // namespace

TEST_CASE("direct colour: dc_gridout steps counterclockwise round the square ring of the nearest grid point") {
    std::mt19937 gen(11);
    std::uniform_real_distribution<float> coord(-6, 6), unit(0, 1);
    fj::Rng rng = fj::make_rng(1, 0);
    int wrong = 0, along_x = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), c = unit(gen);
        const Out o = apply("dc_gridout", x, y, 2.0f, {}, c, rng);
        const float sx = std::round(o.x / 2 - x), sy = std::round(o.y / 2 - y);
        const float X = round_away(x), Y = round_away(y);
        // One unit along x or y, turning counterclockwise about the origin
        // (at the origin itself: along +x), along the side of the square of
        // half-width max(|X|, |Y|) the grid point lies on.
        bool ok = std::fabs(sx) + std::fabs(sy) == 1 && std::fabs(o.x / 2 - x - sx) < 1e-5f &&
                  std::fabs(o.y / 2 - y - sy) < 1e-5f;
        ok = ok && (X == 0 && Y == 0 ? sx == 1 : X * sy - Y * sx > 0);
        if (std::fabs(Y) > std::fabs(X)) ok = ok && sy == 0;
        if (std::fabs(X) > std::fabs(Y)) ok = ok && sx == 0;
        // The colour index moves on by a quarter for a step along x, three
        // quarters along y, modulo 1.
        ok = ok && std::fabs(o.c - std::fmod(c + (sx != 0 ? 0.25f : 0.75f), 1.0f)) < 1e-6f;
        wrong += !ok;
        along_x += sx != 0;
    }
    CHECK(wrong == 0);
    CHECK(along_x > 5000);
    CHECK(along_x < 15000);
}

TEST_CASE("direct colour: dc_carpet moves to a random corner through the affine and halves the index on one diagonal") {
    // Fractorium reads this affine as x' = a·x + b·y + e, y' = c·x + d·y + f.
    const fj::Affine aff{0.5f, 0.2f, -0.3f, 0.7f, 0.1f, -0.4f};
    const float origin = 0.5f, h = 0.2f * origin, w = 1.5f;
    fj::Rng rng = fj::make_rng(2, 0);
    int corners[2][2] = {}, wrong = 0;
    for (int i = 0; i < 8000; ++i) {
        const float x = 0.3f, y = -0.6f, c = 0.25f + 0.5f * (i % 3) / 2;
        const Out o = apply("dc_carpet", x, y, w, {origin}, c, rng, aff);
        int found = 0;
        for (int sx : {-1, 1})
            for (int sy : {-1, 1}) {
                const float X = x + sx, Y = y + sy;
                if (std::fabs(o.x - w * (0.5f * X + 0.2f * Y + 0.1f)) > 1e-5f ||
                    std::fabs(o.y - w * (-0.3f * X + 0.7f * Y - 0.4f)) > 1e-5f)
                    continue;
                ++found;
                ++corners[sx > 0][sy > 0];
                const float want = sx == sy ? c / 2 : std::fmod(std::fabs(c * (1 + h) / 2 - (1 - h)), 1.0f);
                wrong += std::fabs(o.c - want) > 1e-6f;
            }
        wrong += found != 1;
    }
    CHECK(wrong == 0);
    for (auto& row : corners)
        for (int n : row) CHECK(n == doctest::Approx(2000).epsilon(0.08));
}

TEST_CASE("direct colour: dc_triangle keeps points of its triangle and brings the others in, colour u + v") {
    // Corner (e, f) = (0.1, -0.2), edges (a, b) = (1, 0.2) and (-c, -d) = (0.3, 0.9).
    const fj::Affine aff{1.0f, 0.2f, -0.3f, -0.9f, 0.1f, -0.2f};
    const auto point = [](float u, float v) { return std::pair{0.1f + u * 1.0f + v * 0.3f, -0.2f + u * 0.2f + v * 0.9f}; };
    // Barycentric coordinates of (x, y), solved independently by Cramer's rule.
    const auto coords = [](float x, float y) {
        const double px = x - 0.1, py = y + 0.2, det = 1.0 * 0.9 - 0.3 * 0.2;
        return std::pair{(px * 0.9 - 0.3 * py) / det, (1.0 * py - 0.2 * px) / det};
    };
    std::mt19937 gen(12);
    std::uniform_real_distribution<float> unit(0, 1), wide(-3, 3);
    fj::Rng rng = fj::make_rng(3, 0);
    int wrong = 0, outside = 0;
    for (int i = 0; i < 5000; ++i) {
        // Inside: the point itself (times the weight), colour u + v, no draws.
        float u = unit(gen), v = unit(gen);
        if (u + v > 1) {
            u = 1 - u;
            v = 1 - v;
        }
        const auto [x, y] = point(u, v);
        const fj::Rng before = rng;
        const Out in = apply("dc_triangle", x, y, 2.0f, {0.5f, 0}, 0.9f, rng, aff);
        wrong += std::fabs(in.x - 2 * x) > 1e-5f || std::fabs(in.y - 2 * y) > 1e-5f ||
                 std::fabs(in.c - std::fmod(u + v, 1.0f)) > 1e-5f || rng.state != before.state;
        // Outside, without scatter: onto the triangle's boundary.
        const float ox = wide(gen), oy = wide(gen);
        const auto [ou, ov] = coords(ox, oy);
        if (ou >= 0 && ov >= 0 && ou + ov <= 1) continue;
        ++outside;
        const Out edge = apply("dc_triangle", ox, oy, 1.0f, {0, 0}, 0.9f, rng, aff);
        const auto [eu, ev] = coords(edge.x, edge.y);
        const bool on_boundary = std::fabs(eu) < 1e-4 || std::fabs(ev) < 1e-4 || std::fabs(eu + ev - 1) < 1e-4;
        wrong += !(eu > -1e-4 && ev > -1e-4 && eu + ev < 1 + 1e-4 && on_boundary);
        wrong += std::fabs(edge.c - std::fmod(float(eu + ev), 1.0f)) > 1e-4f && std::fabs(eu + ev - 1) > 1e-4;
        // zero_edges: to the corner, colour 0.
        const Out corner = apply("dc_triangle", ox, oy, 1.0f, {0.5f, 1}, 0.9f, rng, aff);
        wrong += std::fabs(corner.x - 0.1f) > 1e-6f || std::fabs(corner.y + 0.2f) > 1e-6f || corner.c != 0;
        // Scatter: still within the plane's strip u + v <= 1.
        const Out scattered = apply("dc_triangle", ox, oy, 1.0f, {0.5f, 0}, 0.9f, rng, aff);
        const auto [su, sv] = coords(scattered.x, scattered.y);
        wrong += su + sv > 1 + 1e-4;
    }
    CHECK(wrong == 0);
    CHECK(outside > 1000);
}

TEST_CASE("direct colour: falloff2 scatters points and colours in proportion to their distance beyond mindist") {
    // Parameters: scatter, mindist, mul_x, mul_y, mul_z, mul_c, x0, y0, z0, invert, type.
    const auto params = [](float type, float invert = 0, float z0 = 0) {
        return std::vector<float>{25, 0.5f, 1, 1, 0, 0.4f, 0, 0, z0, invert, type};
    };
    fj::Rng rng = fj::make_rng(4, 0);
    // Within mindist of the centre: no scatter, the colour kept; each call
    // draws four numbers all the same.
    for (float type : {0.0f, 1.0f, 2.0f}) {
        CAPTURE(type);
        fj::Rng expect = rng;
        for (int k = 0; k < 4; ++k) fj::next_u32(expect);
        const Out o = apply("falloff2", 0.3f, -0.2f, 2.0f, params(type), 0.7f, rng);
        CHECK(o.x == doctest::Approx(0.6));
        CHECK(o.y == doctest::Approx(-0.4));
        CHECK(o.c == 0.7f);
        CHECK(rng.state == expect.state);
    }
    // The same point inverted (reach 1 - 0.36 > mindist) or lifted by z0 = 2
    // is beyond mindist and moves.
    float inverted = 0, lifted = 0;
    for (int i = 0; i < 20; ++i) {
        inverted = std::max(inverted, std::fabs(apply("falloff2", 0.3f, -0.2f, 2.0f, params(0, 1), 0.7f, rng).x - 0.6f));
        lifted = std::max(lifted, std::fabs(apply("falloff2", 0.3f, -0.2f, 2.0f, params(0, 0, 2), 0.7f, rng).x - 0.6f));
    }
    CHECK(inverted > 0.01f);
    CHECK(lifted > 0.01f);
    // At distance 1.5 (dist = 0.04·25·(1.5 − 0.5) = 1), type 0: x and y each
    // move uniformly within ±0.5; the colour index 0.3 within ±0.2.
    const int n = 40000;
    double sx = 0, sxx = 0, sc = 0, scc = 0;
    float lo = 1, hi = 0;
    for (int i = 0; i < n; ++i) {
        const Out o = apply("falloff2", 1.2f, 0.9f, 1.0f, params(0), 0.3f, rng);
        const double dx = o.x - 1.2;
        sx += dx;
        sxx += dx * dx;
        sc += o.c;
        scc += (o.c - 0.3) * (o.c - 0.3);
        lo = std::min(lo, o.c);
        hi = std::max(hi, o.c);
    }
    CHECK(std::fabs(sx / n) < 0.01);
    CHECK(sxx / n == doctest::Approx(1.0 / 12).epsilon(0.03));
    CHECK(sc / n == doctest::Approx(0.3).epsilon(0.01));
    CHECK(scc / n == doctest::Approx(0.16 / 12).epsilon(0.03));
    CHECK(lo >= 0.1f - 1e-6f);
    CHECK(hi <= 0.5f + 1e-6f);
    // Type 1 keeps the point on its ray within the radius scatter when only
    // mul_x is set; at the origin it changes nothing, colour included.
    std::vector<float> radial = params(1);
    radial[3] = 0;
    for (int i = 0; i < 1000; ++i) {
        const Out o = apply("falloff2", 1.2f, 0.9f, 1.0f, radial, 0.3f, rng);
        CHECK(std::atan2(o.y, o.x) == doctest::Approx(std::atan2(0.9, 1.2)).epsilon(1e-5));
        CHECK(std::fabs(std::hypot(o.x, o.y) - 1.5) <= 0.5 + 1e-5);
    }
    const Out origin = apply("falloff2", 0, 0, 1.0f, params(1, 1), 0.3f, rng);
    CHECK(origin.x == 0);
    CHECK(origin.c == 0.3f);
}

// Thomas Wang's 32-bit integer mix with the multiplier 0x27d4eb2d, on
// int's bits, as Fractorium's Hash reads: worked here on 64-bit integers,
// the wrap by masking to 32 bits and the sign-keeping shifts by dividing
// the signed value and flooring. Over int's largest value.
double wang_reference(int a) {
    const auto wrap = [](long long v) {  // to int's range, two's complement
        v &= 0xffffffffLL;
        return v >= 0x80000000LL ? v - 0x100000000LL : v;
    };
    const auto shr = [](long long v, int k) { return (long long)std::floor(double(v) / double(1LL << k)); };
    long long h = a;
    h = wrap((h ^ 61) ^ shr(h, 16));
    h = wrap(h + h * 8);
    h = wrap(h ^ shr(h, 4));
    h = wrap(h * 0x27d4eb2dLL);
    h = wrap(h ^ shr(h, 15));
    return double(float(h)) / double(2147483648.0f);
}

TEST_CASE("direct colour: pixel_flow streaks each point from the origin by its block's hashed length, colour the draw") {
    // The hash: every int class (small, negative, both extremes, random).
    std::mt19937 gen(1243);
    std::vector<int> ints = {0, 1, -1, 61, -61, 2147483647, -2147483647 - 1, 65536, -65536};
    for (int i = 0; i < 20000; ++i) ints.push_back(int(gen()));
    for (int v : ints) CHECK_MESSAGE(double(fj::wang_hash(v)) == wang_reference(v), v);
    // The streak: along the angle from the origin, len·f·u⁴ long, f the mean
    // of the two hashes of the point's shifted block; the colour index u with
    // enable_dc, untouched without. Fractorium forms the block indices and
    // the hashed numbers in float and truncates them (its int casts).
    std::uniform_real_distribution<float> coord(-3, 3), unit(0, 1);
    fj::Rng rng = fj::make_rng(1243, 0);
    const auto trunc_int = [](float v) { return int(v); };
    int wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.5f + unit(gen);
        const float angle = 360 * unit(gen) - 180, len = 2 * unit(gen), width = 1 + 300 * unit(gen);
        const float seed = float(int(200 * unit(gen)) - 100), dc = float(i % 2);
        int bx = int(std::floor(x * width)), by = int(std::floor(y * width));
        bx += trunc_int(2.0f - 4.0f * float(wang_reference(trunc_int(float(bx) * seed + 1.0f))));
        by += trunc_int(2.0f - 4.0f * float(wang_reference(trunc_int(float(by) * seed + 1.0f))));
        const double f = 0.5 * (wang_reference(trunc_int(float(by) + float(bx) * -seed)) +
                                wang_reference(trunc_int(float(bx) + float(by) * seed * 0.5f)));
        fj::Rng peek = rng;
        const double u = fj::rand01(peek);
        const Out o = apply("pixel_flow", x, y, w, {angle, len, width, seed, dc}, 0.25f, rng);
        const double a = angle * M_PI / 180, r = w * len * f * u * u * u * u;
        const bool ok = std::fabs(o.x - r * std::cos(a)) <= 1e-5 * std::max(1.0, std::fabs(r)) &&
                        std::fabs(o.y - r * std::sin(a)) <= 1e-5 * std::max(1.0, std::fabs(r)) &&
                        o.c == (dc != 0 ? float(u) : 0.25f) && rng.state == peek.state;
        if (!ok && ++wrong <= 3)
            MESSAGE("at (" << x << ", " << y << "), seed " << seed << ": got (" << o.x << ", " << o.y << ", " << o.c
                           << "), want " << r * std::cos(a) << ", " << r * std::sin(a) << ", u " << u);
    }
    CHECK(wrong == 0);
    // Within a block (before its shift) every point takes the same length:
    // the ratio of the streak to u⁴ is the block's, whichever point draws.
    const std::vector<float> p = {0, 1, 10, 42, 0};
    double first = -1;
    for (int i = 0; i < 200; ++i) {
        fj::Rng peek = rng;
        const double u = fj::rand01(peek);
        const Out o = apply("pixel_flow", 0.31f + 0.0008f * unit(gen), -0.52f + 0.0008f * unit(gen), 1, p, 0, rng);
        if (u < 0.3) continue;  // u⁴ too small to divide by closely
        const double per = o.x / (u * u * u * u);
        if (first < 0) first = per;
        CHECK(per == doctest::Approx(first).epsilon(1e-5));
        CHECK(o.y == doctest::Approx(0).scale(1e-6));
    }
}

// dc_linear's (and dc_cylinder's) colour at sum (x, y), worked in double;
// -1 near the wrap, where float rounding may land on either side.
double linear_colour(double x, double y, double offset, double angle, double scale) {
    const double v = std::fabs(0.5 * ((std::cos(angle) * x + std::sin(angle) * y + offset) / scale + 1));
    const double c = std::fmod(v, 1.0);
    return c < 1e-4 || c > 1 - 1e-4 ? -1 : c;
}

TEST_CASE("direct colour: dc_linear, dc_bubble and dc_cylinder colour by the xform's sum once their value is added") {
    std::mt19937 gen(13);
    std::uniform_real_distribution<float> coord(-3, 3), unit(0, 1);
    fj::Rng rng = fj::make_rng(5, 0);
    int wrong = 0, judged = 0, moved = 0;
    double r_sum = 0, r_sq = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), sx = coord(gen), sy = coord(gen), w = 0.2f + unit(gen);
        const float offset = coord(gen), angle = coord(gen), scale = 0.5f + 2 * unit(gen);
        // dc_linear: linear's value, coloured by the sum after it.
        Out o = apply("dc_linear", x, y, w, {offset, angle, scale}, 0.5f, rng, kIdentity, sx, sy);
        wrong += std::fabs(o.x - (sx + w * x)) > 1e-5f || std::fabs(o.y - (sy + w * y)) > 1e-5f;
        double want = linear_colour(o.x, o.y, offset, angle, scale);
        judged += want >= 0;
        wrong += want >= 0 && std::fabs(o.c - want) > 1e-4;
        // dc_bubble: bubble's value, coloured by the squared distance of the
        // sum after it from (-centerx, -centery).
        const float cx = coord(gen), cy = coord(gen);
        o = apply("dc_bubble", x, y, w, {cx, cy, scale}, 0.5f, rng, kIdentity, sx, sy);
        const Out b = apply("bubble", x, y, w, {}, 0.5f, rng, kIdentity, sx, sy);
        wrong += o.x != b.x || o.y != b.y || b.c != 0.5f;
        const double d2 = (double(o.x) + cx) * (o.x + cx) + (double(o.y) + cy) * (o.y + cy);
        want = std::fmod(d2 / scale, 1.0);
        // Float's rounding of d2 / scale, a few parts in 10^7 of it, is all that may differ.
        wrong += want > 1e-3 && want < 1 - 1e-3 && std::fabs(o.c - want) > 1e-5 * std::max(1.0, d2 / scale);
        // dc_cylinder without blur: x becomes weight · `x` · sin(x) and y `y` · y, both added to the sum.
        const double sin_x = std::sin(double(x));
        o = apply("dc_cylinder", x, y, w, {offset, angle, scale, 0.5f, 2, 0}, 0.5f, rng, kIdentity, sx, sy);
        wrong += std::fabs(o.x - (sx + 0.5 * w * sin_x)) > 1e-5 || std::fabs(o.y - (sy + 2.0 * y)) > 1e-5;
        // With blur 0.25, y moves by an unweighted offset r within ±0.5 and
        // sin's argument by r times the sine of a direction, so by at most |r|;
        // the colour as dc_linear's.
        o = apply("dc_cylinder", x, y, w, {offset, angle, scale, 0.5f, 2, 0.25f}, 0.5f, rng, kIdentity, sx, sy);
        const double r = o.y - sy - 2.0 * y;
        const double lo_arg = x - std::fabs(r), hi_arg = x + std::fabs(r);
        double lo = std::min(std::sin(lo_arg), std::sin(hi_arg)), hi = std::max(std::sin(lo_arg), std::sin(hi_arg));
        const auto passes = [&](double at) {  // whether [lo_arg, hi_arg] holds at + 2πk for some k
            return std::floor((hi_arg - at) / (2 * M_PI)) > std::floor((lo_arg - at) / (2 * M_PI));
        };
        if (passes(M_PI / 2)) hi = 1;
        if (passes(-M_PI / 2)) lo = -1;
        const double s = (o.x - sx) / (0.5 * w);
        wrong += std::fabs(r) > 0.5 + 1e-5 || s < lo - 1e-5 || s > hi + 1e-5;
        moved += std::fabs(o.x - (sx + 0.5 * w * sin_x)) > 1e-4;
        r_sum += r;
        r_sq += r * r;
        want = linear_colour(o.x, o.y, offset, angle, scale);
        wrong += want >= 0 && std::fabs(o.c - want) > 1e-4;
    }
    CHECK(wrong == 0);
    CHECK(judged > n * 9 / 10);
    // The blur's offset reaches x as well as y.
    CHECK(moved > n * 9 / 10);
    // Four centred uniforms times 0.25: mean 0, variance 0.25²·4/12.
    CHECK(std::fabs(r_sum / n) < 0.005);
    CHECK(r_sq / n == doctest::Approx(0.0625 / 3).epsilon(0.03));
}

TEST_CASE("direct colour: a variation that reads the sum before it reads only where Fractorium's order gives the same sum") {
    const auto flame = [](const std::string& xform) {
        return R"(<flame version="EMBER-LNX-1.0.0.19" size="64 48" scale="20"><xform weight="1" color="0" )"
               R"(coefs="0.5 0 0 0.5 0.2 0" )" +
               xform + R"(/><xform weight="1" color="1" coefs="0.5 0 0 0.5 -0.2 0" linear="1"/></flame>)";
    };
    const auto error = [&](const std::string& xform, bool drop = false) {
        fj::ReadOptions options;
        options.drop_unknown_variations = drop;
        try {
            fj::read_flam3_string(flame(xform), "ember.flame", options);
        } catch (const fj::GenomeError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    // Fractorium adds in the file's order, flamejit by id (linear 0,
    // spherical 2, dc_linear 1016): the same uses before dc_linear, or not.
    CHECK(error(R"(linear="0.5" dc_linear="1")") == "");
    CHECK(error(R"(spherical="0.2" linear="0.5" dc_linear="1")") == "");
    CHECK(error(R"(dc_gridout="0.5" dc_linear="1")") == "");
    CHECK(error(R"(dc_linear="1" dc_gridout="0.5")") != "");  // dc_gridout (1012) adds before it here
    const std::string refused = error(R"(dc_linear="1" linear="0.5")");
    CHECK_MESSAGE(refused.find("\"dc_linear\"") != std::string::npos, refused);
    CHECK_MESSAGE(refused.find("id order (linear before it)") != std::string::npos, refused);
    CHECK_MESSAGE(refused.find("its own (none)") != std::string::npos, refused);
    CHECK(error(R"(linear="0.5" dc_bubble="1" spherical="0.2")") != "");
    // A zero weight adds nothing: it does not count.
    CHECK(error(R"(dc_linear="1" linear="0")") == "");
    // Its pre_ and post_ uses would read the point they replace.
    CHECK(error(R"(pre_dc_linear="1")").find("only as a plain use") != std::string::npos);
    // Dropped on request, with the others kept.
    CHECK(error(R"(dc_linear="1" linear="0.5")", true) == "");
    const fj::Flame dropped = [&] {
        fj::ReadOptions options;
        options.drop_unknown_variations = true;
        return fj::read_flam3_string(flame(R"(dc_linear="1" linear="0.5")"), "ember.flame", options)[0];
    }();
    REQUIRE(dropped.xforms[0].variations.size() == 1);
    CHECK(dropped.xforms[0].variations[0].id == 0);
}

TEST_CASE("direct colour: var_color reads clamped to [0, 1], writes when not 1, and interpolates") {
    const auto flame = [](const std::string& attribute) {
        return R"(<flame version="EMBER-LNX-1.0.0.19" size="64 48" scale="20"><xform weight="1" color="0" )"
               R"(coefs="0.5 0 0 0.5 0.2 0" dc_gridout="0.5" )" +
               attribute + R"(/><xform weight="1" color="1" coefs="0.5 0 0 0.5 -0.2 0" linear="1"/></flame>)";
    };
    const auto direct = [&](const std::string& attribute) {
        return fj::read_flam3_string(flame(attribute), "test")[0].xforms[0].direct_color;
    };
    CHECK(direct("") == 1);
    CHECK(direct(R"(var_color="0.25")") == 0.25);
    CHECK(direct(R"(var_color="3")") == 1);
    CHECK(direct(R"(var_color="-1")") == 0);

    fj::Flame a = fj::read_flam3_string(flame(R"(var_color="0.25")"), "test")[0];
    const std::string text = fj::write_flam3_string(a);
    CHECK(text.find(R"(var_color="0.25")") != std::string::npos);
    CHECK(fj::read_flam3_string(text, "written")[0].xforms[0].direct_color == 0.25);
    fj::Flame b = a;
    b.xforms[0].direct_color = 1;
    CHECK(fj::write_flam3_string(b).find("var_color") == std::string::npos);

    // Linearly between keyframes, as the xform's colour.
    a.time = 0;
    b.time = 1;
    a.interpolation = b.interpolation = fj::Interpolation::Linear;
    CHECK(fj::interpolate({a, b}, 0.5).xforms[0].direct_color == doctest::Approx(0.625));
}

TEST_CASE("direct colour: a direct-colour variation changes colours, never positions, as far as var_color lets it") {
    // One contraction per grid step and a plain one: bounded, and every
    // chain passes through dc_gridout often.
    const std::string xml =
        R"(<flame version="EMBER-LNX-1.0.0.19" size="48 48" center="0 0" scale="8" quality="20" )"
        R"(estimator_radius="0"><xform weight="1" color="0" color_speed="0.2" coefs="0.5 0 0 0.5 0 0" )"
        R"(dc_gridout="0.5" var_color="VC"/><xform weight="1" color="1" coefs="0.4 0 0 0.4 0.3 0.1" linear="1"/>)"
        R"(PALETTE</flame>)";
    const auto render = [&](const std::string& vc, bool gradient) {
        std::string text = xml;
        text.replace(text.find("VC"), 2, vc);
        std::string palette;
        for (int i = 0; i < 256; ++i) {
            const int r = gradient ? i : 128, g = gradient ? 255 - i : 64;
            palette += R"(<color index=")" + std::to_string(i) + R"(" rgb=")" + std::to_string(r) + " " +
                       std::to_string(g) + R"( 200"/>)";
        }
        text.replace(text.find("PALETTE"), 7, palette);
        fj::RenderOptions options;
        options.backend = fj::BackendChoice::Cpu;
        options.threads = 2;
        options.seed = 77;
        fj::Renderer renderer(options);
        return renderer.render(fj::read_flam3_string(text, "test")[0]).image.rgba;
    };
    // With one colour in every palette entry the index cannot show: the
    // points, and so the images, are the same whatever var_color is.
    const auto flat = render("1", false);
    CHECK(render("0", false) == flat);
    CHECK(render("0.5", false) == flat);
    // With a gradient the index shows, and var_color changes it.
    const auto full = render("1", true), none = render("0", true), half = render("0.5", true);
    CHECK(full != none);
    CHECK(half != none);
    CHECK(half != full);
}
