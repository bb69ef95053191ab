// flamejit — Fractorium's random, tiling and pattern variations (dust,
// glynnia2, gnarly, hex_modulus, hex_rand, line, point_symmetry,
// tanh_spiral, sphereblur), against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Random variations are checked by replaying their draws from a copy of the
// random stream and working the definition in double, and by how often
// each outcome comes up (within 5 standard deviations of its probability).
// The shader hash of dust and hex_rand magnifies its sine's last bits
// 43758 times, so its value is taken from fj::hash_sine (checked against
// sin in variations_test), its arguments formed in float as the snippets
// form them, and only the rest is worked in double. hex_modulus is checked
// against the nearest point of the triangular lattice found by search,
// gnarly against its cells and discs found in double, tanh_spiral against
// the complex tanh.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "codegen/variation_registry.h"
#include "test_support.h"

namespace {

using cd = std::complex<double>;

const auto apply = &fj::test::host_variation;
using fj::test::near;
using fj::test::frequency_ok;
using fj::test::shader_hash;

const double kPi = M_PI;

// The largest projection of z on the normals of a pointy-top hexagon's
// sides (at 0°, 60°, ... 300°): z lies in the hexagon of inradius h about
// the origin exactly when this is at most h.
double hex_norm(cd z) {
    double best = 0;
    for (int k = 0; k < 6; ++k) best = std::max(best, (z * std::polar(1.0, -k * kPi / 3)).real());
    return best;
}

}  // namespace

TEST_CASE("fractorium patterns: dust sends each unit cell to the hashed dot of its coordinates modulo density") {
    std::mt19937 gen(1181);
    std::uniform_real_distribution<float> coord(-40, 40), dens(-6, 12), dist(-1, 2), pows(-2, 3), unit(0, 1);
    fj::Rng rng = fj::make_rng(1181, 0);
    int wrong = 0, drawn = 0, empty = 0, same_cell = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), density = i % 100 == 0 ? 0.0f : dens(gen);
        const float distortion = dist(gen), power = pows(gen), w = 0.7f;
        const std::vector<float> p{density, distortion, power};
        // X and Y as the snippet forms them (the hash magnifies their last bits).
        const float d = density != 0 ? density : FJ_FLT_EPSILON;
        const float X = std::fmod(std::floor(std::fabs(x)), d) / d, Y = std::fmod(std::floor(std::fabs(y)), d) / d;
        const double a = 2 * kPi * (X + shader_hash(X, Y, 1) * distortion);
        const double base = Y + shader_hash(Y, X, 2) * distortion, r = std::pow(base, double(power));
        const cd got = apply("dust", x, y, w, p, rng);
        // Every point of the same unit cell (of |x| and |y|) lands on the same dot.
        const float fx = std::copysign(std::floor(std::fabs(x)) + 0.001f + 0.998f * unit(gen), x);
        const float fy = std::copysign(std::floor(std::fabs(y)) + 0.001f + 0.998f * unit(gen), y);
        same_cell += apply("dust", fx, fy, w, p, rng) == got;
        // Near 0 the base's sign is decided by rounding, and a negative power
        // magnifies its rounding.
        if (std::fabs(base) < 1e-3) continue;
        if (base > 0) {
            wrong += !near(got, double(w) * std::polar(r, a), 10 * (1 + std::fabs(power)));
            ++drawn;
        } else {
            wrong += got != cd(0, 0);  // a NaN radius: nothing added
            ++empty;
        }
    }
    CHECK(wrong == 0);
    CHECK(drawn > 3000);
    CHECK(empty > 1000);
    CHECK(same_cell == 10000);
    // Density 3 and distortion 0.5 on a 30×30 block of cells: at most 3×3 dots.
    std::set<std::pair<double, double>> dots;
    for (int i = -15; i < 15; ++i)
        for (int j = -15; j < 15; ++j) {
            const cd z = apply("dust", i + 0.5f, j + 0.5f, 1, {3, 0.5f, 1}, rng);
            dots.insert({z.real(), z.imag()});
        }
    CHECK(dots.size() == 9);
}

