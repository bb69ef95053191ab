// flamejit — Fractorium's complex maps, hyperbolic tilings, grids and
// waves, against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double precision
// against its definition, reached another way where there is one: the
// complex maps through std::complex and its principal powers and roots, the
// hypertiles through hyperbolic geometry (a {p, q} tile's neighbour lies at
// hyperbolic distance 2a, cosh a = cos(π/q)/sin(π/p)), ortho through the
// circle orthogonal to the unit circle (radius sqrt(xo² − 1)), poincare by
// keeping the unit circle in place. Random choices are read back from the
// result (which root, which branch, which turn) and counted.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "test_support.h"

namespace {

using cd = std::complex<double>;

// What the host build of a variation adds at a point (test_support.h).
const auto apply = &fj::test::host_variation;
using fj::test::near;

// Which of `count` candidates `got` is (−1: none).
template <typename F>
int which(cd got, int count, F candidate, double slack = 1) {
    for (int k = 0; k < count; ++k)
        if (near(got, candidate(k), slack)) return k;
    return -1;
}

}  // namespace

TEST_CASE("fractorium maps: murl, murl2 and rational3 are the complex functions they name") {
    std::mt19937 gen(41);
    std::uniform_real_distribution<float> coord(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(41, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.8f;
        const cd z(x, y);
        // murl, c 0.6, power 3: c' = c/2; power 1 is raised to Fractorium's 2.
        // (Near a pole the float result is ill-conditioned: skipped.)
        const double c1 = 0.6 / 2;
        const cd m3 = 1.0 + c1 * std::pow(z, 3.0), m1 = 1.0 + 0.6 * z * z;
        if (std::abs(m3) > 0.05) wrong += !near(apply("murl", x, y, w, {0.6f, 3}, rng), w * (1 + c1) * z / m3, 10);
        if (std::abs(m1) > 0.05) wrong += !near(apply("murl", x, y, w, {0.6f, 1}, rng), w * 1.6 * z / m1, 10);
        // murl2, c 0.4, power 2.5: principal powers throughout; c 3 is kept at 1.
        const double e = 2 / 2.5;
        const cd u = 1.0 + 0.4 * std::pow(z, 2.5);
        if (std::abs(u) > 0.05)
            wrong += !near(apply("murl2", x, y, w, {0.4f, 2.5f}, rng), w * std::pow(1.4, e) * z / std::pow(u, e), 10);
        if (std::abs(1.0 + z) > 0.05)
            wrong += !near(apply("murl2", x, y, w, {3, 1}, rng), w * 4.0 * z / std::pow(1.0 + z, 2.0), 10);
        // rational3: (z³ − 0.5z² + 0.25z + 1) / (0.3z³ + z² − z + 2).
        const cd t = z * z * z - 0.5 * z * z + 0.25 * z + 1.0, b = 0.3 * z * z * z + z * z - z + 2.0;
        if (std::abs(b) > 0.05)
            wrong += !near(apply("rational3", x, y, w, {1, -0.5f, 0.25f, 1, 0.3f, 1, -1, 2}, rng), double(w) * t / b,
                           10);
    }
    CHECK(wrong == 0);
    // murl2 at c −1 gives the origin.
    CHECK(apply("murl2", 0.3f, 0.2f, 1, {-1, 2}, rng) == cd(0, 0));
}

TEST_CASE("fractorium maps: glynnia is a complex square root, conjugated, inverted or mirrored, half and half") {
    std::mt19937 gen(42);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(42, 0);
    const int n = 20000;
    int wrong = 0, first = 0;
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.9f;
        const cd z(x, y), s = std::sqrt(z);
        const double r = std::abs(z), side = r > 1 ? 1 : -1;
        if (r + x < 1e-2 * r) continue;  // sqrt(r + x) cancels in float near the negative x axis
        const cd got = apply("glynnia", x, y, w, {}, rng);
        // (√2/2)·sqrt(r + x) is the root's real part, and (√2/2)·y/sqrt(r + x) its imaginary part.
        const cd a(w * side * s.real(), -w * s.imag()), b = cd(w * side * s.real(), w * s.imag()) / r;
        if (near(got, a, 10)) ++first;
        else wrong += !near(got, b, 10);
    }
    CHECK(wrong == 0);
    CHECK(first == doctest::Approx(n / 2.0).epsilon(0.04));
}

