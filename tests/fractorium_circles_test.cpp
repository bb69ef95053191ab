// flamejit — Fractorium's circle family (CircleLinear, CircleRand,
// CircleTrans1, Circle_Rand) and asteria, barycentroid, block, blocky,
// blur_heart, bwraps_rand, circlize2 and smartshape, against what their
// definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each is worked in double from its definition. The circles' lattice noise
// is recomputed here in 64-bit arithmetic reduced modulo 2^32; the shader
// hash of Circle_Rand and bwraps_rand magnifies its sine's last bits 43758
// times, so its value is taken from fj::hash_sine (checked against sin in
// variations_test) and only the rest is worked in double. Random variations
// are checked by replaying their draws from a copy of the random stream.
// barycentroid's coordinates come from Cramer's rule, block's from asin,
// circlize2's angle from the perimeter walked edge by edge, smartshape's
// polygon from the distance of its image to the sector's side.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "codegen/variation_registry.h"
#include "shared/hashes.h"
#include "test_support.h"

namespace {

using cd = std::complex<double>;

const auto apply = &fj::test::host_variation;
using fj::test::near;
using fj::test::frequency_ok;
using fj::test::shader_hash;

// The circles' lattice noise: n = x + 57y, n ^= n << 13,
// (n·(15731n² + 789221) + 1376312589) mod 2^31, over 2^31 − 1; the
// products in 64 bits, reduced modulo 2^32 after each.
double noise(int64_t x, int64_t y) {
    const uint64_t mod = uint64_t(1) << 32;
    uint64_t n = uint64_t(x + 57 * y) % mod;
    n = (n ^ (n << 13)) % mod;
    const uint64_t sq = n * n % mod;
    const uint64_t inner = (sq * 15731 + 789221) % mod;
    const uint64_t v = (n * inner + 1376312589) % mod;
    return double(v & 0x7fffffff) / 2147483647.0;
}

struct Disc {
    double cx, cy, radius, z;
};

// The cell of CircleLinear's grid holding (x, y): its centre, the disc's
// radius and the cell's density value.
Disc grid_disc(double x, double y, double sc, int seed) {
    const int64_t m = int64_t(std::floor(0.5 * x / sc)), n = int64_t(std::floor(0.5 * y / sc));
    return {double(2 * m + 1) * sc, double(2 * n + 1) * sc, (0.3 + 0.7 * noise(m + 10, n + 3)) * sc, noise(m + seed, n)};
}

}  // namespace

TEST_CASE("fractorium circles: grid_noise is the integer hash over 2^31 − 1, in [0, 1]") {
    // At (0, 0) only the constant is left: 1376312589 / (2^31 − 1).
    CHECK(fj::grid_noise(0, 0) == doctest::Approx(1376312589.0 / 2147483647.0).epsilon(1e-7));
    std::mt19937 gen(1160);
    std::uniform_int_distribution<int> cells(-100000, 100000);
    int wrong = 0, low = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const int x = cells(gen), y = cells(gen);
        const float got = fj::grid_noise(fj::u32(x), fj::u32(y));
        wrong += !(got >= 0 && got <= 1) || std::fabs(got - noise(x, y)) > 1e-7;
        low += got < 0.5f;
    }
    CHECK(wrong == 0);
    CHECK(frequency_ok(low, n, 0.5));
}

