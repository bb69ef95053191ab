// flamejit — Fractorium's grids, bands, disc swaps and hyperbolic shifts
// (gridout, modulusx/y, trade, mcarpet, hypershift, hypershift2, concentric,
// squares, circlesplit, cylinder2), against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double precision
// against its definition, through the shape it draws: gridout against a
// square spiral walked out from the origin, the modulus bands as the
// representative of x + shift nearest the band's centre, trade as a mirror
// and a scaling between its two discs (and an involution), the hypershifts
// as Möbius maps through std::complex with hypershift2's constants from the
// {p, q} tiling's own triangle, squares' rings turned about their cell's
// centre, circlesplit along its circle. Random choices and the per-cell
// hash are read back from the result and counted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <map>
#include <random>
#include <set>
#include <utility>
#include <vector>

#include "test_support.h"

namespace {

using cd = std::complex<double>;

// What the host build of a variation adds at a point (test_support.h).
const auto apply = &fj::test::host_variation;
using fj::test::near;

// How far v lies from the nearest integer.
double off_integer(double v) { return std::fabs(v - std::round(v)); }

// The square spiral: from the origin step right, then at each lattice point
// turn left whenever the point to the left is still free. Each lattice
// point of the first `steps` maps to the step taken from it.
std::map<std::pair<int, int>, std::pair<int, int>> spiral_steps(int steps) {
    std::map<std::pair<int, int>, std::pair<int, int>> step;
    std::set<std::pair<int, int>> seen = {{0, 0}};
    int x = 0, y = 0, dx = 1, dy = 0;
    for (int i = 0; i < steps; ++i) {
        step[{x, y}] = {dx, dy};
        x += dx;
        y += dy;
        seen.insert({x, y});
        if (!seen.count({x - dy, y + dx})) std::tie(dx, dy) = std::make_pair(-dy, dx);
    }
    return step;
}

// The hyperbolic translation of the unit disc that takes 0 to s.
cd mobius(cd z, double s) { return (z + s) / (1.0 + s * z); }

}  // namespace

TEST_CASE("fractorium tiles: gridout steps each point along the square spiral of its nearest lattice point") {
    const auto step = spiral_steps(400);  // every lattice point of rings 0 to 9
    std::mt19937 gen(61);
    std::uniform_real_distribution<float> coord(-6.4f, 6.4f);
    fj::Rng rng = fj::make_rng(61, 0);
    int wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.8f;
        // std::round rounds halves away from zero, as the definition does.
        const auto at = step.find({int(std::round(x)), int(std::round(y))});
        REQUIRE(at != step.end());
        const cd want = double(w) * cd(x + at->second.first, y + at->second.second);
        wrong += !near(apply("gridout", x, y, w, {}, rng), want);
    }
    CHECK(wrong == 0);
    // Halves: 0.5 belongs to the lattice point 1, −0.5 to −1.
    CHECK(near(apply("gridout", 0.5f, 0, 1, {}, rng), {0.5, 1}));         // (1, 0) steps up
    CHECK(near(apply("gridout", -0.5f, -0.5f, 1, {}, rng), {0.5, -0.5}));  // (−1, −1) steps right
    CHECK(near(apply("gridout", 0, 0, 2, {}, rng), {2, 0}));               // the origin steps right
    CHECK(near(apply("gridout", 3, -3, 1, {}, rng), {4, -3}));             // a ring's last corner leaves it
}

TEST_CASE("fractorium tiles: modulusx and modulusy wrap one coordinate into the band fmod's sign picks") {
    std::mt19937 gen(62);
    std::uniform_real_distribution<float> coord(-4, 4);
    fj::Rng rng = fj::make_rng(62, 0);
    // v + shift modulo 2|X|, the representative nearest the band's centre: 0
    // for X > 0; for X < 0, ±2|X| by the sign of v + X + shift (fmod's sign).
    const auto band = [](double v, double X, double shift, bool& edge) {
        const double t = v + shift, u = v + X + shift, m = 2 * std::fabs(X);
        const double centre = X > 0 ? 0 : (u >= 0 ? m : -m);
        const double k = (t - centre) / m;
        edge = off_integer(k - 0.5) < 1e-5 || std::fabs(u) < 1e-5;  // a band's edge, or fmod's sign
        return t - m * std::round(k);
    };
    const float params[][2] = {{1, 0}, {0.7f, 0.3f}, {-0.6f, 0.25f}, {-1.3f, -2}};
    int wrong = 0, judged = 0, above = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.9f;
        for (const auto& p : params) {
            bool edge_x = false, edge_y = false;
            const double bx = band(x, p[0], p[1], edge_x), by = band(y, p[0], p[1], edge_y);
            if (!edge_x) {
                ++judged;
                wrong += !near(apply("modulusx", x, y, w, {p[0], p[1]}, rng), double(w) * cd(bx, y));
                above += p[0] < 0 && bx > 0;
            }
            if (!edge_y) wrong += !near(apply("modulusy", x, y, w, {p[0], p[1]}, rng), double(w) * cd(x, by));
        }
        // A band of width 0: the coordinate goes to 0.
        wrong += !near(apply("modulusx", x, y, w, {0, 0.5f}, rng), double(w) * cd(0, y));
        wrong += !near(apply("modulusy", x, y, w, {0, 0.5f}, rng), double(w) * cd(x, 0));
    }
    CHECK(wrong == 0);
    CHECK(judged > 19000);
    CHECK(above > 1000);  // negative X: the upper band is used
}

