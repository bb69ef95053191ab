// flamejit — Fractorium's blurs (blur_circle, blur_square, blur_linear,
// blur_pixelize, circleblur, starblur, rblur) against what their definitions
// say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// These variations draw random numbers, so each is run on 1e5 samples from
// fixed seeds. Where a sample may land (the disc, the square, the pixel
// cell, the star, the line) is checked on every sample, with the shape
// worked out here in double from the definition, not from the snippet's
// arithmetic; how the samples spread inside it by Pearson's chi-square over
// bins of equal probability, at the 0.1% level. The parts that do not depend
// on the draws to 1e-5 of max(1, |expected|).
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "test_support.h"

namespace {

constexpr int kSamples = 100000;

struct Out {
    double x, y;
};

// What the host build of variation `name` adds at (x, y) (test_support.h).
Out apply(const char* name, float x, float y, float w, const std::vector<float>& p, fj::Rng& rng) {
    const std::complex<double> z = fj::test::host_variation(name, x, y, w, p, rng);
    return {z.real(), z.imag()};
}

// The bin of t ∈ [0, 1] among n equal ones (t = 1 joins the last).
int bin(double t, int n) {
    return std::clamp(static_cast<int>(std::floor(t * n)), 0, n - 1);
}

// Pearson's statistic of counts expected equal, against the 0.1% point of
// chi-square with bins − 1 degrees of freedom (Wilson–Hilferty's
// approximation, z = 3.09).
void check_even(const std::vector<int>& counts, const char* what) {
    double n = 0;
    for (int c : counts) n += c;
    const double expected = n / counts.size(), k = counts.size() - 1.0;
    double chi2 = 0;
    for (int c : counts) chi2 += (c - expected) * (c - expected) / expected;
    const double h = 2 / (9 * k), limit = k * std::pow(1 - h + 3.09 * std::sqrt(h), 3);
    INFO("bins: " << std::string(what) << ", limit " << limit);
    CHECK(n > 0.5 * kSamples);
    CHECK(chi2 < limit);
}

// True when got is within 1e-5 of max(1, |want|) of want.
bool near(double got, double want) {
    return std::fabs(got - want) <= 1e-5 * std::max(1.0, std::fabs(want));
}

}  // namespace

TEST_CASE("fractorium blurs: blur_circle and circleblur fill the disc of radius |weight| evenly, whatever the input") {
    std::mt19937 gen(31);
    std::uniform_real_distribution<float> coord(-3, 3);
    for (const char* name : {"blur_circle", "circleblur"}) {
        for (float w : {0.7f, -1.3f}) {
            CAPTURE(name);
            CAPTURE(w);
            fj::Rng rng = fj::make_rng(31, w > 0);
            // Four rings of equal area (equal steps of r²) times eight sectors.
            std::vector<int> cells(32);
            int outside = 0, moved = 0;
            for (int i = 0; i < kSamples; ++i) {
                fj::Rng again = rng;
                const Out o = apply(name, coord(gen), coord(gen), w, {}, rng);
                const Out other = apply(name, coord(gen), coord(gen), w, {}, again);
                moved += o.x != other.x || o.y != other.y;
                const double r2 = (o.x * o.x + o.y * o.y) / (double(w) * w);
                outside += r2 > 1 + 1e-6;
                const double turn = std::atan2(o.y, o.x) / (2 * M_PI) + 0.5;
                ++cells[bin(r2, 4) * 8 + bin(turn, 8)];
            }
            CHECK(outside == 0);
            CHECK(moved == 0);
            check_even(cells, "rings × sectors");
        }
    }
}

TEST_CASE("fractorium blurs: blur_square fills the square [-|weight|, |weight|]² evenly, whatever the input") {
    std::mt19937 gen(32);
    std::uniform_real_distribution<float> coord(-3, 3);
    for (float w : {0.6f, -2.0f}) {
        CAPTURE(w);
        fj::Rng rng = fj::make_rng(32, w > 0);
        std::vector<int> cells(36);
        int outside = 0, moved = 0;
        for (int i = 0; i < kSamples; ++i) {
            fj::Rng again = rng;
            const Out o = apply("blur_square", coord(gen), coord(gen), w, {}, rng);
            const Out other = apply("blur_square", coord(gen), coord(gen), w, {}, again);
            moved += o.x != other.x || o.y != other.y;
            const double aw = std::fabs(w);
            outside += std::fabs(o.x) > aw || std::fabs(o.y) > aw;
            ++cells[bin((o.x / aw + 1) / 2, 6) * 6 + bin((o.y / aw + 1) / 2, 6)];
        }
        CHECK(outside == 0);
        CHECK(moved == 0);
        check_even(cells, "6 × 6 grid");
    }
}

