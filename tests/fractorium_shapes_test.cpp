// flamejit — Fractorium's kaleidoscopes, square windings, waffles and other
// shapes, against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double precision
// against its definition, through the shape it draws where it has one: the
// square windings read back the output's place round its square, lazyjess's
// square (n = 4) is tested as the square it is, the waffle by which of its
// pieces each sample lies in, collideoscope by folding the angle into its
// wedge; random choices are read back from the result and counted.
#include <doctest/doctest.h>

#include <algorithm>
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

// How far round the square of half-width s = max(|x|, |y|) the point lies,
// counterclockwise from the corner (s, −s), in [0, 8s).
double round_square(cd z) {
    const double x = z.real(), y = z.imag(), s = std::max(std::fabs(x), std::fabs(y));
    if (x == s && y < s) return y + s;
    if (y == s) return 3 * s - x;
    if (x == -s) return 5 * s - y;
    return 7 * s + x;
}

// The point `along` round the square of half-width s from (s, −s).
cd on_square(double along, double s) {
    along = std::fmod(along, 8 * s);
    if (along < 2 * s) return {s, along - s};
    if (along < 4 * s) return {3 * s - along, s};
    if (along < 6 * s) return {-s, 5 * s - along};
    return {along - 7 * s, -s};
}

}  // namespace

TEST_CASE("fractorium shapes: funnel, Kaleidoscope, linearT, spiralwing and blob2 as their definitions read") {
    std::mt19937 gen(51);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(51, 0);
    int wrong = 0, blob_inside = 0;
    for (int i = 0; i < 5000; ++i) {
        const double x = coord(gen), y = coord(gen), w = 0.7;
        const float fx = float(x), fy = float(y), fw = float(w);
        const double r = std::hypot(x, y), phi = std::atan2(y, x);
        // funnel, effect 2.6 → 3.
        if (std::fabs(std::cos(y)) > 1e-2) {
            const double stretch = 1 / std::cos(y) + 3 * M_PI;
            wrong += !near(apply("funnel", fx, fy, fw, {2.6f}, rng), w * stretch * cd(std::tanh(x), std::tanh(y)), 10);
        }
        // Kaleidoscope: turned 45°, rotate 0.8 on the point's own part, pull
        // 0.3, line_up 0.2, moved by (0.1, −0.4) above the axis; no weight.
        const double c = std::sqrt(0.5), tx = 0.8 * x * c - y * c, ty = 0.8 * y * c + x * c;
        const cd k(tx + 0.2 + 0.1, y > 0 ? ty + 0.3 + 0.2 - 0.4 : ty - 0.3 - 0.2);
        wrong += !near(apply("Kaleidoscope", fx, fy, fw, {0.3f, 0.8f, 0.2f, 0.1f, -0.4f}, rng), k);
        wrong += !near(apply("Kaleidoscope", fx, fy, 2.5f, {0.3f, 0.8f, 0.2f, 0.1f, -0.4f}, rng), k);
        // linearT: each coordinate's own power, sign kept.
        wrong += !near(apply("linearT", fx, fy, fw, {1.5f, 0.5f}, rng),
                       w * cd(std::copysign(std::pow(std::fabs(x), 1.5), x), std::copysign(std::sqrt(std::fabs(y)), y)));
        // spiralwing: (cos x², sin x²)·sin(y²)/r².
        wrong += !near(apply("spiralwing", fx, fy, fw, {}, rng),
                       w * std::sin(y * y) / (r * r) * cd(std::cos(x * x), std::sin(x * x)), 10);
        // blob2, radius 0.8, n 3, prescale 2, postscale 0.5, symmetry 0.4,
        // compensation 0.5: δ = (sin 3φ + 0.4)/1.2; beyond the radius the
        // distance past it is scaled by |δ|²·0.5 times mode 0.9, or with
        // mode 0 by δ's sign.
        const double delta = (std::sin(3 * phi) + 0.4) / (1 + 0.5 * 0.4), scaled = delta * delta * 0.5;
        const std::vector<float> blob = {0.9f, 3, 0.8f, 2, 0.5f, 0.4f, 0.5f};
        std::vector<float> signed_blob = blob;
        signed_blob[0] = 0;
        if (r < 0.8) {
            ++blob_inside;
            wrong += !near(apply("blob2", fx, fy, fw, blob, rng), w * cd(x, y));
        } else {
            const cd ray = std::polar(1.0, phi);
            wrong += !near(apply("blob2", fx, fy, fw, blob, rng), w * (0.8 + (r - 0.8) * scaled * 0.9) * ray, 10);
            wrong += !near(apply("blob2", fx, fy, fw, signed_blob, rng),
                           w * (0.8 + (r - 0.8) * scaled * (delta < 0 ? -1 : 1)) * ray, 10);
        }
    }
    CHECK(wrong == 0);
    CHECK(blob_inside > 500);
}