TEST_CASE("fractorium tiles: trade swaps its two discs, mirrored and scaled, and is its own inverse") {
    std::mt19937 gen(63);
    std::uniform_real_distribution<float> cx(-3, 3), cy(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(63, 0);
    const double r1 = 0.8, c1 = 0.8 + 0.3, r2 = 0.5, c2 = 0.5 + 0.6;
    const std::vector<float> params = {0.8f, 0.3f, 0.5f, 0.6f};
    int wrong = 0, right = 0, left = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = cx(gen), y = cy(gen), w = 0.7f;
        const cd z(x, y);
        const double to1 = std::abs(z - c1), to2 = std::abs(z + c2);
        if (std::fabs(to1 - r1) < 1e-5 || std::fabs(to2 - r2) < 1e-5) continue;  // on a disc's edge
        cd want = z;
        // -conj mirrors the offset from the centre left to right.
        if (x > 0 && to1 <= r1) want = -c2 - r2 / r1 * std::conj(z - c1), ++right;
        if (x <= 0 && to2 <= r2) want = c1 - r1 / r2 * std::conj(z + c2), ++left;
        wrong += !near(apply("trade", x, y, w, params, rng), double(w) * want);
        // Twice, at weight 1: back where it started.
        const cd once = apply("trade", x, y, 1, params, rng);
        wrong += !near(apply("trade", float(once.real()), float(once.imag()), 1, params, rng), z, 10);
        // Radii below epsilon are epsilon, gaps below 0 are 0.
        wrong += apply("trade", x, y, w, {-1, -2, 0.5f, -0.3f}, rng) !=
                 apply("trade", x, y, w, {FLT_EPSILON, 0, 0.5f, 0}, rng);
    }
    CHECK(wrong == 0);
    CHECK(right > 1000);
    CHECK(left > 500);
    // With r1 at epsilon the left disc shrinks onto the point (epsilon, 0).
    CHECK(near(apply("trade", -0.6f, 0.2f, 1, {-1, 0, 0.5f, 0.3f}, rng), {0, 0}));
}

TEST_CASE("fractorium tiles: mcarpet and cylinder2 as their definitions read") {
    std::mt19937 gen(64);
    std::uniform_real_distribution<float> coord(-3, 3);
    fj::Rng rng = fj::make_rng(64, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const double x = coord(gen), y = coord(gen), w = 0.6;
        const float fx = float(x), fy = float(y), fw = float(w);
        // mcarpet: the stereographic squeeze 4z/(4 + |z|²), its coordinates
        // scaled by (0.7, −1.2), plus the sheet (1 − 0.4x² + y, 0.9x).
        const cd squeezed = 4.0 * cd(x, y) / (4 + x * x + y * y);
        const cd sheet(1 - 0.4 * x * x + y, 0.9 * x);
        wrong += !near(apply("mcarpet", fx, fy, fw, {0.7f, -1.2f, 0.4f, 0.9f}, rng),
                       w * (cd(0.7 * squeezed.real(), -1.2 * squeezed.imag()) + sheet));
        wrong += !near(apply("mcarpet", fx, fy, fw, {0, 0, 0, 0}, rng), w * cd(1 + y, 0));
        // cylinder2: x becomes the sine of its arctangent.
        wrong += !near(apply("cylinder2", fx, fy, fw, {}, rng), w * cd(std::sin(std::atan(x)), y));
    }
    CHECK(wrong == 0);
    CHECK(near(apply("cylinder2", 1e30f, 2, 0.5f, {}, rng), {0.5, 1}));
    CHECK(near(apply("cylinder2", -1e30f, 2, 0.5f, {}, rng), {-0.5, 1}));
}