TEST_CASE("fractorium circles: CircleLinear scales the points of each drawn disc by K or onto the ring from K·ρ to ρ") {
    std::mt19937 gen(1161);
    std::uniform_real_distribution<float> coord(-12, 12), scs(0.3f, 2), ks(-1, 2), dens(0, 1);
    fj::Rng rng = fj::make_rng(1161, 0);
    int wrong = 0, scaled_k = 0, ringed = 0, kept = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.7f;
        const float sc = i % 4 == 0 ? -scs(gen) : scs(gen), k = ks(gen), d1 = dens(gen), d2 = dens(gen);
        const float reverse = i % 3 == 0 ? -1.0f : 1.0f, seed = float(i % 7) - 3;
        const Disc c = grid_disc(x, y, sc, int(seed));
        const double lx = x - c.cx, ly = y - c.cy, d = std::hypot(lx, ly);
        // A point at a cell border, a disc's rim or a threshold is ill-conditioned.
        const double fx = 0.5 * x / sc, fy = 0.5 * y / sc;
        if (std::fabs(fx - std::round(fx)) < 1e-5 || std::fabs(fy - std::round(fy)) < 1e-5) continue;
        if (std::fabs(d - c.radius) < 1e-5 || std::fabs(c.z - d1) < 1e-6 || std::fabs(c.z - double(d1) * d2) < 1e-6) continue;
        double s = 1;
        if (c.z < d1 && d < c.radius) {
            const bool inner = reverse > 0 ? c.z < double(d1) * d2 : c.z > double(d1) * d2;
            s = inner ? k : c.radius / d * (1 - k) + k;
            (inner ? scaled_k : ringed)++;
        } else {
            ++kept;
        }
        // The ring's scale divides by d: a point near the centre has slack.
        const double slack = 10 * (1 + std::fabs(c.radius) / std::max(d, 1e-3));
        wrong += !near(apply("CircleLinear", x, y, w, {sc, k, d1, d2, reverse, 10, 10, seed}, rng),
                       double(w) * cd(c.cx + s * lx, c.cy + s * ly), slack);
    }
    CHECK(wrong == 0);
    CHECK(scaled_k > 500);
    CHECK(ringed > 500);
    CHECK(kept > 500);
    // X and Y change nothing; Sc 0 becomes float epsilon (cells of width
    // 2ε: the point stays in its own tiny cell, moved by at most ε).
    CHECK(apply("CircleLinear", 1.3f, -2.2f, 1, {1, 0.5f, 0.5f, 0.5f, 1, 10, 10, 0}, rng) ==
          apply("CircleLinear", 1.3f, -2.2f, 1, {1, 0.5f, 0.5f, 0.5f, 1, -3, 77, 0}, rng));
    const cd tiny = apply("CircleLinear", 1.3f, -2.2f, 1, {0, 0.5f, 0.5f, 0.5f, 1, 10, 10, 0}, rng);
    CHECK(std::abs(tiny - cd(1.3f, -2.2f)) < 1e-5);
}

TEST_CASE("fractorium circles: CircleRand takes the first of up to 11 replayed draws that lies in its cell's disc") {
    std::mt19937 gen(1162);
    std::uniform_real_distribution<float> scs(0.3f, 2), dens(0.05f, 1), sides(1, 15);
    fj::Rng rng = fj::make_rng(1162, 0);
    int wrong = 0, found = 0, gave_up = 0;
    for (int i = 0; i < 5000; ++i) {
        const float sc = scs(gen), ds = dens(gen), bx = sides(gen), by = sides(gen), w = -1.2f, seed = float(i % 5);
        fj::Rng replay = rng;
        double x = 0, y = 0;
        bool inside = false;
        bool edge = false;
        for (int t = 0; t < 11 && !inside; ++t) {
            x = bx * (1 - 2 * double(fj::rand01(replay)));
            y = by * (1 - 2 * double(fj::rand01(replay)));
            const Disc c = grid_disc(x, y, sc, int(seed));
            const double d = std::hypot(x - c.cx, y - c.cy);
            inside = c.z <= ds && d <= c.radius;
            edge = edge || std::fabs(d - c.radius) < 1e-5 || std::fabs(c.z - ds) < 1e-6;
        }
        const cd got = apply("CircleRand", 0.4f, 0.1f, w, {sc, ds, bx, by, seed}, rng);
        if (edge) continue;  // a rim or threshold decided by float rounding
        (inside ? found : gave_up)++;
        wrong += !near(got, double(w) * cd(x, y), 10);
    }
    CHECK(wrong == 0);
    CHECK(found > 2000);
    CHECK(gave_up > 20);
    // The input point does not matter.
    fj::Rng a = rng, b = rng;
    CHECK(apply("CircleRand", 5, -7, 1, {1, 0.5f, 10, 10, 0}, a) == apply("CircleRand", -0.1f, 0.2f, 1, {1, 0.5f, 10, 10, 0}, b));
}