TEST_CASE("fractorium blurs: blur_linear moves points along its angle only, a uniform fraction of its length") {
    std::mt19937 gen(33);
    std::uniform_real_distribution<float> coord(-2, 2);
    const float w = 0.9f;
    for (const auto& [length, angle] : {std::pair{1.5f, 2.3f}, std::pair{-0.8f, -1.0f}}) {
        CAPTURE(length);
        CAPTURE(angle);
        fj::Rng rng = fj::make_rng(33, length > 0);
        const double c = std::cos(double(angle)), s = std::sin(double(angle));
        std::vector<int> along(20);
        int wrong = 0;
        for (int i = 0; i < kSamples; ++i) {
            const float x = coord(gen), y = coord(gen);
            fj::Rng again = rng;
            const Out o = apply("blur_linear", x, y, w, {length, angle}, rng);
            // Two whole turns more is the same direction.
            const Out turned = apply("blur_linear", x, y, w, {length, angle + 4 * float(M_PI)}, again);
            wrong += !near(turned.x, o.x) || !near(turned.y, o.y);
            const double dx = o.x / w - x, dy = o.y / w - y;
            wrong += std::fabs(dx * s - dy * c) > 1e-5 * 4;
            const double t = (dx * c + dy * s) / length;
            wrong += t < -1e-5 || t > 1 + 1e-5;
            ++along[bin(t, 20)];
        }
        CHECK(wrong == 0);
        check_even(along, "distance along the angle");
    }
    // No length, no blur: the point times the weight.
    fj::Rng rng = fj::make_rng(33, 7);
    const Out o = apply("blur_linear", 0.25f, -1.5f, w, {0, 1}, rng);
    CHECK(o.x == doctest::Approx(w * 0.25));
    CHECK(o.y == doctest::Approx(w * -1.5));
}

TEST_CASE("fractorium blurs: blur_pixelize lands in its input's cell, spread evenly over scale cells about it") {
    std::mt19937 gen(34);
    std::uniform_real_distribution<float> coord(-3, 3);
    const float w = 0.8f, size = 0.25f;
    for (float scale : {1.0f, 0.5f, 3.0f}) {
        CAPTURE(scale);
        fj::Rng rng = fj::make_rng(34, static_cast<fj::u64>(scale * 4));
        std::vector<int> cells(25);
        int wrong = 0;
        for (int i = 0; i < kSamples; ++i) {
            const float x = coord(gen), y = coord(gen);
            const Out o = apply("blur_pixelize", x, y, w, {size, scale}, rng);
            // Points within a hair of a cell edge could round either way.
            const double cx = std::floor(double(x) / size), cy = std::floor(double(y) / size);
            if (double(x) / size - cx < 1e-4 || double(y) / size - cy < 1e-4 || double(x) / size - cx > 1 - 1e-4 ||
                double(y) / size - cy > 1 - 1e-4)
                continue;
            // Where in the cell, in cells from its centre, then in [0, 1] of
            // the scale-wide square about that centre.
            const double ux = o.x / (double(w) * size) - cx - 0.5, uy = o.y / (double(w) * size) - cy - 0.5;
            const double tx = ux / scale + 0.5, ty = uy / scale + 0.5;
            const double tol = 1e-5 * std::max(1.0, std::max(std::fabs(cx), std::fabs(cy)));
            wrong += tx < -tol || tx > 1 + tol || ty < -tol || ty > 1 + tol;
            // At scale 1 the cell itself, exactly where it can be told.
            if (scale == 1.0f && tx > tol && tx < 1 - tol && ty > tol && ty < 1 - tol)
                wrong += std::floor(o.x / (double(w) * size)) != cx || std::floor(o.y / (double(w) * size)) != cy;
            ++cells[bin(tx, 5) * 5 + bin(ty, 5)];
        }
        CHECK(wrong == 0);
        check_even(cells, "5 × 5 grid of the square");
    }
    // Sizes below FLT_EPSILON (0, negative) are held at it.
    for (float tiny : {0.0f, -1.0f, 1e-9f}) {
        CAPTURE(tiny);
        fj::Rng a = fj::make_rng(34, 9), b = a;
        const Out held = apply("blur_pixelize", 3e-6f, -2e-6f, w, {tiny, 1}, a);
        const Out eps = apply("blur_pixelize", 3e-6f, -2e-6f, w, {FLT_EPSILON, 1}, b);
        CHECK(held.x == eps.x);
        CHECK(held.y == eps.y);
        CHECK(std::floor(held.x / (double(w) * FLT_EPSILON)) == std::floor(3e-6 / FLT_EPSILON));
    }
}