TEST_CASE("fractorium shapes: lazyTravis and squish move points round their squares") {
    std::mt19937 gen(52);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(52, 0);
    const int n = 20000;
    int wrong = 0, outside = 0, laps[3] = {};
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 1.1f;
        const cd z(x, y);
        const double s = std::max(std::fabs(x), std::fabs(y));
        // lazyTravis: inside the square of half-width w, a quarter lap
        // (spin_in 0.5, 4s·0.5 = 2s); beyond it spin_out 2.3 wraps to 0.3 and
        // the edge moves out by space 0.25.
        const cd got = apply("lazyTravis", x, y, w, {0.5f, 2.3f, 0.25f}, rng);
        if (s <= w) {
            wrong += !near(got, double(w) * on_square(round_square(z) + 2 * s, s));
        } else {
            ++outside;
            const cd want = on_square(round_square(z) + 4 * s * 0.3, s) * ((s + 0.25) / s);
            wrong += !near(got, double(w) * want, 10);
        }
        // squish, power 3: the place round the square from (s, 0), plus a
        // random lap of three, over three; on the last eighth of the square y
        // is mirrored.
        const cd sq = apply("squish", x, y, w, {3}, rng) / double(w);
        int lap = -1;
        for (int k = 0; k < 3; ++k) {
            const double q = (round_square(z) - s + 8 * s * k) / 3;  // from (s, 0), in [−s/3, 23s/3)
            cd want = on_square(q + s, s);
            if (q > 7 * s) want = std::conj(want);
            if (near(sq, want, 10)) lap = k;
        }
        wrong += lap < 0;
        if (lap >= 0) ++laps[lap];
    }
    CHECK(wrong == 0);
    CHECK(outside > n / 2);
    for (int c : laps) CHECK(c == doctest::Approx(n / 3.0).epsilon(0.04));
}

TEST_CASE("fractorium shapes: lazyjess spins the inside of its square and flips what the spin carries out") {
    std::mt19937 gen(53);
    std::uniform_real_distribution<float> coord(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(53, 0);
    // n 4: the square |x|, |y| < w; spin 0.5 rad; corner 2 (a quarter turn on).
    const double w = 0.9, spin = 0.5;
    const auto in_square = [&](cd z) { return std::max(std::fabs(z.real()), std::fabs(z.imag())) < w; };
    const auto edge_gap = [&](cd z) { return std::fabs(std::max(std::fabs(z.real()), std::fabs(z.imag())) - w); };
    int wrong = 0, kept = 0, flipped = 0, pushed = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen);
        const cd z(x, y);
        if (edge_gap(z) < 1e-4) continue;
        const cd got = apply("lazyjess", x, y, float(w), {4, float(spin), 0.3f, 2}, rng);
        if (!in_square(z)) {
            ++pushed;
            wrong += !near(got, w * (1 + 0.3 / std::abs(z)) * z, 10);
            continue;
        }
        const cd spun = w * z * std::polar(1.0, spin);
        if (edge_gap(spun) < 1e-4) continue;
        if (in_square(spun)) {
            ++kept;
            wrong += !near(got, spun, 10);
        } else {
            ++flipped;
            // Turned back, a quarter turn on, mirrored in the x axis; its
            // radius, w·|z|, scaled by the weight again.
            wrong += !near(got, w * std::conj(spun * std::polar(1.0, -spin + M_PI / 2)), 10);
        }
    }
    CHECK(wrong == 0);
    CHECK(kept > 1000);
    CHECK(flipped > 300);
    CHECK(pushed > 1000);
    // n 2: the band |x| < w, spun about the origin; a point spun out of the
    // band is turned back and mirrored, its radius scaled by the weight once.
    const cd band = apply("lazyjess", 0.5f, 0.1f, float(w), {2, 1.2f, 0, 1}, rng);
    const cd spun = w * cd(0.5, 0.1) * std::polar(1.0, 1.2);
    CHECK(std::fabs(spun.real()) < w);
    CHECK(near(band, spun));
    const cd out = apply("lazyjess", 0.1f, 2.0f, float(w), {2, 1.0f, 0, 1}, rng);
    CHECK(std::fabs((w * cd(0.1, 2) * std::polar(1.0, 1.0)).real()) > w);
    CHECK(near(out, w * std::conj(cd(0.1, 2))));
}