TEST_CASE("fractorium circles: CircleTrans1 halves towards (X, Y) and moves what lands in a disc onto a replayed circle") {
    std::mt19937 gen(1163);
    std::uniform_real_distribution<float> coord(-10, 10), scs(0.4f, 2), dens(0.1f, 1), centre(-8, 8);
    fj::Rng rng = fj::make_rng(1163, 0);
    int wrong = 0, moved = 0, stayed = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), sc = scs(gen), ds = dens(gen), X = centre(gen), Y = centre(gen);
        const float w = 0.9f, seed = float(i % 5) - 2;
        const double ux = (x - double(X)) * 0.5 + X, uy = (y - double(Y)) * 0.5 + Y;
        const Disc c = grid_disc(ux, uy, sc, int(seed));
        const double d = std::hypot(ux - c.cx, uy - c.cy);
        const double fx = 0.5 * ux / sc, fy = 0.5 * uy / sc;
        bool edge = std::fabs(d - c.radius) < 1e-5 || std::fabs(c.z - ds) < 1e-6 ||
                    std::fabs(fx - std::round(fx)) < 1e-5 || std::fabs(fy - std::round(fy)) < 1e-5;
        cd want(ux, uy);
        fj::Rng replay = rng;
        if (c.z <= ds && d <= c.radius) {
            double px = 0, py = 0, cx = 0, cy = 0;
            for (int t = 0; t < 11; ++t) {
                const double ax = std::fabs(X) * (1 - 2 * double(fj::rand01(replay)));
                const double ay = std::fabs(Y) * (1 - 2 * double(fj::rand01(replay)));
                const double alpha = 2 * M_PI * fj::rand01(replay);
                const int64_t m = int64_t(std::floor(0.5 * ax / sc)), n = int64_t(std::floor(0.5 * ay / sc));
                const double fa = 0.5 * ax / sc, fb = 0.5 * ay / sc;
                edge = edge || std::fabs(fa - std::round(fa)) < 1e-5 || std::fabs(fb - std::round(fb)) < 1e-5;
                const double u = 0.3 + 0.7 * noise(m + 10, n + 3);
                px = u * std::cos(alpha);
                py = u * std::sin(alpha);
                cx = double(2 * m + 1) * sc;
                cy = double(2 * n + 1) * sc;
                edge = edge || std::fabs(noise(m + int(seed), n) - ds) < 1e-6;
                if (noise(m + int(seed), n) <= ds) break;
            }
            want = cd(px + cx, py + cy);
            ++moved;
        } else {
            ++stayed;
        }
        const cd got = apply("CircleTrans1", x, y, w, {sc, ds, X, Y, seed}, rng);
        if (edge) continue;
        wrong += !near(got, double(w) * want, 10);
    }
    CHECK(wrong == 0);
    CHECK(moved > 1000);
    CHECK(stayed > 1000);
}

TEST_CASE("fractorium circles: Circle_Rand lands in the disc of its replayed lattice point, or adds nothing") {
    std::mt19937 gen(1164);
    std::uniform_real_distribution<float> sides(1, 12), sizes(0, 2), pows(-1, 3), dens(0, 1), seeds(0, 5);
    fj::Rng rng = fj::make_rng(1164, 0);
    int wrong = 0, drawn = 0, empty = 0;
    for (int i = 0; i < 10000; ++i) {
        const float X = sides(gen), Y = sides(gen), size = sizes(gen), pw = pows(gen), ds = dens(gen), seed = seeds(gen);
        fj::Rng replay = rng;
        const double a = 2 * M_PI * fj::rand01(replay), r = std::sqrt(double(fj::rand01(replay)));
        // The lattice point's coordinates are whole or half numbers, exact in
        // float; taken as the snippet forms them.
        const float lx = 2.0f * (std::floor(fj::rand01(replay) * X + 0.5f) - 0.5f * X);
        const float ly = 2.0f * (std::floor(fj::rand01(replay) * Y + 0.5f) - 0.5f * Y);
        const double h_density = shader_hash(ly, lx, seed), h_size = shader_hash(lx, ly, seed);
        const double radius = h_density < ds ? size * r * std::pow(h_size, double(pw)) : 0;
        const cd got = apply("Circle_Rand", 0.2f, -0.3f, 0.8f, {X, Y, size, pw, ds, seed}, rng);
        if (std::fabs(h_density - ds) < 1e-6) continue;
        if (radius > 0 && std::isfinite(radius)) {
            wrong += !near(got, 0.8 * (std::polar(radius, a) + cd(lx, ly)), 10 * (1 + radius));
            ++drawn;
        } else {
            wrong += got != cd(0, 0);
            ++empty;
        }
    }
    CHECK(wrong == 0);
    CHECK(drawn > 2000);
    CHECK(empty > 2000);
    // size is kept at least 0 (nothing drawn) and density within [0, 1]
    // (density 5 draws wherever the radius is positive, −1 never).
    int any = 0;
    for (int i = 0; i < 200; ++i) {
        any += apply("Circle_Rand", 0, 0, 1, {10, 10, -1, 1, 1, 1}, rng) != cd(0, 0);
        any += apply("Circle_Rand", 0, 0, 1, {10, 10, 1, 1, -1, 1}, rng) != cd(0, 0);
    }
    CHECK(any == 0);
    int full = 0;
    for (int i = 0; i < 200; ++i) full += apply("Circle_Rand", 0, 0, 1, {10, 10, 1, 0, 5, 1}, rng) != cd(0, 0);
    CHECK(full == 200);
}

