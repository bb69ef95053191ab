// flamejit — Fractorium's 2D variations beyond flam3's, against what their
// definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked against a property
// its definition implies, worked out here in double precision and, where
// possible, without the snippet's arithmetic: squarize and circlize undo
// each other, julias land on one of their roots with the radius the power
// gives and pick the roots evenly, the flips mirror exactly where they say.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

struct Out {
    double x, y;
};

// What the host build of variation `name` adds at (x, y) (test_support.h).
Out apply(const char* name, float x, float y, float w, const std::vector<float>& p, fj::Rng& rng) {
    const std::complex<double> z = fj::test::host_variation(name, x, y, w, p, rng);
    return {z.real(), z.imag()};
}

// How far a is from a whole multiple of `period`, in units of it.
double off_grid(double a, double period) {
    const double k = a / period;
    return std::fabs(k - std::round(k));
}

}  // namespace

TEST_CASE("fractorium variations: flipcircle, flipx and flipy mirror exactly where they say") {
    std::mt19937 gen(21);
    std::uniform_real_distribution<float> coord(-2, 2), weight(0.3f, 1.5f);
    fj::Rng rng = fj::make_rng(1, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = weight(gen);
        Out o = apply("flipcircle", x, y, w, {}, rng);
        const bool outside = double(x) * x + double(y) * y > double(w) * w;
        wrong += o.x != w * x || o.y != (outside ? w * y : -(w * y));
        o = apply("flipy", x, y, w, {}, rng);
        wrong += o.x != w * x || o.y != (x > 0 ? -(w * y) : w * y);
        o = apply("flipx", x, y, w, {}, rng);
        wrong += o.y != w * y || o.x != (y > 0 ? -(w * x) : w * x);
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium variations: circlize undoes squarize, and squarize puts points on their square") {
    std::mt19937 gen(22);
    std::uniform_real_distribution<float> coord(-3, 3);
    fj::Rng rng = fj::make_rng(2, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen);
        const double r = std::hypot(double(x), double(y));
        // squarize, weight 1: onto the square of half-width r.
        const Out s = apply("squarize", x, y, 1.0f, {}, rng);
        wrong += std::fabs(std::max(std::fabs(s.x), std::fabs(s.y)) - r) > 1e-5 * std::max(1.0, r);
        // circlize with weight π/4 and no hole maps the square of half-width
        // s to the circle of radius s, perimeter position to angle: back to
        // the point (away from the angle 0 seam, where either side is right).
        const double a = std::atan2(double(y), double(x));
        if (std::fabs(a) < 1e-3) continue;
        const Out c = apply("circlize", float(s.x), float(s.y), float(M_PI / 4), {0}, rng);
        wrong += std::hypot(c.x - x, c.y - y) > 1e-4 * std::max(1.0, r);
    }
    CHECK(wrong == 0);
    // A hole adds to every radius.
    const Out c = apply("circlize", 1, 0.5f, float(M_PI / 4), {0.25f}, rng);
    CHECK(std::hypot(c.x, c.y) == doctest::Approx(1.25));
}

TEST_CASE("fractorium variations: eclipse slides points along x inside its disc, or mirrors them") {
    std::mt19937 gen(23);
    std::uniform_real_distribution<float> coord(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(3, 0);
    const float w = 1.2f, shift = 0.3f;
    int wrong = 0, slid = 0, mirrored = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen);
        const Out o = apply("eclipse", x, y, w, {shift}, rng);
        // Shift 4.3 wraps to 0.3 (Fractorium keeps it in [-2, 2]).
        const Out wrapped = apply("eclipse", x, y, w, {shift + 4}, rng);
        double want = double(w) * x;
        if (std::fabs(y) <= w) {
            const double half = std::sqrt(double(w) * w - double(y) * y), moved = double(x) + shift * w;
            if (std::fabs(x) <= half) {
                if (std::fabs(moved) >= half) {
                    want = -double(w) * x;
                    ++mirrored;
                } else {
                    want = w * moved;
                    ++slid;
                }
            }
        }
        wrong += std::fabs(o.x - want) > 1e-5 || o.y != w * y || std::fabs(wrapped.x - o.x) > 1e-5;
    }
    CHECK(wrong == 0);
    CHECK(slid > 1000);
    CHECK(mirrored > 100);
}