TEST_CASE("fractorium patterns: glynnia2 takes its replayed branch of the square root as the definition writes it") {
    std::mt19937 gen(1182);
    std::uniform_real_distribution<float> coord(-3, 3);
    fj::Rng rng = fj::make_rng(1182, 0);
    int wrong = 0, first = 0, judged = 0;
    const double w = 0.8, v2 = w * std::sqrt(2.0) / 2;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen) * (i % 4 == 0 ? 0.01f : 1.0f);
        fj::Rng replay = rng;
        const bool a = fj::rand01(replay) > 0.5f;
        const cd got = apply("glynnia2", x, y, float(w), {}, rng);
        // Near the negative x axis r + x cancels even in double: the
        // definition is judged where that costs at most 6 of its 16 digits.
        const double r = std::hypot(double(x), double(y));
        if (x < 0 && (r + x) / r < 1e-6) continue;
        if (r < 1e-3) continue;
        ++judged;
        first += a;
        // As Fractorium writes it.
        cd want;
        if (y > 0) {
            if (a) {
                const double d = std::sqrt(r + x);
                want = cd(v2 * d, -(v2 / d * y));
            } else {
                const double d = r + x, s = w / std::sqrt(r * (y * double(y) + d * d));
                want = cd(s * d, s * y);
            }
        } else {
            if (a) {
                const double d = std::sqrt(r + x);
                want = cd(-(v2 * d), -(v2 / d * y));
            } else {
                const double d = r + x, s = w / std::sqrt(r * (y * double(y) + d * d));
                want = cd(-(s * d), s * y);
            }
        }
        wrong += !near(got, want, 20);
    }
    CHECK(wrong == 0);
    CHECK(judged > 15000);
    CHECK(frequency_ok(first, judged, 0.5));
    // Where float's r + x is 0 (x = −1, y = 1e-5, in the upper half) the
    // result is still the square root's: w·conj(√z) or w/conj(√z).
    const cd z(-1, 1e-5), root = std::sqrt(z);
    int bad = 0;
    for (int i = 0; i < 200; ++i) {
        const cd got = apply("glynnia2", -1, 1e-5f, float(w), {}, rng);
        bad += !(near(got, w * std::conj(root)) || near(got, w / std::conj(root)));
    }
    CHECK(bad == 0);
    // On the negative axis, the lower half's limit: −w·√z or −w/√z with
    // √z = −2i for z = −4 − 0i.
    bad = 0;
    for (int i = 0; i < 200; ++i) {
        const cd got = apply("glynnia2", -4, 0, float(w), {}, rng);
        bad += !(near(got, cd(0, 2 * w)) || near(got, cd(0, -w / 2)));
    }
    CHECK(bad == 0);
    // The origin stays.
    for (int i = 0; i < 20; ++i) CHECK(std::abs(apply("glynnia2", 0, 0, float(w), {}, rng)) == 0);
}

TEST_CASE("fractorium patterns: gnarly whirls each cell's inscribed disc about its centre and keeps the rest") {
    std::mt19937 gen(1183);
    std::uniform_real_distribution<float> coord(-5, 5), sizes(-2, 2), twists(-3, 3);
    fj::Rng rng = fj::make_rng(1183, 0);
    int wrong = 0, whirled = 0, kept = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), size = sizes(gen), twist = twists(gen), w = 0.9f;
        if (std::fabs(size) < 0.1f) continue;
        const double s = size, fx = x / s, fy = y / s;
        // Near a cell's edge the cell is decided by rounding.
        if (std::fabs(fx - std::round(fx)) < 1e-4 || std::fabs(fy - std::round(fy)) < 1e-4) continue;
        const cd c((std::floor(fx) + 0.5) * s, (std::floor(fy) + 0.5) * s), l = cd(x, y) - c;
        const double R = std::fabs(s) / 2;
        // Near the centre the offset's rounding turns the whirl too much.
        if (std::abs(l) < 0.01 * R) continue;
        cd want = cd(x, y);
        if (std::abs(l) <= R) {
            want = c + l * std::polar(1.0, -twist * std::log(std::norm(l) / (R * R)));
            ++whirled;
        } else {
            ++kept;
        }
        wrong += !near(apply("gnarly", x, y, w, {size, twist}, rng), double(w) * want, 20);
    }
    CHECK(wrong == 0);
    CHECK(whirled > 5000);
    CHECK(kept > 2000);
    // A cell's centre stays (log 0 would make it NaN); cellsize 0 only weights.
    CHECK(apply("gnarly", 1.5f, -0.5f, 1, {1, 2}, rng) == cd(1.5, -0.5));
    CHECK(apply("gnarly", 0.3f, 0.2f, 2, {0, 2}, rng) == cd(0.6f, 0.4f));
}