TEST_CASE("fractorium circles: asteria bends the unit disc's points, keeps the rest, and keeps the corners' 65% of the time") {
    std::mt19937 gen(1165);
    std::uniform_real_distribution<float> coord(-1.5f, 1.5f), alphas(-1, 2);
    fj::Rng rng = fj::make_rng(1165, 0);
    int wrong = 0, bent = 0, outside = 0, corner = 0, corner_kept = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), alpha = alphas(gen), w = 1.1f;
        const double x0 = double(w) * x, y0 = double(w) * y;
        const double r = x0 * x0 + y0 * y0, e = std::hypot(std::fabs(x0) - 1, std::fabs(y0) - 1);
        fj::Rng replay = rng;
        bool stay = r >= 1;
        if (!stay && e < 1) stay = fj::rand01(replay) > 0.35f;
        const cd got = apply("asteria", x, y, w, {alpha}, rng);
        if (std::fabs(r - 1) < 1e-5 || std::fabs(e - 1) < 1e-5) continue;  // a rim decided by rounding
        if (r < 1 && e < 1) {
            // Kept, the output is the scaled point to the last bit.
            ++corner;
            corner_kept += got == cd(w * x, w * y);
        }
        cd want(x0, y0);
        if (!stay) {
            // alpha wraps into [0, 1]; a whole shift of alpha would only
            // flip the signs of c and s together, which the map ignores.
            const double a = alpha - std::floor(alpha);
            const double c = std::cos(M_PI * a), s = std::sin(M_PI * a);
            const double u = c * x0 + s * y0, v = s * x0 + c * y0;
            const double nu = u / std::sqrt(1 - v * v) * (1 - std::sqrt(1 - (1 - std::fabs(v)) * (1 - std::fabs(v))));
            want = cd(nu * c + v * s, v * c - nu * s);
            ++bent;
        } else {
            outside += r >= 1;
        }
        // 1/√(1 − v²) magnifies rounding as |v| nears 1.
        wrong += !near(got, want, 20);
    }
    CHECK(wrong == 0);
    CHECK(bent > 2000);
    CHECK(outside > 2000);
    CHECK(frequency_ok(corner_kept, corner, 0.65));
}

TEST_CASE("fractorium circles: barycentroid combines the point's coordinates in the basis with the point itself") {
    std::mt19937 gen(1166);
    std::uniform_real_distribution<float> coord(-3, 3), basis(-2, 2);
    fj::Rng rng = fj::make_rng(1166, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = i % 10 == 0 ? 0.0f : coord(gen), y = i % 10 == 1 ? 0.0f : coord(gen), w = 0.6f;
        const float a = basis(gen), b = basis(gen), c = basis(gen), d = basis(gen);
        // Cramer's rule for x·(a, b) ... (x, y) = u·(a, b) + v·(c, d).
        const double det = double(a) * d - double(b) * c;
        if (std::fabs(det) < 0.1) continue;  // near-parallel basis: ill-conditioned
        const double u = (double(x) * d - double(y) * c) / det, v = (double(a) * y - double(b) * x) / det;
        if (std::fabs(u) < 1e-4 || std::fabs(v) < 1e-4) continue;  // sign flips at 0
        auto sgn = [](double t) { return t > 0 ? 1.0 : -1.0; };
        const cd want = double(w) * cd(sgn(u) * std::hypot(u, x), sgn(v) * std::hypot(v, y));
        wrong += !near(apply("barycentroid", x, y, w, {a, b, c, d}, rng), want, 10 / std::fabs(det));
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 5000);
    // The default basis scales by √2; a coordinate of exactly 0 has sign 0.
    CHECK(near(apply("barycentroid", 0.3f, -0.4f, 1, {1, 0, 0, 1}, rng), std::sqrt(2.0) * cd(0.3, -0.4)));
    CHECK(apply("barycentroid", 0, 0.5f, 1, {1, 0, 0, 1}, rng).real() == 0);
    // A degenerate basis divides by float epsilon: finite.
    const cd flat = apply("barycentroid", 0.3f, 0.2f, 1, {1, 1, 2, 2}, rng);
    CHECK(std::isfinite(flat.real()));
    CHECK(std::isfinite(flat.imag()));
}