TEST_CASE("fractorium variations: xheart, hole and cardioid, worked from their definitions") {
    std::mt19937 gen(24);
    std::uniform_real_distribution<float> coord(-2, 2), param(-1, 1);
    fj::Rng rng = fj::make_rng(4, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.7f;
        const double r2 = double(x) * x + double(y) * y, r = std::sqrt(r2), phi = std::atan2(double(y), double(x));
        // xheart: scale, turn by π/4·(1 + angle/2), mirror where x ≤ 0.
        const float angle = param(gen), ratio = param(gen);
        const double turn = M_PI / 4 * (1 + angle / 2), bx = 4 / (r2 + 4) * x, by = (6 + 2 * ratio) / (r2 + 4) * y;
        const double hx = std::cos(turn) * bx - std::sin(turn) * by, hy = std::sin(turn) * bx + std::cos(turn) * by;
        Out o = apply("xheart", x, y, w, {angle, ratio}, rng);
        wrong += std::fabs(o.x - w * hx) > 1e-5 || std::fabs(o.y - (hx > 0 ? w * hy : -w * hy)) > 1e-5;
        // hole: along the ray, radius w·r + δ outside, w·δ/(r + δ) inside,
        // δ = (angle/π + 1)^a.
        const float a = 1.5f + param(gen);
        const double delta = std::pow(phi / M_PI + 1, a);
        for (float inside : {0.0f, 1.0f}) {
            o = apply("hole", x, y, w, {a, inside}, rng);
            const double want = inside != 0 ? w * delta / (r + delta) : w * r + delta;
            wrong += std::fabs(std::hypot(o.x, o.y) - std::fabs(want)) > 1e-5 * std::max(1.0, want) ||
                     std::fabs(o.x * y - o.y * x) > 1e-5 * std::max(1.0, want * r);
        }
        // cardioid: along the ray, radius w·sqrt(r² + sin(a·angle) + 1).
        o = apply("cardioid", x, y, w, {a}, rng);
        const double want = w * std::sqrt(r2 + std::sin(a * phi) + 1);
        wrong += std::fabs(std::hypot(o.x, o.y) - want) > 1e-5 * std::max(1.0, want) ||
                 o.x * x + o.y * y < 0;
    }
    CHECK(wrong == 0);
    // hole's origin stays put, as Fractorium's divides by a guarded radius.
    const Out origin = apply("hole", 0, 0, 1, {1, 0}, rng);
    CHECK(origin.x == 0);
    CHECK(origin.y == 0);
}

