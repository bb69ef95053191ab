// flamejit — Fractorium's Truchet tilings (hex_truchet, truchet_knot,
// Truchet, Truchet_fill, Truchet_inv, Truchet_glyph), against what their
// definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double
// precision against its definition, written out here: the square tilings'
// bands as |‖d‖ₙ − 1/2| against (2^(1/n) − 1)·width/2 directly (the
// snippets form it scaled, to keep float from overflowing), their tile
// types from the hash (32747·v + 12345) mod 65535 mod 2 in double, at random
// points and parameters. Points are skipped where a float input's rounding
// could decide a branch: a tile's edge, a band's edge, a tile hash within
// float's reach of a whole number. The shader hash (hex_truchet,
// Truchet_glyph) magnifies its sine's last bits 43758 times, so its value is
// taken from fj::hash_sine, as the snippets form it; what follows from it is
// checked in double. The random ones replay their draws from a copy of the
// random stream.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "test_support.h"

namespace {

using cd = std::complex<double>;

const auto apply = &fj::test::host_variation;
using fj::test::near;
using fj::test::shader_hash;

const double kEps = FJ_FLT_EPSILON;

double zeps(double v) { return v != 0 ? v : kEps; }
double off_whole(double v) { return std::fabs(v - std::round(v)); }

struct Sampler {
    std::mt19937 gen;
    explicit Sampler(unsigned seed) : gen(seed) {}
    float uni(double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(gen)); }
    // Exponents spread over [0.002, 2] by their logarithm: small ones too.
    float exponent() { return float(std::exp(uni(std::log(0.002), std::log(2.0)))); }
};

// A band of a square Truchet tile: how far offset (dx, dy) from its corner
// is from the arc of radius 1/2 in the L^n norm, over its half-width.
double band(double dx, double dy, double n, double width) {
    const double r = std::pow(std::pow(std::fabs(dx), n) + std::pow(std::fabs(dy), n), 1 / n);
    return std::fabs(r - 0.5) / (0.5 * (std::pow(2.0, 1 / n) - 1) * width);
}

// Fractorium's Round: halves away from zero.
double round_away(double v) { return v > 0 ? std::floor(v + 0.5) : std::ceil(v - 0.5); }

// The place in its unit tile of coordinate v, as the square Truchets form
// it from v minus its rounding.
double in_tile(double v, double rounded) {
    const double r = v - rounded;
    return r < 0 ? 1 + r : r;
}

// What a tile hash v makes: whether the tile is of the second kind, and
// whether float's v can be trusted to land on the same side (false where
// 32747·v + 12345 is within its rounding of a whole number).
struct TileType {
    bool second, trusted;
};
TileType tile_type(double v) {
    const double t = v * 32747 + 12345;
    const double type = std::fmod(std::fmod(t, 65535.0), 2.0);
    return {!(type < 1), std::fabs(v) < 40 && off_whole(t) > 0.05 + 0.02 * std::fabs(v)};
}

// The two bands of the tile at (x, y) (its place in the tile), the pair of
// corners picked by `second`: which the point lies on, and whether float
// could disagree (within `tol` of an edge).
struct Bands {
    bool on0, on1, edge;
};
Bands bands(double x, double y, bool second, double n, double width) {
    const double b0 = band(second ? x - 1 : x, y, n, width), b1 = band(second ? x : x - 1, y - 1, n, width);
    const double tol = 1e-4 * (1 + 1 / n);
    return {b0 < 1, b1 < 1, std::fabs(b0 - 1) < tol || std::fabs(b1 - 1) < tol};
}

// A point for the square tilings: ordinary or moderately large.
std::pair<float, float> tile_point(Sampler& s, int i) {
    const double range = i % 4 == 0 ? 40 : 4;
    return {s.uni(-range, range), s.uni(-range, range)};
}

}  // namespace