TEST_CASE("fractorium tiles: hypershift is the Möbius translation (z + s)/(1 + s·z), weighted about s") {
    std::mt19937 gen(65);
    std::uniform_real_distribution<float> coord(-2, 2), angle(-M_PI, M_PI);
    fj::Rng rng = fj::make_rng(65, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.75f;
        const cd z(x, y);
        for (const float s : {0.01f, 0.4f, -0.7f, 1.5f}) {
            if (std::abs(1.0 + double(s) * z) < 0.05) continue;  // near the pole −1/s
            wrong += !near(apply("hypershift", x, y, w, {s}, rng), double(w) * (mobius(z, s) - double(s)) + double(s), 10);
        }
        // At weight 1: the unit circle stays on itself, and shifting by −s undoes s.
        const float t = angle(gen);
        wrong += std::fabs(std::abs(apply("hypershift", std::cos(t), std::sin(t), 1, {0.6f}, rng)) - 1) > 1e-5;
        if (std::abs(1.0 + 0.6 * z) > 0.05) {
            const cd there = apply("hypershift", x, y, 1, {0.6f}, rng);
            wrong += !near(apply("hypershift", float(there.real()), float(there.imag()), 1, {-0.6f}, rng), z, 100);
        }
    }
    CHECK(wrong == 0);
    // The origin goes to s (the closed form's value there), and so does the pole.
    CHECK(near(apply("hypershift", 0, 0, 0.7f, {0.3f}, rng), {0.3, 0}));
    CHECK(near(apply("hypershift", -2, 0, 0.7f, {0.5f}, rng), {0.5, 0}));
}

TEST_CASE("fractorium tiles: hypershift2 puts the shrunk disc at a random vertex of the {p, q} tiling's central tile") {
    std::mt19937 gen(66);
    std::uniform_real_distribution<float> coord(-0.95f, 0.95f);
    fj::Rng rng = fj::make_rng(66, 0);
    // In the right triangle (tile centre, vertex, edge midpoint), angles π/p
    // and π/q: the circumradius R has cosh R = cot(π/p)·cot(π/q), the half
    // edge h has cosh h = cos(π/p)/sin(π/q). A disc point at hyperbolic
    // distance d from 0 lies tanh(d/2) from the centre.
    struct Tiling {
        double p, q;
        int kinds;
    };
    for (const Tiling t : {Tiling{5, 4, 5}, Tiling{3.5, 7, 4}}) {
        const double A = M_PI / t.p, B = M_PI / t.q;
        const double s = std::tanh(std::acosh(1 / (std::tan(A) * std::tan(B))) / 2);
        const double shrink = std::tanh(std::acosh(std::cos(A) / std::sin(B)) / 2);
        const int n = 20000;
        int wrong = 0, far = 0;
        std::vector<int> picks(t.kinds);
        for (int i = 0; i < n; ++i) {
            const float x = coord(gen), y = coord(gen), w = 0.8f;
            const cd z(x, y), got = apply("hypershift2", x, y, w, {float(t.p), float(t.q)}, rng);
            int k = -1;
            for (int j = 0; j < t.kinds; ++j) {
                const cd turn = std::polar(1.0, (2 * j + 1) * A);
                if (near(got, turn * (double(w) * (mobius(shrink * z, s) - s) + s), 10)) k = j;
            }
            wrong += k < 0;
            if (k >= 0) ++picks[k];
            // At weight 1 the disc lands within h of that vertex: moved back, within tanh(h/2) of 0.
            if (std::norm(z) < 1) {
                const cd back = apply("hypershift2", x, y, 1, {float(t.p), float(t.q)}, rng);
                double nearest = 1;
                for (int j = 0; j < t.kinds; ++j)
                    nearest = std::min(nearest, std::abs(mobius(back * std::polar(1.0, -(2 * j + 1) * A), -s)));
                far += nearest > shrink + 1e-5;
            }
        }
        CHECK(wrong == 0);
        CHECK(far == 0);
        // Each whole turn as often, the last one for a fractional p in proportion.
        for (int j = 0; j < t.kinds; ++j) {
            const double share = std::min(1.0, t.p - j) / t.p;
            CHECK(picks[j] == doctest::Approx(n * share).epsilon(0.05));
        }
    }
    // Without a hyperbolic tiling (Euclidean {4, 4}, spherical {3, 5}, and p
    // or q below 2 held at 2) nothing is added.
    for (const auto& pq : std::vector<std::vector<float>>{{4, 4}, {3, 5}, {1, 30}, {30, -5}})
        CHECK(apply("hypershift2", 0.3f, -0.2f, 1, pq, rng) == cd(0, 0));
}