TEST_CASE("fractorium maps: crescents, twoface, psphere, sinusgrid and coswrap as their definitions read") {
    std::mt19937 gen(43);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(43, 0);
    int wrong = 0;
    const auto raised = [](double v) { return 0.5 - 0.5 * std::cos(v); };
    for (int i = 0; i < 5000; ++i) {
        const double x = coord(gen), y = coord(gen), w = 0.7;
        const float fx = float(x), fy = float(y), fw = float(w);
        const double s = std::sin(x), c = std::cos(x), k = w * (std::cosh(y) + 1) * s * s;
        wrong += !near(apply("crescents", fx, fy, fw, {}, rng), {k * s, k * c});
        const double r2 = x * x + y * y;
        wrong += !near(apply("twoface", fx, fy, fw, {}, rng), x > 0 ? cd(w * x / r2, w * y / r2) : cd(w * x, w * y));
        wrong += !near(apply("psphere", fx, fy, fw, {0.5f}, rng),
                       {-std::cos(w * M_PI * x) * std::sin(w * M_PI * y), std::sin(w * M_PI * x) * std::cos(w * M_PI * y)});
        // sinusgrid: a third of the way to −cos(2π·1.5·x) on x, all the way to −cos(2π·0.5·y) on y.
        wrong += !near(apply("sinusgrid", fx, fy, fw, {1.0f / 3, 1, 1.5f, 0.5f}, rng),
                       {w * (x + (-std::cos(3 * M_PI * x) - x) / 3), -w * std::cos(M_PI * y)});
        // coswrap, repeat −2.4 (→ 2), amounts 0.7 and 2, phases 0.25 and 2.5 (→ 0.5) half turns.
        const auto axis = [&](double v, double amount, double phase) {
            const double u = 0.5 * v + 0.5, copies = 2 * u, frac = copies - std::trunc(copies);
            const double blend = raised(amount + M_PI * phase);
            const double once = u + (raised(4 * u + M_PI * phase) - u) * blend;
            return 2 * w * (once + (raised(4 * frac + M_PI * phase) - once) * blend) - 1;
        };
        wrong += !near(apply("coswrap", fx, fy, fw, {-2.4f, 0.7f, 2, 0.25f, 2.5f}, rng),
                       {axis(x, 0.7, 0.25), axis(y, 2, 0.5)}, 2);
        // coswrap where amount + π·phase is 0 (no blend: v maps to w·(v + 1) − 1)
        // or π (all the way to Fractorium's raised cosine 0.5 − 0.5·cos(4t + π·phase)
        // of t, the fractional part of repeat·(v + 1)/2: sin²(2t), or cos²(2t) at
        // phase 1). Where t jumps, float may land on either side.
        const auto part = [](double v) { return v - std::trunc(v); };
        const double tx = part(2 * 0.5 * (x + 1)), ty = part(3 * 0.5 * (y + 1));
        if (std::min(std::fabs(tx), 1 - std::fabs(tx)) > 1e-4 && std::min(std::fabs(ty), 1 - std::fabs(ty)) > 1e-4) {
            wrong += !near(apply("coswrap", fx, fy, fw, {3, 0, float(M_PI), 0, 0}, rng),
                           {w * (x + 1) - 1, 2 * w * std::pow(std::sin(2 * ty), 2) - 1});
            wrong += !near(apply("coswrap", fx, fy, fw, {2, 0, 0, 1, 0}, rng),
                           {2 * w * std::pow(std::cos(2 * tx), 2) - 1, w * (y + 1) - 1});
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium maps: the hypertiles step to a neighbouring tile of the hyperbolic {p, q} tiling") {
    std::mt19937 gen(44);
    std::uniform_real_distribution<float> coord(-0.9f, 0.9f);
    fj::Rng rng = fj::make_rng(44, 0);
    // A tile's neighbours lie at hyperbolic distance 2a, cosh a = cos(π/q)/sin(π/p):
    // in the Poincaré disc, at Euclidean distance tanh(a) from the centre.
    const double p = 5, q = 4, reach = std::tanh(std::acosh(std::cos(M_PI / q) / std::sin(M_PI / p)));
    const auto move = [&](cd z, double turn) {
        const cd rho = std::polar(reach, turn);
        return (z + std::conj(rho)) / (rho * z + 1.0);
    };
    const int n = 25000;
    int wrong = 0, outside = 0, picks1[5] = {}, picks2[5] = {};
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.8f;
        const cd z(x, y);
        // hypertile, neighbour n = 2 of 5.
        const cd got = apply("hypertile", x, y, w, {5, 4, 2}, rng);
        wrong += !near(got, double(w) * move(z, 2 * 2 * M_PI / 5), 10);
        outside += std::abs(z) < 1 && std::abs(got) >= w;
        // hypertile1: one of the five neighbours at random.
        const int k1 = which(apply("hypertile1", x, y, w, {5, 4}, rng), 5,
                             [&](int k) { return double(w) * move(z, k * 2 * M_PI / 5); }, 10);
        wrong += k1 < 0;
        if (k1 >= 0) ++picks1[k1];
        // hypertile2: the step along the real axis, the result turned back by one of five turns.
        const int k2 = which(apply("hypertile2", x, y, w, {5, 4}, rng), 5,
                             [&](int k) { return double(w) * move(z, 0) * std::polar(1.0, -k * 2 * M_PI / 5); }, 10);
        wrong += k2 < 0;
        if (k2 >= 0) ++picks2[k2];
    }
    CHECK(wrong == 0);
    CHECK(outside == 0);  // the disc maps into itself
    for (int k = 0; k < 5; ++k) {
        CHECK(picks1[k] == doctest::Approx(n / 5.0).epsilon(0.05));
        CHECK(picks2[k] == doctest::Approx(n / 5.0).epsilon(0.05));
    }
    // The neighbour's centre comes to the centre.
    const cd centre = -std::conj(std::polar(reach, 2 * 2 * M_PI / 5));
    CHECK(std::abs(apply("hypertile", float(centre.real()), float(centre.imag()), 1, {5, 4, 2}, rng)) < 1e-6);
}

TEST_CASE("fractorium maps: ortho slides points along circles orthogonal to the unit circle") {
    std::mt19937 gen(45);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(45, 0);
    // Inside the disc, for x ≥ 0: the circle through the point orthogonal to
    // the unit circle has centre (xo, 0) and radius sqrt(xo² − 1); its arc in
    // the disc spans angles ±θ, tan θ = 1/radius, from the centre looking back.
    const auto slide = [](cd z, double turn) {
        const double ax = std::fabs(z.real()), xo = (std::norm(z) + 1) / (2 * ax), ro = std::sqrt(xo * xo - 1);
        const double half = std::atan(1 / ro);
        double a = std::atan2(z.imag(), xo - ax) + turn * half;
        a = std::fmod(a + half, 2 * half) - half;
        const cd s(xo - ro * std::cos(a), ro * std::sin(a));
        return z.real() < 0 ? cd(-s.real(), s.imag()) : s;
    };
    int wrong = 0, inside = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.6f;
        const cd z(x, y);
        if (std::fabs(x) < 1e-2 || std::fabs(std::abs(z) - 1) < 1e-3) continue;  // nearly straight circles
        // Both turns 0: linear.
        wrong += !near(apply("ortho", x, y, w, {0, 0}, rng), double(w) * z, 10);
        // in 0.7 (and out 4 − 2π after wrapping into [-π, π]).
        const double turn_out = 4 - 2 * M_PI;
        const cd got = apply("ortho", x, y, w, {0.7f, 4}, rng);
        if (std::norm(z) < 1) {
            ++inside;
            wrong += !near(got, double(w) * slide(z, 0.7), 100);
        } else {
            const cd inv = 1.0 / std::conj(z), back = 1.0 / std::conj(slide(inv, turn_out));
            wrong += !near(got, double(w) * back, 100);
        }
    }
    CHECK(wrong == 0);
    CHECK(inside > 800);
}