TEST_CASE("fractorium truchet: hex_truchet draws its hashed hexagon's bands at the replayed draws") {
    Sampler s(231);
    fj::Rng rng = fj::make_rng(231, 0);
    int wrong = 0, checked = 0, turned = 0;
    for (int i = 0; i < 20000; ++i) {
        const std::vector<float> p = i % 3 == 0 ? std::vector<float>{1, 1, 1}
                                                : std::vector<float>{s.uni(-1.5, 1.5), s.uni(-3, 3), s.uni(-5, 5)};
        const double w = s.uni(-2, 2);
        fj::Rng replay = rng;
        const double u1 = fj::rand01(replay), u2 = fj::rand01(replay), u3 = fj::rand01(replay), u4 = fj::rand01(replay);
        const double size = std::clamp<double>(p[0], -1, 1), side = p[1];
        const double shrink = 0.5 * (1 - size) * 0.85;
        const double lo = (0.15 + shrink) * (0.15 + shrink), hi = (1 - shrink) * (1 - shrink);
        const double angle = u1 * 2 * M_PI;
        if (std::fabs(angle - 2.0943) < 1e-5 || std::fabs(angle - 4.1887) < 1e-5) continue;  // the band's choice
        const double r = std::sqrt(u2 * (hi - lo) + lo);
        const double cx = angle < 2.0943 ? 1 : angle < 4.1887 ? -1 : 0;
        const double cy = angle < 4.1887 ? 0.5773 : -1.1547;
        const double cells = 2 * side + 1;
        if (off_whole(u3 * cells) < 1e-5 * (1 + std::fabs(cells)) || off_whole(u4 * cells) < 1e-5 * (1 + std::fabs(cells)))
            continue;  // which hexagon
        const double X = 2 * (std::floor(u3 * cells) - side), Y = 2 * (std::floor(u4 * cells) - side);
        const double turn = shader_hash(float(X), float(Y), p[2]) < 0.5 ? 0 : 1.0471;
        turned += turn != 0;
        const double a = angle + 2.6179 - turn, c = std::cos(turn), sn = std::sin(turn);
        const cd want = w * cd(std::cos(a) * r + cx * c + cy * sn + X + 0.5 * Y,
                               std::sin(a) * r - cx * sn + cy * c + 0.866 * Y);
        wrong += !near(apply("hex_truchet", s.uni(-2, 2), s.uni(-2, 2), float(w), p, rng), want, 4);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 19000);
    // The hash turns about half the cells.
    CHECK(turned > checked / 3);
    CHECK(turned < 2 * checked / 3);
}

TEST_CASE("fractorium truchet: truchet_knot draws a bar at its square's corner, upright or lying by parity") {
    Sampler s(232);
    fj::Rng rng = fj::make_rng(232, 0);
    int wrong = 0, odd_seen = 0, even_seen = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = s.uni(-50, 50), y = s.uni(-50, 50), w = s.uni(-2, 2);
        fj::Rng replay = rng;
        const double u1 = fj::rand01(replay), u2 = fj::rand01(replay);
        const double cx = std::floor(double(x)), cy = std::floor(double(y));
        const double across = (u1 - 0.5) * 0.5, lengthwise = (2 * u2 - 1) * (1 - 0.1 - 0.25);
        const bool odd = std::fmod(std::fabs(cx + cy), 2.0) == 1;
        (odd ? odd_seen : even_seen)++;
        const cd want = double(w) * (cd(cx, cy) + (odd ? cd(-lengthwise, across) : cd(across, lengthwise)));
        wrong += !near(apply("truchet_knot", x, y, w, {}, rng), want, 2);
    }
    CHECK(wrong == 0);
    CHECK(odd_seen > 9000);
    CHECK(even_seen > 9000);
}