TEST_CASE("fractorium tiles: concentric draws uniform points of its rings, each ring as often") {
    std::mt19937 gen(67);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(67, 0);
    const int n = 40000;
    const double w = 0.8;
    // radius 1.5, density 4: rings 0, 0.375, 0.75, 1.125, a quarter each.
    int wrong = 0, rings[4] = {}, quadrants[4] = {}, fraction[3] = {}, negative[3] = {};
    double blur_sq = 0, blur_low = 0;
    int blurred = 0;
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen);
        const cd got = apply("concentric", x, y, float(w), {1.5f, 4, 0}, rng);
        const double r = std::abs(got) / w, k = r / 0.375;
        wrong += off_integer(k) > 1e-5 || k > 3.5;
        ++rings[std::min(3, int(std::round(k)))];
        if (r > 0) ++quadrants[(got.real() >= 0 ? 0 : 1) + (got.imag() >= 0 ? 0 : 2)];
        // density 2.5: levels 0, 0.4, 0.8 with odds 0.4, 0.4, 0.2 (radius 1).
        const double f = std::abs(apply("concentric", x, y, float(w), {1, 2.5f, 0}, rng)) / w / 0.4;
        wrong += off_integer(f) > 1e-5 || f > 2.5;
        ++fraction[std::min(2, int(std::round(f)))];
        // density −3: ⌊u·(−3)⌋/(−3) gives 1/3, 2/3 and 1.
        const double g = std::abs(apply("concentric", x, y, float(w), {1, -3, 0}, rng)) / w * 3;
        wrong += off_integer(g) > 1e-5 || g < 0.5 || g > 3.5;
        if (g >= 0.5 && g <= 3.5) ++negative[int(std::round(g)) - 1];
        // R_blur 0.1 moves the ring by (2·sqrt(v) − 1)·0.1: ((offset/0.1 + 1)/2)² is v, uniform.
        const double b = std::abs(apply("concentric", x, y, float(w), {1.5f, 4, 0.1f}, rng)) / w;
        if (b > 0.2) {
            const double offset = b - 0.375 * std::round(b / 0.375), v = std::pow((offset / 0.1 + 1) / 2, 2);
            wrong += v < -1e-4 || v > 1 + 1e-4;
            blur_sq += v;
            blur_low += v < 0.25;
            ++blurred;
        }
        // A density of (nearly) 0 is held at epsilon: the single ring at 0.
        wrong += apply("concentric", x, y, float(w), {1.5f, 1e-7f, 0}, rng) != cd(0, 0);
    }
    CHECK(wrong == 0);
    for (int c : rings) CHECK(c == doctest::Approx(n / 4.0).epsilon(0.04));
    for (int c : quadrants) CHECK(c == doctest::Approx((rings[1] + rings[2] + rings[3]) / 4.0).epsilon(0.05));
    CHECK(fraction[0] == doctest::Approx(0.4 * n).epsilon(0.03));
    CHECK(fraction[2] == doctest::Approx(0.2 * n).epsilon(0.05));
    for (int c : negative) CHECK(c == doctest::Approx(n / 3.0).epsilon(0.04));
    CHECK(blur_sq / blurred == doctest::Approx(0.5).epsilon(0.03));
    CHECK(blur_low / blurred == doctest::Approx(0.25).epsilon(0.05));
}