TEST_CASE("fractorium maps: poincare inverts in two circles orthogonal to the unit circle, whatever the weight") {
    std::mt19937 gen(46);
    std::uniform_real_distribution<float> coord(-2, 2), angle(-M_PI, M_PI);
    fj::Rng rng = fj::make_rng(46, 0);
    const auto invert = [](cd z, double radius, double a) {
        const cd c = std::polar(std::sqrt(1 + radius * radius), std::fmod(a, M_PI));
        return c + radius * radius / std::conj(z - c);
    };
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen);
        // Angles past π wrap into [-π, π] first: 4 is 4 − 2π.
        const cd want = invert(invert(cd(x, y), 0.7, -1.2), 1.3, 4 - 2 * M_PI);
        wrong += !near(apply("poincare", x, y, 0.5f, {0.7f, -1.2f, 1.3f, 4}, rng), want, 100);
        // Points of the unit circle stay on it.
        const float t = angle(gen);
        const cd on = apply("poincare", std::cos(t), std::sin(t), 2, {0.7f, -1.2f, 1.3f, 4}, rng);
        wrong += std::fabs(std::abs(on) - 1) > 1e-4;
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium maps: epispiral, bcircle, checks and boarders2 put points where their shapes say") {
    std::mt19937 gen(47);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(47, 0);
    const int n = 20000;
    int wrong = 0, border = 0, dark = 0, pushed = 0;
    double spiral_fraction = 0, ring = 0;
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.8f;
        const double phi = std::atan2(double(y), double(x)), r = std::hypot(double(x), double(y));
        const cd ray = std::polar(1.0, phi);
        // epispiral n 3, holes 0.2: to radius w/cos(3φ) − 0.2w on the point's ray.
        const double t = w / std::cos(3 * phi) - 0.2 * w;
        if (std::fabs(std::cos(3 * phi)) > 1e-2) wrong += !near(apply("epispiral", x, y, w, {3, 0, 0.2f}, rng), t * ray, 10);
        // With thickness 2: a uniform fraction of 2w in place of w.
        const cd thick = apply("epispiral", x, y, w, {3, 2, 0.2f}, rng);
        const double f = (std::real(thick * std::conj(ray)) + 0.2 * w) * std::cos(3 * phi) / (2 * w);
        wrong += f < -1e-4 || f > 1 + 1e-4 || std::fabs(std::imag(thick * std::conj(ray))) > 1e-4 * std::max(1.0, std::abs(thick));
        spiral_fraction += f;
        // bcircle, scale 0.6, border 0.5: linear inside, a ring [1, 1.1] outside.
        const cd b = apply("bcircle", x, y, w, {0.6f, 0.5f}, rng);
        if (0.6 * r <= 1) {
            wrong += !near(b, 0.6 * w * cd(x, y));
        } else {
            ++border;
            const double rr = std::abs(b) / w;
            wrong += rr < 1 - 1e-5 || rr > 1.1 + 1e-5 || std::abs(b / std::abs(b) - ray) > 1e-5;
            ring += rr;
            wrong += apply("bcircle", x, y, w, {0.6f, 0}, rng) != cd(0, 0);
        }
        // checks, squares 0.5 across, offsets (0.3, −0.2), jitter 0.4.
        const cd ch = apply("checks", x, y, w, {0.3f, -0.2f, 0.5f, 0.4f}, rng);
        const auto away = [](double v) { return v >= 0 ? std::floor(v + 0.5) : std::ceil(v - 0.5); };
        const bool odd = (long(away(x / 0.5) + away(y / 0.5)) & 1) != 0;
        dark += odd;
        const double jx = ch.real() / w - x, jy = ch.imag() / w - y;
        if (odd) wrong += std::fabs(jy - 0.2) > 1e-5 || jx < -0.3 - 1e-5 || jx > 0.1 + 1e-5;
        else wrong += std::fabs(jx - 0.3) > 1e-5 || jy < -0.2 - 1e-5 || jy > 0.2 + 1e-5;
        // boarders2, c 0.5, left 0.4, right 0.5: the offset from the nearest
        // node halved, or with odds 0.5·1.5 pushed out by 0.2 along its larger side.
        const double nx = away(x), ny = away(y), dx = x - nx, dy = y - ny;
        const cd kept(w * (0.5 * dx + nx), w * (0.5 * dy + ny));
        const cd push = std::fabs(dx) >= std::fabs(dy) ? cd(std::copysign(0.2, dx), std::copysign(0.2, dx) * dy / dx)
                                                       : cd(std::copysign(0.2, dy) * dx / dy, std::copysign(0.2, dy));
        const cd got = apply("boarders2", x, y, w, {0.5f, 0.4f, 0.5f}, rng);
        if (near(got, kept + double(w) * push, 10)) ++pushed;
        else wrong += !near(got, kept);
    }
    CHECK(wrong == 0);
    CHECK(spiral_fraction / n == doctest::Approx(0.5).epsilon(0.02));
    CHECK(ring / border == doctest::Approx(1.05).epsilon(0.005));
    CHECK(dark == doctest::Approx(n / 2.0).epsilon(0.05));
    CHECK(pushed == doctest::Approx(0.75 * n).epsilon(0.02));
}