TEST_CASE("fractorium variations: julian2, juliaq and npolar land on one of their roots, chosen evenly") {
    std::mt19937 gen(25);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(5, 0);
    const int n = 30000;
    int wrong = 0;
    // Runs a three-root julia at random points: `radius(x, y)` is the radius
    // it must give, `turns(angle, x, y)` reads back from its angle which
    // root it took (a whole number when the angle is right); each of the
    // three must come a third of the time.
    const auto three_roots = [&](const char* name, const std::vector<float>& p, float w, auto radius, auto turns) {
        CAPTURE(name);
        int roots[3] = {};
        for (int i = 0; i < n; ++i) {
            const float x = coord(gen), y = coord(gen);
            const Out o = apply(name, x, y, w, p, rng);
            const double want = radius(double(x), double(y));
            wrong += std::fabs(std::hypot(o.x, o.y) - want) > 1e-5 * std::max(1.0, want);
            const double k = turns(std::atan2(o.y, o.x), double(x), double(y));
            wrong += off_grid(k, 1) > 1e-3;
            ++roots[((static_cast<int>(std::lround(k)) % 3) + 3) % 3];
        }
        for (int c : roots) CHECK(c == doctest::Approx(n / 3.0).epsilon(0.04));
    };
    // julian2, power 3, its own affine first: power·angle = atan2 + 2π·root.
    const auto affine = [](double x, double y) { return std::pair{2 * x + 0.5 * y + 0.1, -0.3 * x + y - 0.2}; };
    three_roots(
        "julian2", {2, 0.5f, -0.3f, 1, 0.1f, -0.2f, 3, 1}, 0.8f,
        [&](double x, double y) {
            const auto [ax, ay] = affine(x, y);
            return 0.8 * std::pow(ax * ax + ay * ay, 1.0 / 6);
        },
        [&](double a, double x, double y) {
            const auto [ax, ay] = affine(x, y);
            return (3 * a - std::atan2(ay, ax)) / (2 * M_PI);
        });
    // juliaq, power 3, divisor 2: radius r^(2/3), angle 2/3 of the point's
    // plus a third of a turn per root.
    three_roots(
        "juliaq", {3, 2}, 1.0f, [](double x, double y) { return std::pow(std::hypot(x, y), 2.0 / 3); },
        [](double a, double x, double y) { return (a - std::atan2(y, x) * 2 / 3) / (2 * M_PI / 3); });
    // npolar, odd parity, n 3: the same julia without the divisor.
    three_roots(
        "npolar", {1, 3}, 1.0f, [](double x, double y) { return std::cbrt(std::hypot(x, y)); },
        [](double a, double x, double y) { return (3 * a - std::atan2(y, x)) / (2 * M_PI); });
    // julian2 with a fractional power 2.5: the radius it gives.
    for (int i = 0; i < 1000; ++i) {
        const float x = coord(gen), y = coord(gen);
        const auto [ax, ay] = affine(x, y);
        const Out o = apply("julian2", x, y, 0.8f, {2, 0.5f, -0.3f, 1, 0.1f, -0.2f, 2.5f, 1}, rng);
        const double want = 0.8 * std::pow(ax * ax + ay * ay, 1.0 / 5);
        wrong += std::fabs(std::hypot(o.x, o.y) - want) > 1e-5 * std::max(1.0, want);
    }
    // Even parity 2, n 2: x is the log of the julia's radius, whichever root.
    for (int i = 0; i < 1000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.9f;
        const double v = w / M_PI, px = v * std::atan2(double(x), double(y)),
                     py = 0.5 * v * std::log(double(x) * x + double(y) * y);
        const double r = w * std::pow(px * px + py * py, 0.25) * 2;
        const Out o = apply("npolar", x, y, w, {2, 2}, rng);
        wrong += std::fabs(o.x - v * std::log(r)) > 1e-4 || std::fabs(o.y) > w + 1e-5;
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium variations: unpolar, expo, fdisc, idisc, sigmoid, tancos, petal, stwin worked in double") {
    std::mt19937 gen(26);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(6, 0);
    int wrong = 0;
    // |got − want| within 1e-5 of max(1, |want|) (the point's size: a small
    // coordinate of a large point carries the large one's rounding).
    const auto near = [](const Out& got, double x, double y) {
        return std::hypot(got.x - x, got.y - y) <= 1e-5 * std::max(1.0, std::hypot(x, y));
    };
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.8f;
        const double r = std::hypot(double(x), double(y)), phi = std::atan2(double(y), double(x));
        // unpolar: polar's inverse, e^y at angle x (sine first), over 2π.
        const double u = w / (2 * M_PI) * std::exp(double(y));
        wrong += !near(apply("unpolar", x, y, w, {}, rng), u * std::sin(double(x)), u * std::cos(double(x)));
        // expo: the complex power c^z, c = -1 + 0.5i, z the point.
        const std::complex<double> e = double(w) * std::exp(std::complex<double>(x, y) *
                                                            std::log(std::complex<double>(-1, 0.5)));
        wrong += !near(apply("expo", x, y, w, {-1, 0.5f}, rng), e.real(), e.imag());
        // fdisc and idisc: the angle from the radius, the radius from the angle.
        const double fa = 2 * M_PI / (r + 1), fr = w * (phi / M_PI + 1) / 2;
        wrong += !near(apply("fdisc", x, y, w, {}, rng), fr * std::cos(fa), fr * std::sin(fa));
        const double ia = M_PI / (r + 1), ir = w * phi / M_PI;
        wrong += !near(apply("idisc", x, y, w, {}, rng), ir * std::cos(ia), ir * std::sin(ia));
        // sigmoid, shift 2 on x: 2/(1 + e^(−10x)) − 1 = tanh(5x); shift
        // −0.5 on y, inverted to −2 with the curve flipped: −2/(1 + e^(10y)) − 1.
        wrong += !near(apply("sigmoid", x, y, -w, {2, -0.5f}, rng), w * std::tanh(5.0 * x),
                       w * (-2 / (1 + std::exp(10.0 * y)) - 1));
        // tancos and petal, as their definitions read.
        const double d = r * r;
        wrong += !near(apply("tancos", x, y, w, {}, rng), w / d * std::tanh(d) * 2 * x, w / d * std::cos(d) * 2 * y);
        const double cx = std::cos(double(x)), sx = std::sin(double(x)), cy = std::cos(double(y));
        wrong += !near(apply("petal", x, y, w, {}, rng), w * cx * std::pow(cx * cy, 3), w * cx * std::pow(sx * cy, 3));
        // stwin: linear plus one ripple on both coordinates.
        const double su = x * w * 0.05, sv = y * w * 0.05;
        const double ripple = (su * su - sv * sv) * std::sin(2 * M_PI * 1.5 * (su + sv)) / (su * su + sv * sv);
        wrong += !near(apply("stwin", x, y, w, {1.5f}, rng), w * x + ripple, w * y + ripple);
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium variations: circus, spher and SphericalN scale along rays as they say") {
    std::mt19937 gen(27);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(7, 0);
    const int n = 30000;
    int wrong = 0, spherical = 0, outside = 0, copies[3] = {};
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.8f;
        const double r = std::hypot(double(x), double(y)), phi = std::atan2(double(y), double(x));
        // circus, scale 2: radius doubled inside the unit circle, halved outside.
        Out o = apply("circus", x, y, w, {2}, rng);
        wrong += std::fabs(std::hypot(o.x, o.y) - w * r * (r <= 1 ? 2 : 0.5)) > 1e-5 || o.x * x + o.y * y < 0;
        // spher: nothing inside; outside, spherical or linear, half and half.
        o = apply("spher", x, y, w, {}, rng);
        if (r <= 1) {
            wrong += o.x != 0 || o.y != 0;
        } else {
            ++outside;
            const bool inverted = std::fabs(o.x - w * x / (r * r)) < 1e-6 && std::fabs(o.y - w * y / (r * r)) < 1e-6;
            const bool plain = std::fabs(o.x - w * x) < 1e-6 && std::fabs(o.y - w * y) < 1e-6;
            wrong += !inverted && !plain;
            spherical += inverted;
        }
        // SphericalN, power 3, dist 1: radius w/r, at angle phi + k·2π/3 read
        // with x the sine and y the cosine; each k a third of the time.
        o = apply("SphericalN", x, y, w, {3, 1}, rng);
        wrong += std::fabs(std::hypot(o.x, o.y) - w / r) > 1e-5 * std::max(1.0, w / r);
        const double k = (std::atan2(o.x, o.y) - phi) / (2 * M_PI / 3);
        wrong += off_grid(k, 1) > 1e-3;
        ++copies[((static_cast<int>(std::lround(k)) % 3) + 3) % 3];
    }
    CHECK(wrong == 0);
    CHECK(spherical == doctest::Approx(outside / 2.0).epsilon(0.04));
    for (int c : copies) CHECK(c == doctest::Approx(n / 3.0).epsilon(0.04));
}