TEST_CASE("fractorium tiles: squares turns each square ring about its cell's centre by quarter turns") {
    std::mt19937 gen(68);
    std::uniform_real_distribution<float> coord(-3, 3);
    fj::Rng rng = fj::make_rng(68, 0);
    // cellsize 0.5, min 0.5, max 12 (≥ num, so no ring is beyond maxi), num 3,
    // zero 0 (no cell stays whole): ring m ≥ 0.5 turns by (m − 0.5)·π/2.
    const double size = 0.5, lo = 0.5, rings = 2 * 3 / size;
    const std::vector<float> params = {0.5f, 0.5f, 12, 3, 1, 0, 1};
    int wrong = 0, judged = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.7f;
        const cd z(x, y);
        const double gx = x / size, gy = y / size;
        const cd centre((std::floor(gx) + 0.5) * size, (std::floor(gy) + 0.5) * size), off = z - centre;
        const double ax = off.real() * rings + 0.5, ay = off.imag() * rings + 0.5;
        // A cell's or a ring's edge: rounding may pick either side.
        if (off_integer(gx) < 1e-5 || off_integer(gy) < 1e-5 || off_integer(ax) < 1e-4 || off_integer(ay) < 1e-4)
            continue;
        ++judged;
        const double m = std::max(std::fabs(std::floor(ax)), std::fabs(std::floor(ay)));
        const double turn = m < lo ? 0 : (m - lo) * M_PI_2;
        wrong += !near(apply("squares", x, y, w, params, rng), double(w) * (centre + off * std::polar(1.0, turn)));
        // min and max below 0 are 0; cell size 0 is linear.
        wrong += apply("squares", x, y, w, {0.5f, -2, -1, 3, 1, 0.5f, 1}, rng) !=
                 apply("squares", x, y, w, {0.5f, 0, 0, 3, 1, 0.5f, 1}, rng);
        wrong += !near(apply("squares", x, y, w, {0, 0.5f, 12, 3, 1, 0, 1}, rng), double(w) * z);
    }
    CHECK(wrong == 0);
    CHECK(judged > 19000);
}

TEST_CASE("fractorium tiles: squares' hash turns the rings up to a per-cell maxi, or keeps a share `zero` of cells whole") {
    fj::Rng rng = fj::make_rng(69, 0);
    // cellsize 0.25, min 0, max 1, num 4, zero 0.3: per cell, maxi = 1 +
    // ⌊hash·3⌋ is 1, 2 or 3 alike, and rings 1..maxi turn by m·π/2, unless
    // the cell stays whole (3 cells in 10). Rings 1 to 3 of each cell of
    // [0, 16)² are probed; the hash reads the squares of the centre, so each
    // cell's mirror image across the y axis must behave alike.
    const double size = 0.25, rings = 2 * 4 / size;
    const std::vector<float> params = {0.25f, 0, 1, 4, 3, 0.3f, 5};
    int wrong = 0, cells = 0, reach[4] = {}, mirrored = 0;
    for (int i = 0; i < 64; ++i)
        for (int j = 0; j < 64; ++j) {
            const cd centre((i + 0.5) * size, (j + 0.5) * size);
            int turned = 0;  // the rings that turned, as a prefix 1..turned
            for (int m = 1; m <= 3; ++m) {
                const cd off((m + 0.1) / rings, 0.2 / rings);
                // 1: ring m of the cell at c turned, 0: kept, −1: neither.
                const auto state = [&](cd c, cd o) {
                    const cd z = c + o, got = apply("squares", float(z.real()), float(z.imag()), 0.9f, params, rng);
                    return near(got, 0.9 * (c + o * std::polar(1.0, m * M_PI_2))) ? 1 : near(got, 0.9 * z) ? 0 : -1;
                };
                const int here = state(centre, off);
                wrong += here < 0;
                if (here == 1) wrong += turned != m - 1, turned = m;
                mirrored += state(-std::conj(centre), -std::conj(off)) != here;
            }
            ++cells;
            ++reach[turned];
        }
    CHECK(wrong == 0);
    CHECK(mirrored == 0);
    CHECK(reach[0] == doctest::Approx(0.3 * cells).epsilon(0.1));
    for (int k = 1; k <= 3; ++k) CHECK(reach[k] == doctest::Approx(0.7 / 3 * cells).epsilon(0.1));
}

TEST_CASE("fractorium tiles: circlesplit keeps the inside of its circle and moves the outside out by split") {
    std::mt19937 gen(70);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(70, 0);
    int wrong = 0, in_gap = 0, outside = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.6f;
        const cd z(x, y);
        const double r = std::abs(z);
        for (const auto& [radius, split] : {std::pair{1.2, 0.4}, std::pair{1.0, -0.3}}) {
            const double cut = radius - split;
            if (std::fabs(r - cut) < 1e-5) continue;
            const cd got = apply("circlesplit", x, y, w, {float(radius), float(split)}, rng);
            wrong += !near(got, double(w) * (r < cut ? z : z * ((r + split) / r)));
            outside += r >= cut;
            // With split > 0, nothing lands in the ring between the circle and radius.
            if (split > 0) in_gap += std::abs(got) > w * (cut + 1e-5) && std::abs(got) < w * (radius - 1e-5);
        }
    }
    CHECK(wrong == 0);
    CHECK(in_gap == 0);
    CHECK(outside > 5000);
    // The origin, outside when split ≥ radius, goes along the angle 0.
    CHECK(near(apply("circlesplit", 0, 0, 2, {0.3f, 0.5f}, rng), {1, 0}));
}