TEST_CASE("fractorium circles: block and blocky are (2/π)·asin(x/xmax) per axis, into the square, blocky's bulged") {
    std::mt19937 gen(1167);
    std::uniform_real_distribution<float> coord(-6, 6), scale(-2, 2), mps(0.5f, 6);
    fj::Rng rng = fj::make_rng(1167, 0);
    int wrong = 0, outside = 0, checked = 0;
    auto axis = [](double x, double y) {
        const double xmax = 0.5 * (std::hypot(x + 1, y) + std::hypot(x - 1, y));
        return 2 / M_PI * std::asin(std::clamp(x / xmax, -1.0, 1.0));
    };
    for (int i = 0; i < 10000; ++i) {
        const float x = i % 10 == 0 ? 0.0f : coord(gen), y = i % 10 == 1 ? 0.0f : coord(gen), w = 0.9f;
        const cd sq(axis(x, y), axis(y, x));
        const cd got = apply("block", x, y, w, {}, rng);
        wrong += !near(got, double(w) * sq, 5);
        outside += std::fabs(got.real()) > w * (1 + 1e-6) || std::fabs(got.imag()) > w * (1 + 1e-6);
        const float sx = scale(gen), sy = scale(gen), mp = i % 2 ? mps(gen) : -mps(gen);
        const double t = (std::cos(double(x)) + std::cos(double(y))) / mp + 1;
        if (std::fabs(t) < 0.05) continue;  // the bulge's pole
        const double r = double(w) * w / t;
        wrong += !near(apply("blocky", x, y, w, {sx, sy, mp}, rng), r * cd(sx * sq.real(), sy * sq.imag()), 10 / std::fabs(t));
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(outside == 0);
    CHECK(checked > 8000);
    // On the x axis beyond the foci x/xmax is ±1: the square's sides.
    CHECK(near(apply("block", 2.5f, 0, 1, {}, rng), cd(1, 0)));
    CHECK(near(apply("block", -4, 0, 1, {}, rng), cd(-1, 0)));
    // mp 0 becomes float epsilon: finite.
    const cd m0 = apply("blocky", 0.3f, 0.7f, 1, {1, 1, 0}, rng);
    CHECK(std::isfinite(m0.real()));
    CHECK(std::isfinite(m0.imag()));
}

TEST_CASE("fractorium circles: blur_heart is the replayed uniform point with y held inside the heart's curves") {
    std::mt19937 gen(1168);
    std::uniform_real_distribution<float> ps(-1, 3), ab(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(1168, 0);
    int wrong = 0, clamped = 0, unclamped = 0;
    for (int i = 0; i < 20000; ++i) {
        const float p = i == 0 ? 0.5f : ps(gen), a = i == 0 ? -0.6f : ab(gen), b = i == 0 ? 0.7f : ab(gen), w = 1.3f;
        fj::Rng replay = rng;
        const double x = 2 * (double(fj::rand01(replay)) - 0.5);
        double y = 2 * (double(fj::rand01(replay)) - 0.5);
        const double side = y < 0 ? -1 : 1;
        const double edge = (a * std::pow(std::max(std::fabs(x), double(FJ_FLT_EPSILON)), double(p)) +
                             side * b * std::sqrt(std::fabs(1 - x * x)) - a) /
                            (std::fabs(a) + std::fabs(b));
        const bool beyond = side > 0 ? y > edge : y < edge;
        if (beyond) y = edge;
        (beyond ? clamped : unclamped)++;
        // |x|^p for small |x| and negative p magnifies x's rounding.
        const double slack = 10 * (1 + std::fabs(edge));
        wrong += !near(apply("blur_heart", 0.5f, 0.5f, w, {p, a, b}, rng), double(w) * cd(x, y), slack);
    }
    CHECK(wrong == 0);
    CHECK(clamped > 2000);
    CHECK(unclamped > 2000);
    // As a pre_ or post_ use it adds to the point (Fractorium's assign-sum).
    CHECK(fj::VariationRegistry::standard().by_name("blur_heart")->pre_post_sum);
    CHECK(fj::VariationRegistry::standard().by_name("CircleRand")->pre_post_sum);
}

TEST_CASE("fractorium circles: bwraps_rand magnifies and twists inside each cell's hashed disc and only weights the rest") {
    std::mt19937 gen(1169);
    std::uniform_real_distribution<float> coord(-5, 5), cells(0.3f, 2), spaces(-1, 1), gains(0.2f, 3), twists(-3, 3);
    fj::Rng rng = fj::make_rng(1169, 0);
    int wrong = 0, inside = 0, outside = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), cs = i % 5 == 0 ? -cells(gen) : cells(gen), sp = spaces(gen);
        const float gain = gains(gen), inner = twists(gen), outer = twists(gen), symm = float(i % 2), seed = float(i % 9);
        const float w = 0.75f;
        // The cell's centre as the snippet forms it (the hash magnifies its bits).
        const float inv = 1.0f / cs;
        const float fx = x * inv, fy = y * inv;
        if (std::fabs(fx - std::round(fx)) < 1e-5 || std::fabs(fy - std::round(fy)) < 1e-5) continue;
        const float cx = (std::floor(fx) + 0.5f) * cs, cy = (std::floor(fy) + 0.5f) * cs;
        const double h = symm == 0 ? shader_hash(cx, cy, seed) : shader_hash(cx * cx, cy * cy, seed);
        const double radius = 0.5 * (double(cs) / (1 + double(sp) * sp)) * h;
        const double lx = double(x) - cx, ly = double(y) - cy, g2 = double(gain) * gain;
        cd want(x, y);
        if (std::fabs(std::hypot(lx, ly) - std::fabs(radius)) < 1e-5) continue;  // the rim
        if (lx * lx + ly * ly <= radius * radius) {
            const double mb = g2 * radius, peak = mb > 2 ? 1 : mb / (mb * mb / 4 + 1);
            const double gx = lx * g2, gy = ly * g2;
            const double k = radius / peak / ((gx * gx + gy * gy) / 4 + 1);
            const double tx = gx * k, ty = gy * k;
            const double rr = (tx * tx + ty * ty) / (radius * radius);
            const double th = inner * (1 - rr) + outer * rr;
            want = cd(cx + std::cos(th) * tx + std::sin(th) * ty, cy - std::sin(th) * tx + std::cos(th) * ty);
            ++inside;
        } else {
            ++outside;
        }
        wrong += !near(apply("bwraps_rand", x, y, w, {cs, sp, gain, inner, outer, symm, seed}, rng), double(w) * want, 20);
    }
    CHECK(wrong == 0);
    CHECK(inside > 2000);
    CHECK(outside > 2000);
    // cellsize 0 only weights.
    CHECK(near(apply("bwraps_rand", 1.7f, -0.2f, 0.5f, {0, 0, 2, 1, 1, 0, 1}, rng), 0.5 * cd(1.7, -0.2)));
}