TEST_CASE("fractorium blurs: starblur lands inside its star, evenly along its outline and by area towards the centre") {
    std::mt19937 gen(35);
    std::uniform_real_distribution<float> coord(-3, 3);
    for (const auto& [points, range, w] : {std::tuple{5.0f, 0.4016228317f, 0.8f}, std::tuple{3.0f, 0.7f, 1.1f}}) {
        CAPTURE(points);
        CAPTURE(range);
        const int halves = static_cast<int>(2 * points);
        fj::Rng rng = fj::make_rng(35, halves);
        // A tip T at (1, 0) and the next corner C at radius `range`, half a
        // point round; after the star's quarter turn clockwise tip 0 points down.
        const double half_point = M_PI / points, tx = 1, ty = 0;
        const double cx = range * std::cos(half_point), cy = range * std::sin(half_point);
        const double ex = cx - tx, ey = cy - ty, edge = std::hypot(ex, ey);
        std::vector<int> which(halves), along(10), depth(10);
        int outside = 0, moved = 0;
        for (int i = 0; i < kSamples; ++i) {
            fj::Rng again = rng;
            const Out o = apply("starblur", coord(gen), coord(gen), w, {points, range}, rng);
            const Out other = apply("starblur", coord(gen), coord(gen), w, {points, range}, again);
            moved += o.x != other.x || o.y != other.y;
            const double rho = std::hypot(o.x, o.y) / w;
            const double a = std::atan2(o.y, o.x) + M_PI / 2;  // undo the quarter turn
            // Fold the angle onto [0, half_point] by the star's symmetries,
            // then meet the ray at that angle with the edge TC.
            const double step = 2 * M_PI / points, phi = std::fabs(a - step * std::round(a / step));
            const double dx = std::cos(phi), dy = std::sin(phi);
            const double rim = (tx * ey - ty * ex) / (dx * ey - dy * ex);
            outside += rho > rim * (1 + 1e-5);
            ++which[(static_cast<int>(std::floor(a / half_point)) % halves + halves) % halves];
            ++along[bin(std::hypot(rim * dx - tx, rim * dy - ty) / edge, 10)];
            ++depth[bin((rho / rim) * (rho / rim), 10)];
        }
        CHECK(outside == 0);
        CHECK(moved == 0);
        check_even(which, "half-edges");
        check_even(along, "distance from the tip along the edge");
        check_even(depth, "(radius / outline radius)²");
    }
    // A power of 0 has no star: nothing is added.
    fj::Rng rng = fj::make_rng(35, 0);
    const Out none = apply("starblur", 0.5f, 0.5f, 1, {0, 0.4f}, rng);
    CHECK(none.x == 0);
    CHECK(none.y == 0);
}

TEST_CASE("fractorium blurs: rblur keeps points within offset sharp and jitters the rest within strength × distance beyond it") {
    std::mt19937 gen(36);
    std::uniform_real_distribution<float> coord(-2, 2);
    const float w = 0.9f, strength = 0.6f, offset = 0.5f, centre_x = 0.3f, centre_y = -0.2f;
    fj::Rng rng = fj::make_rng(36, 0);
    std::vector<int> cells(25);
    int wrong = 0, sharp = 0;
    for (int i = 0; i < kSamples; ++i) {
        const float x = coord(gen), y = coord(gen);
        const Out o = apply("rblur", x, y, w, {strength, offset, centre_x, centre_y}, rng);
        const double dist = std::hypot(double(x) - centre_x, double(y) - centre_y);
        const double half = strength * std::max(dist - offset, 0.0);
        if (dist < offset - 1e-5) {
            // Inside: the point times the weight, as a float product.
            wrong += o.x != w * x || o.y != w * y;
            ++sharp;
            continue;
        }
        const double dx = o.x / w - x, dy = o.y / w - y;
        const double tol = 1e-5 * std::max(1.0, std::hypot(double(x), double(y)));
        wrong += std::fabs(dx) > half + tol || std::fabs(dy) > half + tol;
        if (half > 0.05) ++cells[bin((dx / half + 1) / 2, 5) * 5 + bin((dy / half + 1) / 2, 5)];
    }
    CHECK(wrong == 0);
    // Enough inputs fell within offset of the centre (about π·0.5²/16 of
    // them) to exercise the sharp branch.
    CHECK(sharp > kSamples / 40);
    check_even(cells, "5 × 5 grid of the jitter square");
}