TEST_CASE("fractorium patterns: hex_modulus gives the offset from the nearest centre of the hexagonal lattice") {
    std::mt19937 gen(1184);
    std::uniform_real_distribution<float> coord(-10, 10), sizes(-2, 2);
    fj::Rng rng = fj::make_rng(1184, 0);
    int wrong = 0, outside = 0, judged = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), size = sizes(gen), w = 1.3f;
        if (std::fabs(size) < 0.05f) continue;
        // Pointy-top hexagons of inradius |size|: their centres form the
        // triangular lattice spanned by (2·size, 0) and (size, √3·size).
        const double s = std::fabs(double(size));
        const cd a(2 * s, 0), b(s, std::sqrt(3.0) * s), z(x, y);
        const double n = std::floor(z.imag() / b.imag()), m = std::floor((z.real() - n * b.real()) / a.real());
        double best = 1e300, second = 1e300;
        cd centre;
        for (int di = -2; di <= 2; ++di)
            for (int dj = -2; dj <= 2; ++dj) {
                const cd q = (m + di) * a + (n + dj) * b;
                const double d = std::abs(z - q);
                if (d < best) {
                    second = best;
                    best = d;
                    centre = q;
                } else if (d < second) {
                    second = d;
                }
            }
        // Points near a hexagon's side belong to either neighbour by rounding.
        if (second - best < 1e-4 * s) continue;
        ++judged;
        const cd got = apply("hex_modulus", x, y, w, {size}, rng);
        wrong += !near(got, double(w) * (z - centre) / double(size), 20);
        outside += hex_norm(got) > w * (1 + 1e-5);
    }
    CHECK(wrong == 0);
    CHECK(outside == 0);
    CHECK(judged > 15000);
    // A size of 0 becomes epsilon: the lattice is that fine, the offsets no longer.
    CHECK(hex_norm(apply("hex_modulus", 0.3f, 0.1f, 1, {0}, rng)) <= 1 + 1e-5);
}