TEST_CASE("fractorium maps: wavesn is a julia with waves, each root as often; ripple as its formula reads") {
    std::mt19937 gen(48);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(48, 0);
    const int n = 30000;
    int wrong = 0, roots[3] = {};
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.9f;
        const cd z(x, y);
        // wavesn, power 3: a cube root times w·(the julia's radius), waved.
        const auto waved = [&](int k) {
            const cd j = double(w) * std::polar(std::cbrt(std::abs(z)), (std::arg(z) + 2 * M_PI * k) / 3);
            const double sy = std::sin(1.5 * j.imag()), sx = std::sin(2.5 * j.real());
            return double(w) * cd(j.real() + 0.5 * (0.7 * sy + std::fabs(j.real()) * 0.2 * sy),
                                  j.imag() + 0.5 * (1.1 * sx + std::fabs(j.imag()) * -0.3 * sx));
        };
        const int k = which(apply("wavesn", x, y, w, {1.5f, 2.5f, 0.7f, 1.1f, 0.2f, -0.3f, 3}, rng), 3, waved, 10);
        wrong += k < 0;
        if (k >= 0) ++roots[k];
        // ripple, from the definition: the "distance" is |x·y| from the centre.
        const double s = 1.3, cx = 0.2, cy = -0.1, phase = 0.3 * 2 * M_PI - M_PI, amp = 0.01 * 0.8;
        const double px = x * s - cx, py = y * s + cy, d = std::max(double(FLT_EPSILON), std::fabs(px * py));
        const double wave = std::cos(5 * 1.5 * d - 0.6 * phase);
        const double d1 = wave * phase * amp + d, d2 = wave * (M_PI - phase) * amp + d, along = d1 + (d2 - d1) * phase;
        if (d > 1e-3)
            wrong += !near(apply("ripple", x, y, w, {1.5f, 0.6f, 0.8f, 0.2f, -0.1f, 0.3f, 1.3f}, rng),
                           double(w) / s * cd(cx + px / d * along, -cy + py / d * along), 10);
    }
    CHECK(wrong == 0);
    for (int c : roots) CHECK(c == doctest::Approx(n / 3.0).epsilon(0.04));
}