TEST_CASE("fractorium circles: circlize2 sends the square of half-width s to the circle of radius w·(s + hole) by perimeter") {
    std::mt19937 gen(1170);
    std::uniform_real_distribution<float> coord(-4, 4), holes(-1, 1);
    fj::Rng rng = fj::make_rng(1170, 0);
    int wrong = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = i % 10 == 0 ? 0.0f : coord(gen), y = i % 10 == 1 ? 0.0f : coord(gen), hole = holes(gen), w = 0.8f;
        const double s = std::max(std::fabs(x), std::fabs(y));
        if (s == 0) continue;
        // Counter-clockwise from the lower right corner (s, −s): up the right
        // edge, left along the top, down the left, right along the bottom.
        double t;
        if (x == s && y > -s) t = y + s;
        else if (y == s) t = 2 * s + (s - x);
        else if (x == -s) t = 4 * s + (s - y);
        else t = 6 * s + (x + s);
        const double angle = -M_PI / 4 + t * M_PI / (4 * s);
        wrong += !near(apply("circlize2", x, y, w, {hole}, rng), std::polar(double(w) * (s + hole), angle), 5);
    }
    CHECK(wrong == 0);
    // The origin: half-width ε, angle −π/4, radius w·hole.
    CHECK(near(apply("circlize2", 0, 0, 2, {0.5f}, rng), std::polar(1.0, -M_PI / 4)));
}