TEST_CASE("fractorium patterns: hex_rand lands in the hexagon of its replayed lattice point, uniformly, or adds 0") {
    std::mt19937 gen(1185);
    std::uniform_real_distribution<float> sides(1, 12), sizes(-2, 2), pows(-1, 3), dens(0, 1), seeds(0, 5);
    fj::Rng rng = fj::make_rng(1185, 0);
    int wrong = 0, drawn = 0, empty = 0, outside = 0;
    for (int i = 0; i < 10000; ++i) {
        const float X = sides(gen), Y = sides(gen), size = sizes(gen);
        const float pw = pows(gen), ds = dens(gen), seed = seeds(gen);
        fj::Rng replay = rng;
        const double k = 6.0 * fj::rand01(replay);
        // The lattice point's coordinates as the snippet forms them (whole
        // numbers less X and Y, then the float sheared lattice).
        const float lx = std::floor(fj::rand01(replay) * X * 2.0f) - X;
        const float ly = std::floor(fj::rand01(replay) * Y * 2.0f) - Y;
        const float cx = lx + 0.5f * ly, cy = ly * 0.866025404f;
        const double h_density = shader_hash(cy, cx, seed), h_size = shader_hash(cx, cy, seed);
        const cd got = apply("hex_rand", 0.2f, -0.3f, 0.8f, {X, Y, size, pw, ds, seed}, rng);
        if (std::fabs(h_density - ds) < 1e-6) continue;
        if (!(h_density < ds)) {
            wrong += got != cd(0, 0);
            ++empty;
            continue;
        }
        const double radius = size / 2.0 * std::pow(h_size, double(pw));
        if (!std::isfinite(radius) || std::fabs(radius) > 1e6) continue;
        // The definition's boundary point on edge ⌊k⌋ at place t, scaled by √u.
        const double u = fj::rand01(replay);
        const int edge = int(std::floor(k));
        const double t = k - edge, dist = std::sqrt(1 + t * t - t);
        const double turn = edge % 2 == 1 ? 1 : -1;
        const double angle = 2 * kPi / 3 * (edge / 2) + turn * std::asin(std::sqrt(3.0) / 2 * t / dist) - kPi / 2;
        const double scaled = dist * std::sqrt(u) * 2 / std::sqrt(3.0);
        const cd centre(cx, cy), want = 0.8 * (std::polar(radius * scaled, angle) + centre);
        wrong += !near(got, want, 10 * (1 + std::fabs(radius)));
        outside += hex_norm(got / 0.8 - centre) > std::fabs(radius) * (1 + 1e-5) + 1e-5;
        ++drawn;
    }
    CHECK(wrong == 0);
    CHECK(outside == 0);
    CHECK(drawn > 2000);
    CHECK(empty > 2000);
    // At size 1, power 0 and density 1: a uniform point of the hexagon of
    // inradius 1/2, whose area is 2√3·(1/2)²; a quarter-radius disc about
    // its centre holds π/16 of that, its upper half and its right half half.
    const int n = 40000;
    int in_disc = 0, upper = 0, right = 0, strayed = 0;
    for (int i = 0; i < n; ++i) {
        fj::Rng replay = rng;
        fj::rand01(replay);
        const float lx = std::floor(fj::rand01(replay) * 20.0f) - 10.0f;
        const float ly = std::floor(fj::rand01(replay) * 20.0f) - 10.0f;
        const cd centre(lx + 0.5f * ly, ly * 0.866025404f);
        const cd q = apply("hex_rand", 0, 0, 1, {10, 10, 1, 0, 1, 1}, rng) - centre;
        in_disc += std::abs(q) < 0.25;
        upper += q.imag() > 0;
        right += q.real() > 0;
        strayed += hex_norm(q) > 0.5 + 1e-5;
    }
    CHECK(frequency_ok(in_disc, n, kPi / 16 / (2 * std::sqrt(3.0) / 4)));
    CHECK(frequency_ok(upper, n, 0.5));
    CHECK(frequency_ok(right, n, 0.5));
    CHECK(strayed == 0);
    // density is held to [0, 1]: 0 and below never draw.
    int any = 0;
    for (int i = 0; i < 200; ++i) any += apply("hex_rand", 0, 0, 1, {10, 10, 1, 1, -0.5f, 1}, rng) != cd(0, 0);
    CHECK(any == 0);
}