TEST_CASE("fractorium truchet: Truchet keeps the points on its hashed tiles' bands, at size") {
    Sampler s(233);
    fj::Rng rng = fj::make_rng(233, 0);
    int wrong = 0, checked = 0, on[3] = {0, 0, 0}, kinds[2] = {0, 0};
    for (int i = 0; i < 40000; ++i) {
        const auto [fx, fy] = tile_point(s, i);
        const double x = fx, y = fy, w = s.uni(0.3, 2) * (i % 2 ? 1 : -1);
        const float seed = i % 5 == 0 ? float(int(s.uni(0, 2))) : s.uni(-60, 60);
        const std::vector<float> p = {s.uni(-2, 2), s.exponent(), s.uni(-1, 2), s.uni(-3, 3), s.uni(0.2, 2), seed};
        const double n = std::clamp<double>(p[1], kEps, 2), width = std::min(n, 1.0);
        const double scale = (std::cos(double(p[3])) + std::sin(double(p[3]))) / w;
        const double sx = x * scale, sy = y * scale;
        if (off_whole(sx) < 1e-5 * (1 + std::fabs(sx)) || off_whole(sy) < 1e-5 * (1 + std::fabs(sy))) continue;
        const double tx = in_tile(sx, round_away(sx)), ty = in_tile(sy, round_away(sy));
        const double as = std::fabs(double(seed));
        bool second = as == 1;
        if (as != 0 && as != 1) {
            const double s2 = std::sqrt(zeps(as * 1.5)) / zeps(as * 0.5) * 0.25;
            const double hx = round_away(x) * s2, hy = round_away(y) * s2;
            const TileType t = tile_type((hx + hy + hx * hy + as) * s2 * 0.5);
            if (!t.trusted) continue;
            second = t.second;
        }
        const Bands b = bands(tx, ty, second, n, width);
        if (b.edge) continue;
        const double hits = double(b.on0) + double(b.on1);
        ++on[int(hits)];
        ++kinds[second];
        const cd want = hits * double(std::max(p[4], FJ_FLT_EPSILON)) * cd(tx + std::floor(x), ty + std::floor(y));
        wrong += !near(apply("Truchet", fx, fy, float(w), p, rng), want, 4);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(on[0] > 1000);
    CHECK(on[1] > 1000);
    CHECK(on[2] > 5);  // where the two bands cross (their width is at most the exponent)
    CHECK(kinds[0] > 5000);
    CHECK(kinds[1] > 5000);
}

TEST_CASE("fractorium truchet: Truchet's extended and arc_width change nothing, as in Fractorium") {
    Sampler s(234);
    fj::Rng rng = fj::make_rng(234, 0);
    int differ = 0, nonzero = 0;
    for (int i = 0; i < 2000; ++i) {
        const float x = s.uni(-4, 4), y = s.uni(-4, 4);
        const float n = s.exponent(), seed = s.uni(-60, 60);
        const cd a = apply("Truchet", x, y, 0.7f, {1, n, 0.5f, 0.3f, 1, seed}, rng);
        const cd b = apply("Truchet", x, y, 0.7f, {0, n, 0.05f, 0.3f, 1, seed}, rng);
        differ += a != b;
        nonzero += a != cd(0, 0);
    }
    CHECK(differ == 0);
    CHECK(nonzero > 200);
}

TEST_CASE("fractorium truchet: Truchet_fill doubles the band points' tiles and subtracts the input") {
    Sampler s(235);
    fj::Rng rng = fj::make_rng(235, 0);
    int wrong = 0, checked = 0, on[3] = {0, 0, 0}, kinds[2] = {0, 0};
    for (int i = 0; i < 40000; ++i) {
        const auto [fx, fy] = tile_point(s, i);
        const double x = fx, y = fy, w = s.uni(0.3, 2) * (i % 2 ? 1 : -1);
        const float seed = i % 5 == 0 ? float(int(s.uni(0, 2))) : s.uni(-60, 60);
        // Exponent and arc width beyond their ranges too, to wrap.
        const std::vector<float> p = {i % 3 ? s.exponent() : s.uni(-3, 5), s.uni(-1, 2), seed};
        double n = p[0], width = p[1];
        if (n > 2) n = 0.001 + std::fmod(n - 0.001, 1.999);
        if (n < 0.001) n = 2 - std::fmod(2 - n, 1.999);
        if (width > 1) width = 0.001 + std::fmod(width - 0.001, 0.999);
        if (width < 0.001) width = 1 - std::fmod(1 - width, 0.999);
        const double scale = 1 / w, sx = x * scale, sy = y * scale;
        if (off_whole(sx) < 1e-5 * (1 + std::fabs(sx)) || off_whole(sy) < 1e-5 * (1 + std::fabs(sy))) continue;
        const double tx = in_tile(sx, round_away(sx)), ty = in_tile(sy, round_away(sy));
        bool second = seed != 0;  // 1, and negative seeds (NaN in Fractorium's hash)
        if (seed > 0 && seed != 1) {
            const double s2 = std::sqrt(seed * 1.5) / (seed * 0.5) * 0.25;
            const double hx = round_away(std::fabs(x)) * s2, hy = round_away(std::fabs(y)) * s2;
            const TileType t = tile_type((seed + hx + hy + hx * hy) * s2 * 0.5);
            if (!t.trusted) continue;
            second = t.second;
        }
        const Bands b = bands(tx, ty, second, n, width);
        if (b.edge) continue;
        const double hits = double(b.on0) + double(b.on1);
        ++on[int(hits)];
        ++kinds[second];
        const cd want = 2 * hits * cd(tx + std::floor(x), ty + std::floor(y)) - cd(x, y);
        wrong += !near(apply("Truchet_fill", fx, fy, float(w), p, rng), want, 4);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(on[0] > 1000);
    CHECK(on[1] > 1000);
    CHECK(on[2] > 100);
    CHECK(kinds[0] > 5000);
    CHECK(kinds[1] > 5000);
}

TEST_CASE("fractorium truchet: Truchet_inv keeps the points off both bands, at size") {
    Sampler s(236);
    fj::Rng rng = fj::make_rng(236, 0);
    int wrong = 0, checked = 0, kept = 0, dropped = 0;
    for (int i = 0; i < 40000; ++i) {
        const auto [fx, fy] = tile_point(s, i);
        const double x = fx, y = fy, w = s.uni(0.3, 2) * (i % 2 ? 1 : -1);
        const float seed = i % 5 == 0 ? float(int(s.uni(0, 2))) : s.uni(-60, 60);
        const std::vector<float> p = {i % 3 ? s.exponent() : s.uni(-1, 3), s.uni(-0.5, 1.5), s.uni(-3, 3),
                                      s.uni(-0.5, 2), seed};
        const double n = std::clamp<double>(p[0], 0.001, 2), width = std::clamp<double>(p[1], 0.001, 1);
        const double scale = (std::cos(double(p[2])) + std::sin(double(p[2]))) / w;
        const double sx = x * scale, sy = y * scale;
        if (off_whole(sx) < 1e-5 * (1 + std::fabs(sx)) || off_whole(sy) < 1e-5 * (1 + std::fabs(sy))) continue;
        const double tx = in_tile(sx, std::floor(sx + 0.5)), ty = in_tile(sy, std::floor(sy + 0.5));
        bool second = seed != 0;  // 1, and negative seeds (NaN in Fractorium's hash)
        if (seed > 0 && seed != 1) {
            const double s2 = std::sqrt(seed * 1.5) / (seed * 0.5) * 0.25;
            const double hx = std::floor(x + 0.5) * s2, hy = std::floor(y + 0.5) * s2;
            const TileType t = tile_type((hx + hy + hx * hy + seed) * s2 * 0.5);
            if (!t.trusted) continue;
            second = t.second;
        }
        const Bands b = bands(tx, ty, second, n, width);
        if (b.edge) continue;
        const bool keep = !b.on0 && !b.on1;
        (keep ? kept : dropped)++;
        const cd want = keep ? std::max<double>(p[3], 0) * cd(tx + std::floor(x), ty + std::floor(y)) : cd(0, 0);
        wrong += !near(apply("Truchet_inv", fx, fy, float(w), p, rng), want, 4);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(kept > 5000);
    CHECK(dropped > 5000);
}

TEST_CASE("fractorium truchet: Truchet_glyph fills inside its turned squares and returns the input outside") {
    Sampler s(237);
    fj::Rng rng = fj::make_rng(237, 0);
    int wrong = 0, checked = 0, inside = 0, outside = 0, kinds[2] = {0, 0};
    for (int i = 0; i < 40000; ++i) {
        const auto [fx, fy] = tile_point(s, i);
        const double x = fx, y = fy, w = s.uni(0.3, 2) * (i % 2 ? 1 : -1);
        const float seed = i % 5 == 0 ? float(int(s.uni(0, 2))) : s.uni(-60, 60);
        const std::vector<float> p = {i % 3 ? s.exponent() : s.uni(-1, 3), s.uni(-0.5, 1.5), s.uni(-1, 8),
                                      s.uni(-0.5, 1.5), s.uni(-180, 180), seed};
        const double n = std::clamp<double>(p[0], 0.001, 2), width = std::clamp<double>(p[1], 0.001, 1);
        const double amp = std::max<double>(p[2], kEps), reach = amp * 0.5 * std::max<double>(p[3], 0);
        const double turn = p[4] * M_PI / 180;
        if (off_whole(x / amp) < 1e-5 * (1 + std::fabs(x / amp)) || off_whole(y / amp) < 1e-5 * (1 + std::fabs(y / amp)))
            continue;  // which square
        const double vx = x - (std::floor(x / amp) + 0.5) * amp, vy = y - (std::floor(y / amp) + 0.5) * amp;
        const double c = std::cos(turn), sn = std::sin(turn);
        const double diamond = std::fabs(c * vx + sn * vy) + std::fabs(-sn * vx + c * vy);
        if (std::fabs(diamond - reach) < 1e-5 * (1 + std::fabs(x) + std::fabs(y))) continue;
        if (!(diamond < reach)) {
            ++outside;
            wrong += !near(apply("Truchet_glyph", fx, fy, float(w), p, rng), cd(x, y), 4);
            ++checked;
            continue;
        }
        const double scale = 1 / w, sx = x * scale, sy = y * scale;
        if (off_whole(sx) < 1e-5 * (1 + std::fabs(sx)) || off_whole(sy) < 1e-5 * (1 + std::fabs(sy))) continue;
        const double tx = in_tile(sx, std::floor(sx + 0.5)), ty = in_tile(sy, std::floor(sy + 0.5));
        bool second = seed == 1;
        if (seed != 0 && seed != 1) {
            const double h = shader_hash(float(std::floor(std::fabs(x) + 0.5)), float(std::floor(std::fabs(y) + 0.5)), seed);
            const TileType t = tile_type(h);
            if (!t.trusted) continue;
            second = t.second;
        }
        const Bands b = bands(tx, ty, second, n, width);
        if (b.edge) continue;
        ++inside;
        ++kinds[second];
        const double hits = double(b.on0) + double(b.on1);
        const cd want = 2 * hits * cd(tx + std::floor(x), ty + std::floor(y)) - cd(x, y);
        wrong += !near(apply("Truchet_glyph", fx, fy, float(w), p, rng), want, 4);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(inside > 5000);
    CHECK(outside > 5000);
    CHECK(kinds[0] > 2000);
    CHECK(kinds[1] > 2000);
}

TEST_CASE("fractorium truchet: the bands survive exponents below 1/128, where 2^(1/n) overflows float") {
    // n = 0.005: 2^200 is beyond float. The bands are where the power mean
    // of |dx| and |dy| (nearly their geometric mean) is below about
    // width/2: along the tile's sides. Truchet_inv (width 0.8, rotation 0,
    // weight 1: the tile is the point's own) against the double definition
    // at the points of a grid.
    fj::Rng rng = fj::make_rng(238, 0);
    int on = 0, off = 0, wrong = 0;
    for (int i = 0; i < 40; ++i) {
        for (int j = 0; j < 40; ++j) {
            const float x = float(i / 40.0 + 0.0031), y = float(j / 40.0 + 0.0017);
            const Bands b = bands(x, y, false, 0.005, 0.8);
            if (b.edge) continue;
            const bool keep = !b.on0 && !b.on1;
            (keep ? off : on)++;
            wrong += !near(apply("Truchet_inv", x, y, 1, {0.005f, 0.8f, 0, 1, 0}, rng), keep ? cd(x, y) : cd(0, 0), 4);
        }
    }
    CHECK(wrong == 0);
    CHECK(on > 100);
    CHECK(off > 100);
}