TEST_CASE("fractorium maps: cpow2 is the complex power z^e on a random branch, both sides of the spread") {
    std::mt19937 gen(49);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(49, 0);
    // r 1.2, a 0.3, divisor 1 (so the final turn is a whole one), spread 2:
    // e = 1.2·e^(iπ·0.15) = c + i·d; the branch angle is read back from the
    // radius, |out|/w = |z|^c·e^(−d·angle), and must be the point's angle plus
    // whole turns, in [−2·2π, 2·2π); the result's angle must then match.
    const double c = 1.2 * std::cos(M_PI * 0.15), d = 1.2 * std::sin(M_PI * 0.15);
    const int n = 20000;
    int wrong = 0, below = 0, above = 0;
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.7f;
        const cd z(x, y), got = apply("cpow2", x, y, w, {1.2f, 0.3f, 1, 2}, rng);
        const double angle = (c * std::log(std::abs(z)) - std::log(std::abs(got) / w)) / d;
        const double turns = (angle - std::arg(z)) / (2 * M_PI);
        wrong += std::fabs(turns - std::round(turns)) > 1e-3 || angle < -4 * M_PI - 1e-3 || angle >= 4 * M_PI + 1e-3;
        (angle < 0 ? below : above) += 1;
        const cd want = double(w) * std::exp(cd(c, d) * cd(std::log(std::abs(z)), angle));
        wrong += !near(got, want, 100);
    }
    CHECK(wrong == 0);
    CHECK(below > n / 10);
    CHECK(above > n / 10);
}