TEST_CASE("fractorium patterns: line, point_symmetry, tanh_spiral and sphereblur at their replayed draws") {
    std::mt19937 gen(1186);
    std::uniform_real_distribution<float> par(-3, 3), coord(-3, 3), orders(1, 9);
    fj::Rng rng = fj::make_rng(1186, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.3f + std::fabs(par(gen));
        // line: a point of the segment of length w at azimuth π·delta and
        // elevation π·phi, seen from above.
        {
            const float delta = par(gen), phi = par(gen);
            fj::Rng replay = rng;
            const double u = fj::rand01(replay);
            const double ux = std::cos(delta * kPi) * std::cos(phi * kPi);
            const double uy = std::sin(delta * kPi) * std::cos(phi * kPi), uz = std::sin(phi * kPi);
            const double len = std::sqrt(ux * ux + uy * uy + uz * uz);
            wrong += !near(apply("line", x, y, w, {delta, phi}, rng), u * w * cd(ux, uy) / len, 4);
        }
        // point_symmetry: the weighted offset from the centre turned clockwise
        // by 2π·⌊order·u⌋/order, plus the centre.
        {
            const float cx = par(gen), cy = par(gen), order = i % 2 ? std::round(orders(gen)) : orders(gen);
            fj::Rng replay = rng;
            const double k = std::floor(fj::rand01(replay) * order);
            const cd c(cx, cy), want = c + double(w) * (cd(x, y) - c) * std::polar(1.0, -2 * kPi * k / order);
            wrong += !near(apply("point_symmetry", x, y, w, {cx, cy, order}, rng), want, 20);
        }
        // tanh_spiral: tanh((1 + i·a)·t/2), t = 2π·(u − 1/2).
        {
            const float a = par(gen);
            fj::Rng replay = rng;
            const double t = (fj::rand01(replay) - 0.5) * 2 * kPi;
            const cd want = double(w) * std::tanh(cd(1, a) * t / 2.0);
            wrong += !near(apply("tanh_spiral", x, y, w, {a}, rng), want, 20);
        }
        // sphereblur: (cos, sin)(2π·u1)·sin(acos(2·u2 − 1))·w·(acos(2·u3^power − 1)/π)^(2/3).
        {
            const float power = i % 3 == 0 ? 1.0f : std::fabs(par(gen));
            fj::Rng replay = rng;
            const double u1 = fj::rand01(replay), u2 = fj::rand01(replay), u3 = fj::rand01(replay);
            // acos has an infinite slope at 1: skip u3^power within 1e-4 of it.
            if (1 - std::pow(u3, double(power)) < 1e-4) {
                apply("sphereblur", x, y, w, {power}, rng);
                continue;
            }
            const double radius = w * std::exp(std::log(std::acos(std::exp(std::log(u3) * power) * 2 - 1) / kPi) / 1.5);
            const double want_len = radius * std::sin(std::acos(u2 * 2 - 1));
            wrong += !near(apply("sphereblur", x, y, w, {power}, rng), std::polar(want_len, 2 * kPi * u1), 10);
        }
    }
    CHECK(wrong == 0);
    // point_symmetry at order 3 picks each of the three turns a third of the time.
    int turns[3] = {0, 0, 0}, stray = 0;
    const int n = 30000;
    for (int i = 0; i < n; ++i) {
        const cd got = apply("point_symmetry", 1.15f, 0.5f, 1, {0.15f, 0.5f, 3}, rng) - cd(0.15, 0.5);
        const double a = std::arg(got);  // 0, −2π/3 or 2π/3 (the turn by 4π/3)
        if (std::fabs(a) < 1e-5) ++turns[0];
        else if (std::fabs(a + 2 * kPi / 3) < 1e-5) ++turns[1];
        else if (std::fabs(a - 2 * kPi / 3) < 1e-5) ++turns[2];
        else ++stray;
    }
    CHECK(stray == 0);
    for (int c : turns) CHECK(frequency_ok(c, n, 1.0 / 3));
    // sphereblur: power 0 (and −1, kept at 0) puts every point at the origin.
    int moved = 0;
    for (int i = 0; i < 200; ++i) {
        moved += apply("sphereblur", 1, 1, 1, {0}, rng) != cd(0, 0);
        moved += apply("sphereblur", 1, 1, 1, {-1}, rng) != cd(0, 0);
    }
    CHECK(moved == 0);
    // line and sphereblur add to the point as pre_ and post_ uses (Fractorium's
    // assign-sum); the others replace it.
    const auto& reg = fj::VariationRegistry::standard();
    CHECK(reg.by_name("line")->pre_post_sum);
    CHECK(reg.by_name("sphereblur")->pre_post_sum);
    CHECK_FALSE(reg.by_name("point_symmetry")->pre_post_sum);
    CHECK_FALSE(reg.by_name("tanh_spiral")->pre_post_sum);
}