TEST_CASE("fractorium circles: smartshape maps circles onto regular polygons, with rounding, distortion and compensation") {
    std::mt19937 gen(1171);
    std::uniform_real_distribution<float> coord(-3, 3), powers(2.2f, 9), rs(-1, 1), rws(0.2f, 3), dists(-1, 3);
    fj::Rng rng = fj::make_rng(1171, 0);
    int wrong = 0, checked = 0, polygon_wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), power = powers(gen), w = 0.7f;
        const float rstr = i % 3 == 0 ? 0.0f : rs(gen), rw = rws(gen), dist = i % 4 == 0 ? 1.0f : dists(gen);
        const float comp = float(i % 2);
        const double pw = std::max(double(power), 2.0), alpha = 2 * M_PI / pw;
        const double phi = std::atan2(double(y), double(x)), r = std::hypot(double(x), double(y));
        const double dang = (phi + M_PI) / alpha, frac = dang - std::floor(dang);
        // Sector edges and middle lines are branch points; skip near them.
        if (std::fabs(frac - 0.5) < 1e-4 || frac < 1e-4 || frac > 1 - 1e-4 || std::fabs(phi) > M_PI - 1e-4) continue;
        const bool upper = frac > 0.5;
        const double xi2 = upper ? 1 - frac : frac, sector = std::floor(dang) + (upper ? 1 : 0);
        const double xi = comp > 0 && dist >= 1 ? std::atan(xi2 * 2 * std::tan(alpha / 2)) / alpha : xi2;
        double coeff = 1;
        if (dist != 0) {
            const double sec = 1 / std::cos(xi * alpha);
            coeff = sec;
            if (rstr != 0) {
                const double blend = std::pow(2 * xi, double(rw)) * rstr / std::sin(alpha / 2) / pw * 2;
                coeff = std::fabs((1 - blend) * sec + blend);
                if (coeff < 0.05) continue;  // a power of a near-zero blend magnifies its rounding
            }
            coeff = std::pow(coeff, double(dist));
        }
        const double ang = (sector + (upper ? -xi : xi)) * alpha - M_PI;
        const cd want = std::polar(double(w) * coeff * r, ang);
        const cd got = apply("smartshape", x, y, w, {power, rstr, rw, dist, comp}, rng);
        // sec near a corner of a triangle or square grows fast; scale the slack.
        wrong += !near(got, want, 20 * coeff);
        ++checked;
        // Plain settings: the image lies on the polygon's side, at distance
        // w·r from the centre along the sector's middle line.
        if (rstr == 0 && dist == 1 && comp == 0) {
            const double mid = sector * alpha - M_PI;
            polygon_wrong += std::fabs(got.real() * std::cos(mid) + got.imag() * std::sin(mid) - w * r) > 1e-5 * (1 + coeff * r);
        }
    }
    CHECK(wrong == 0);
    CHECK(polygon_wrong == 0);
    CHECK(checked > 15000);
    // Power below 2 acts as 2; at power 2 the corner lines stay finite.
    CHECK(apply("smartshape", 0.4f, 0.9f, 1, {0.5f, 0, 1, 1, 0}, rng) == apply("smartshape", 0.4f, 0.9f, 1, {2, 0, 1, 1, 0}, rng));
    for (const float comp : {0.0f, 1.0f}) {
        const cd edge = apply("smartshape", 0, -1, 1, {2, 0.3f, 1, 2, comp}, rng);
        CHECK(std::isfinite(edge.real()));
        CHECK(std::isfinite(edge.imag()));
    }
}