TEST_CASE("fractorium shapes: sschecks, juliaNab and collideoscope, worked in double") {
    std::mt19937 gen(54);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(54, 0);
    const int n = 30000;
    int wrong = 0, roots[3] = {};
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.8f;
        const double r2 = double(x) * x + double(y) * y;
        // sschecks: (sin x, sin y)·w/r², moved by the checkerboard (squares
        // 0.5 across, offsets (0.3, −0.2), jitter 0.4), times w.
        const auto away = [](double v) { return v >= 0 ? std::floor(v + 0.5) : std::ceil(v - 0.5); };
        const bool dark = (long(away(x / 0.5) + away(y / 0.5)) & 1) != 0;
        const cd base = double(w) / r2 * cd(std::sin(double(x)), std::sin(double(y)));
        const cd move = apply("sschecks", x, y, w, {0.3f, -0.2f, 0.5f, 0.4f}, rng) / double(w) - base;
        const double tol = 1e-5 * std::max(1.0, std::abs(base));
        if (dark) wrong += std::fabs(move.imag() - 0.2) > tol || move.real() < -0.3 - tol || move.real() > 0.1 + tol;
        else wrong += std::fabs(move.real() - 0.3) > tol || move.imag() < -0.2 - tol || move.imag() > 0.2 + tol;
        // juliaNab, n 3, a 1.5, b 0.2, separ 0.5: a cube root of the point
        // whose x is |x|^0.5, radius w·r^(1.5/3), then moved by (0.2, 0.2).
        const cd jn = apply("juliaNab", x, y, w, {3, 1.5f, 0.2f, 0.5f}, rng) - cd(0.2, 0.2);
        const double base_angle = std::atan2(double(y), std::sqrt(std::fabs(double(x))));
        int root = -1;
        for (int k = 0; k < 3; ++k)
            if (near(jn, double(w) * std::pow(r2, 0.25) * std::polar(1.0, (base_angle + 2 * M_PI * k) / 3))) root = k;
        wrong += root < 0;
        if (root >= 0) ++roots[root];
        // collideoscope, a 0.3, num 3: wedges of π/3 counted away from the
        // positive x axis, each angle shifted by ±0.1π within its wedge (even
        // wedges forwards), the lower half plane the mirror of the upper.
        const double phi = std::atan2(double(y), double(x)), up = std::fabs(phi), wedge = M_PI / 3;
        const double k = std::floor(up / wedge), shift = std::fmod(k, 2) == 0 ? 0.1 * M_PI : -0.1 * M_PI;
        const double folded = k * wedge + std::fmod(shift + up, wedge);
        const double frac = up / wedge - k;
        if (frac > 1e-4 && frac < 1 - 1e-4) {
            const cd want = double(w) * std::sqrt(r2) * std::polar(1.0, phi < 0 ? -folded : folded);
            wrong += !near(apply("collideoscope", x, y, w, {0.3f, 3}, rng), want, 10);
        }
        // With a 0 it is linear.
        wrong += !near(apply("collideoscope", x, y, w, {0, 3}, rng), double(w) * cd(x, y), 10);
    }
    CHECK(wrong == 0);
    for (int c : roots) CHECK(c == doctest::Approx(n / 3.0).epsilon(0.04));
}

TEST_CASE("fractorium shapes: waffle draws from its five pieces alike, on the turned and scaled unit square") {
    fj::Rng rng = fj::make_rng(55, 0);
    // 6 slices, strips filled over their first 0.3 (x) and 0.6 (y), turned by 0.7.
    const double w = 1.3, turn = 0.7, tx = 0.3, ty = 0.6;
    const int n = 100000;
    int wrong = 0, on_x = 0, on_y = 0, crossing = 0, rest = 0;
    for (int i = 0; i < n; ++i) {
        const cd back = apply("waffle", 0.4f, -0.2f, float(w), {6, float(tx), float(ty), float(turn)}, rng) *
                        std::polar(1.0, turn) / w;
        // Turned back, (a, r) is (x, y) with y flipped by the turn's sense.
        const double a = back.real(), r = back.imag();
        wrong += a < -1e-5 || a > 1 + 1e-5 || r < -1e-5 || r > 1 + 1e-5;
        const double fa = a * 6 - std::floor(a * 6), fr = r * 6 - std::floor(r * 6);
        if (std::fabs(fa - tx) < 1e-4) ++on_x;
        else if (std::fabs(fr - ty) < 1e-4) ++on_y;
        else if (fa < tx && fr < ty) ++crossing;
        else ++rest;
    }
    CHECK(wrong == 0);
    CHECK(on_x == doctest::Approx(n / 5.0).epsilon(0.03));
    CHECK(on_y == doctest::Approx(n / 5.0).epsilon(0.03));
    CHECK(crossing == doctest::Approx(n / 5.0).epsilon(0.03));
    CHECK(rest == doctest::Approx(2 * n / 5.0).epsilon(0.03));
}
