// flamejit — Fractorium's rays, Lissajous, target and GlynnSim variations,
// against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double precision
// against its definition: the rays at random points, skipping those where a
// float input's rounding is amplified past the tolerance (near the poles and
// zeros of their tangents and cosines); Lissajous by replaying its two draws
// from a copy of the random stream; the targets as a rotation z·e^{i·turn}
// of the input by the band's angle; the GlynnSims by where their random
// outputs land (which circle, annulus or scaling) and how often each choice
// comes up, against its probability.
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
using fj::test::frequency_ok;

// target's band turn: which of even/odd applies to band value t.
double band_turn(double t, double size, double even, double odd) {
    if (t < 0) t -= size / 2;
    return std::fmod(std::fabs(t), size) < size / 2 ? even : odd;
}

// Distance of t from the nearest band edge (multiples of size/2, shifted for t < 0).
double band_edge_distance(double t, double size) {
    if (t < 0) t -= size / 2;
    const double m = std::fmod(std::fabs(t), size / 2);
    return std::min(m, size / 2 - m);
}

}  // namespace

TEST_CASE("fractorium targets: rays1, rays2 and rays3 as their definitions read") {
    std::mt19937 gen(61);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(61, 0);
    int wrong = 0, checked1 = 0, checked2 = 0, checked3 = 0;
    for (int i = 0; i < 6000; ++i) {
        const double x = coord(gen), y = coord(gen), w = 0.7;
        const float fx = float(x), fy = float(y), fw = float(w);
        // Points near an axis blow up r²/x; the float rounding of r then
        // dominates, so keep |x|, |y| ≥ 0.1.
        if (std::fabs(x) < 0.1 || std::fabs(y) < 0.1) continue;
        const double r2 = x * x + y * y, r = std::sqrt(r2);
        // rays1: u = cot r + w·(2/π)²; cot r is ill-conditioned near r = kπ.
        const double tr = std::tan(r);
        if (std::fabs(tr) > 0.05) {
            const double u = 1 / tr + w * 4 / (M_PI * M_PI);
            wrong += !near(apply("rays1", fx, fy, fw, {}, rng), w * u * r2 * cd(1 / x, 1 / y), 10);
            ++checked1;
        }
        // rays2: sec(r²·tan(1/r²)); skip near the tangent's and secant's poles.
        const double inner = r2 * std::tan(1 / r2);
        if (std::fabs(std::cos(1 / r2)) > 0.05 && std::fabs(std::cos(inner)) > 0.05 && r2 > 0.3) {
            const double u = 1 / std::cos(inner);
            wrong += !near(apply("rays2", fx, fy, fw, {}, rng), w / 10 * u * r2 * cd(1 / x, 1 / y), 20);
            ++checked2;
        }
        // rays3: sin(1/r⁴) oscillates fast below r⁴ = 0.3; tan r² has poles.
        const double sq = r2 * r2;
        if (sq > 0.3 && std::fabs(std::cos(r2)) > 0.05) {
            const double u = 1 / std::sqrt(std::cos(std::sin(sq) * std::sin(1 / sq)));
            const cd want = w / 10 * u * r2 * cd(std::cos(r2) / x, std::tan(r2) / y);
            wrong += !near(apply("rays3", fx, fy, fw, {}, rng), want, 20);
            ++checked3;
        }
    }
    CHECK(wrong == 0);
    CHECK(checked1 > 2000);
    CHECK(checked2 > 2000);
    CHECK(checked3 > 2000);
}

TEST_CASE("fractorium targets: the rays divide by epsilon on an axis and at the origin") {
    fj::Rng rng = fj::make_rng(62, 0);
    const double eps = FJ_FLT_EPSILON, w = 0.5;
    // On the y axis at y = 0.5: x is replaced by epsilon.
    const double r2 = 0.25, r = 0.5;
    const double u1 = 1 / std::tan(r) + w * 4 / (M_PI * M_PI);
    CHECK(near(apply("rays1", 0, 0.5f, 0.5f, {}, rng), w * u1 * r2 * cd(1 / eps, 1 / 0.5), 10));
    const double u2 = 1 / std::cos(r2 * std::tan(1 / r2));
    CHECK(near(apply("rays2", 0, 0.5f, 0.5f, {}, rng), w / 10 * u2 * r2 * cd(1 / eps, 1 / 0.5), 10));
    // rays3 at (0.5, 0) through the y guard: tan(r²)·r²/ε.
    const double u3 = 1 / std::sqrt(std::cos(std::sin(r2 * r2) * std::sin(1 / (r2 * r2))));
    CHECK(near(apply("rays3", 0.5f, 0, 0.5f, {}, rng), w / 10 * u3 * r2 * cd(std::cos(r2) / 0.5, std::tan(r2) / eps), 10));
    // The origin: every guard at once, and the r² factor makes it 0.
    for (const char* name : {"rays1", "rays2", "rays3"}) {
        const cd got = apply(name, 0, 0, 0.5f, {}, rng);
        CHECK_MESSAGE(got == cd(0, 0), name);
    }
}

TEST_CASE("fractorium targets: Lissajous plots its curve at the replayed t and thickness draw") {
    std::mt19937 gen(63);
    std::uniform_real_distribution<float> par(-3, 3);
    fj::Rng rng = fj::make_rng(63, 0);
    int wrong = 0;
    double tmin_seen = 1e9, tmax_seen = -1e9;
    for (int i = 0; i < 4000; ++i) {
        const std::vector<float> p = i == 0 ? std::vector<float>{-3.14159265f, 3.14159265f, 3, 2, 0, 0, 0}
                                            : std::vector<float>{par(gen), par(gen), par(gen), par(gen),
                                                                 par(gen), par(gen), par(gen)};
        fj::Rng replay = rng;
        const double u1 = fj::rand01(replay), u2 = fj::rand01(replay);
        const double t = (double(p[1]) - p[0]) * u1 + p[0], v = u2 - 0.5, w = 0.8;
        const double shift = p[4] * t + p[6] * v;
        const cd want = w * cd(std::sin(p[2] * t + p[5]) + shift, std::sin(p[3] * t) + shift);
        // The input point does not matter.
        wrong += !near(apply("Lissajous", par(gen), par(gen), 0.8f, p, rng), want, 3);
        if (i % 2 == 0) {  // default curve: t covers [−π, π)
            fj::Rng r2 = rng;
            const double tt = -M_PI + 2 * M_PI * fj::rand01(r2);
            tmin_seen = std::min(tmin_seen, tt);
            tmax_seen = std::max(tmax_seen, tt);
            const cd got = apply("Lissajous", 0, 0, 1, {-3.14159265f, 3.14159265f, 3, 2, 0, 0, 0}, rng);
            wrong += !near(got, cd(std::sin(3 * tt), std::sin(2 * tt)));
        }
    }
    CHECK(wrong == 0);
    CHECK(tmin_seen < -3.1);
    CHECK(tmax_seen > 3.1);
}

TEST_CASE("fractorium targets: target, target0 and target2 turn each band by even or odd") {
    std::mt19937 gen(64);
    std::uniform_real_distribution<float> coord(-3, 3), turn(0, 6.2f), sizes(0.2f, 2), tight(-2, 2);
    fj::Rng rng = fj::make_rng(64, 0);
    int wrong = 0, evens = 0, odds = 0, checked = 0;
    for (int i = 0; i < 6000; ++i) {
        const double x = coord(gen), y = coord(gen), w = 0.6;
        const float fx = float(x), fy = float(y);
        const double even = turn(gen), odd = turn(gen), size = sizes(gen), th = tight(gen);
        const cd z(x, y);
        const double r = std::abs(z), phi = std::atan2(y, x);
        if (r < 1e-3) continue;
        const double t = std::log(r);
        // Float log r and φ are off by ~1e-7: skip points within 1e-4 of a band edge.
        if (band_edge_distance(t, size) > 1e-4) {
            const double a = band_turn(t, size, even, odd);
            (a == even ? evens : odds)++;
            const std::vector<float> p{float(even), float(odd), float(size)};
            // target applies no weight.
            wrong += !near(apply("target", fx, fy, float(w), p, rng), z * std::polar(1.0, a));
            wrong += !near(apply("target0", fx, fy, float(w), p, rng), w * z * std::polar(1.0, a));
            ++checked;
        }
        const double t2 = th * t + (phi + M_PI) / M_PI;
        // Near the negative x axis φ jumps by 2π: skip |φ| > π − 1e-4 too.
        if (band_edge_distance(t2, size) > 1e-4 && std::fabs(phi) < M_PI - 1e-4) {
            const double a = band_turn(t2, size, even, odd);
            const std::vector<float> p{float(even), float(odd), float(size), float(th)};
            wrong += !near(apply("target2", fx, fy, float(w), p, rng), w * z * std::polar(1.0, a));
        }
    }
    CHECK(wrong == 0);
    CHECK(checked > 5000);
    CHECK(evens > 1000);
    CHECK(odds > 1000);
}

TEST_CASE("fractorium targets: the target turns wrap, size is clamped, and the origin stays put") {
    fj::Rng rng = fj::make_rng(65, 0);
    const cd z(1.5, -0.4);  // log r ≈ 0.44: band "even" for size 1
    const float x = 1.5f, y = -0.4f;
    // even/odd wrap into [0, 2π]: 0.3 + 2π and 0.3 − 2π turn as 0.3.
    const float big = float(0.3 + 2 * M_PI), neg = float(0.3 - 2 * M_PI);
    CHECK(near(apply("target", x, y, 1, {big, 0, 1}, rng), z * std::polar(1.0, 0.3)));
    CHECK(near(apply("target0", x, y, 1, {neg, 0, 1}, rng), z * std::polar(1.0, 0.3)));
    CHECK(near(apply("target2", x, y, 1, {0, big, 1, 0}, rng), z * std::polar(1.0, 0.3)));  // t2 ∈ [0.5, 1): odd
    CHECK(near(apply("target", 2.0f, 0.0f, 1, {0, neg + 0.2f, 1}, rng), cd(2, 0) * std::polar(1.0, 0.5)));  // log 2: odd
    // r = 1 gives t = 0: band "even" for any size ≥ ε; a negative size left
    // unclamped would make it "odd". target and target2 clamp size to ε.
    CHECK(near(apply("target", 1, 0, 1, {0.7f, 2.0f, -1}, rng), std::polar(1.0, 0.7)));
    // target2 at (−1, −0): φ = −π, so t = 0 as well.
    CHECK(near(apply("target2", -1, -0.0f, 1, {0.7f, 2.0f, -1, 0}, rng), cd(-1, 0) * std::polar(1.0, 0.7)));
    // target0: size clamped to 0, and size 0 (the default) turns every point by odd.
    for (float s : {0.0f, -1.0f})
        for (const cd p : {cd(1, 0), cd(0.2, 0.1), cd(-3, 2)})
            CHECK(near(apply("target0", float(p.real()), float(p.imag()), 0.5f, {0.7f, 2.0f, s}, rng),
                       0.5 * p * std::polar(1.0, 2.0)));
    // The origin maps to 0.
    CHECK(apply("target", 0, 0, 1, {0.7f, 2.0f, 1}, rng) == cd(0, 0));
    CHECK(apply("target0", 0, 0, 1, {0.7f, 2.0f, 1}, rng) == cd(0, 0));
    CHECK(apply("target2", 0, 0, 1, {0.7f, 2.0f, 1, 0}, rng) == cd(0, 0));
}

TEST_CASE("fractorium targets: GlynnSim1 lands in its small ring or on the kept or scaled point, as often as it should") {
    fj::Rng rng = fj::make_rng(66, 0);
    // radius 1.2, radius1 0.3, phi1 60°, thickness 0.4, contrast 1.5, pow 0.5; weight 0.5.
    const std::vector<float> p{1.2f, 0.3f, 60, 0.4f, 1.5f, 0.5f};
    const double w = 0.5, c1x = 1.2 * std::cos(M_PI / 3), c1y = 1.2 * std::sin(M_PI / 3);
    const cd centre(c1x, c1y);
    const int n = 20000;
    // Inside the big circle: a point of the annulus [0.12, 0.3) round the centre.
    int bad = 0, lower_half = 0, upper_side = 0;
    for (int i = 0; i < n; ++i) {
        const cd q = apply("GlynnSim1", 0.3f, -0.2f, float(w), p, rng) / w - centre;
        const double d = std::abs(q);
        bad += !(d >= 0.12 - 1e-5 && d < 0.3 + 1e-5);
        lower_half += d < 0.21;            // distance uniform in [0.12, 0.3)
        upper_side += q.imag() > 0;        // angle uniform
    }
    CHECK(bad == 0);
    CHECK(frequency_ok(lower_half, n, 0.5));
    CHECK(frequency_ok(upper_side, n, 0.5));
    // Outside, at z = (3, −4), r = 5: alpha = 0.24, scaled with probability 1.5·√0.24.
    const cd z(3, -4);
    const double alpha = 1.2 / 5, prob = 1.5 * std::sqrt(alpha);
    int scaled = 0;
    bad = 0;
    for (int i = 0; i < n; ++i) {
        const cd got = apply("GlynnSim1", 3, -4, float(w), p, rng);
        if (near(got, w * alpha * alpha * z)) ++scaled;
        else bad += !near(got, w * z);
    }
    CHECK(bad == 0);
    CHECK(frequency_ok(scaled, n, prob));
    // pow clamps to [0, 1]: pow 3 acts as 1 (0.9·0.24), pow −2 as 0 (0.9).
    for (const auto& [pw, pr] : {std::pair{3.0f, 0.9 * alpha}, std::pair{-2.0f, 0.9}}) {
        const std::vector<float> q{1.2f, 0.3f, 60, 0.4f, 0.9f, pw};
        int s = 0;
        for (int i = 0; i < n; ++i) s += near(apply("GlynnSim1", 3, -4, 1, q, rng), alpha * alpha * z);
        CHECK(frequency_ok(s, n, pr));
    }
    // A point just outside the big circle whose image (radius/r)²·z falls in
    // the small ring (0.11 from its centre) is redrawn on the ring: contrast 9
    // makes the scaling certain, and thickness 2 clamps to 1, collapsing the
    // annulus onto its circle of radius 0.3.
    const cd zin = 1.1 * centre;
    const double al = 1.2 / std::abs(zin);
    REQUIRE(std::abs(al * al * zin - centre) < 0.2);
    bad = 0;
    for (int i = 0; i < 2000; ++i) {
        const cd got = apply("GlynnSim1", float(zin.real()), float(zin.imag()), 1, {1.2f, 0.3f, 60, 2.0f, 9, 0.5f}, rng);
        bad += std::fabs(std::abs(got - centre) - 0.3) > 1e-5;
    }
    CHECK(bad == 0);
}

TEST_CASE("fractorium targets: GlynnSim2 draws on its arc inside and keeps or scales outside, as often as it should") {
    fj::Rng rng = fj::make_rng(67, 0);
    // radius 1.5, thickness 0.3, contrast 0.8, pow 1.5, arc from 30° to 120°.
    const std::vector<float> p{1.5f, 0.3f, 0.8f, 1.5f, 30, 120};
    const double w = 0.7, inner = 1.5 * 1.5 / 1.8, outer = 1.8;
    const int n = 20000;
    int bad = 0, first_half = 0, near_outer = 0;
    for (int i = 0; i < n; ++i) {
        const cd q = apply("GlynnSim2", -0.4f, 0.9f, float(w), p, rng) / w;
        const double d = std::abs(q), a = std::arg(q) * 180 / M_PI;
        bad += !(d > inner - 1e-5 && d <= outer + 1e-5 && a >= 30 - 1e-3 && a < 120 + 1e-3);
        first_half += a < 75;
        near_outer += d > (inner + outer) / 2;
    }
    CHECK(bad == 0);
    CHECK(frequency_ok(first_half, n, 0.5));
    CHECK(frequency_ok(near_outer, n, 0.5));
    // Outside at r = 2.5: scaled by alpha² with probability 0.8·0.6^1.5;
    // pow −1.5 acts as 1.5 (Fractorium takes |pow|).
    const cd z(-1.5, 2);
    const double alpha = 1.5 / 2.5, prob = 0.8 * std::pow(alpha, 1.5);
    for (float pw : {1.5f, -1.5f}) {
        int scaled = 0;
        bad = 0;
        for (int i = 0; i < n; ++i) {
            const cd got = apply("GlynnSim2", -1.5f, 2, float(w), {1.5f, 0.3f, 0.8f, pw, 30, 120}, rng);
            if (near(got, w * alpha * alpha * z)) ++scaled;
            else bad += !near(got, w * z);
        }
        CHECK(bad == 0);
        CHECK(frequency_ok(scaled, n, prob));
    }
    // contrast 3 clamps to 1 (probability alpha^1.5); thickness 5 clamps to 1; radius −1 to 0.
    int scaled = 0;
    for (int i = 0; i < n; ++i) scaled += near(apply("GlynnSim2", -1.5f, 2, 1, {1.5f, 5, 3, 1.5f, 0, 360}, rng), alpha * alpha * z);
    CHECK(frequency_ok(scaled, n, std::pow(alpha, 1.5)));
    bad = 0;
    for (int i = 0; i < 2000; ++i) {
        const double d = std::abs(apply("GlynnSim2", 0.1f, 0.2f, 1, {1.5f, 5, 0.5f, 1.5f, 0, 360}, rng));
        bad += !(d > 1.5 * 1.5 / 2.5 - 1e-5 && d <= 2.5 + 1e-5);
    }
    CHECK(bad == 0);
    // radius −1 → 0: nothing is inside, alpha = 0, so every point is kept (or scaled to 0 at contrast·0^pow = 0).
    CHECK(near(apply("GlynnSim2", 0.1f, 0.2f, 1, {-1, 0.3f, 0.8f, 1.5f, 0, 360}, rng), cd(0.1, 0.2)));
}

TEST_CASE("fractorium targets: GlynnSim3 draws on its two circles inside and keeps or scales outside, as often as it should") {
    fj::Rng rng = fj::make_rng(68, 0);
    // radius 1, thickness 0.25: R1 = 1.25, R2 = 0.8, R1 chosen with probability 1.25/2.05.
    const std::vector<float> p{1, 0.25f, 0.1f, 0.5f, 1.5f};
    const double w = 0.9, r1 = 1.25, r2 = 0.8;
    const int n = 20000;
    int bad = 0, on_r1 = 0, right_side = 0;
    for (int i = 0; i < n; ++i) {
        const cd q = apply("GlynnSim3", 1.1f, -0.3f, float(w), p, rng) / w;  // r ≈ 1.14 < R1
        const double d = std::abs(q);
        const bool a = std::fabs(d - r1) < 1e-5, b = std::fabs(d - r2) < 1e-5;
        bad += !(a || b);
        on_r1 += a;
        right_side += q.real() > 0;
    }
    CHECK(bad == 0);
    CHECK(frequency_ok(on_r1, n, r1 / (r1 + r2)));
    CHECK(frequency_ok(right_side, n, 0.5));
    // Outside at r = 2: alpha = 0.5, scaled with probability 0.5·0.5^1.5; contrast 2 clamps to 1.
    const cd z(1.2, 1.6);
    for (const auto& [contrast, prob] : {std::pair{0.5f, 0.5 * std::pow(0.5, 1.5)}, std::pair{2.0f, std::pow(0.5, 1.5)}}) {
        int scaled = 0;
        bad = 0;
        for (int i = 0; i < n; ++i) {
            const cd got = apply("GlynnSim3", 1.2f, 1.6f, float(w), {1, 0.25f, 0.1f, contrast, 1.5f}, rng);
            if (near(got, w * 0.25 * z)) ++scaled;
            else bad += !near(got, w * z);
        }
        CHECK(bad == 0);
        CHECK(frequency_ok(scaled, n, prob));
    }
    // thickness2 is never read.
    fj::Rng a = rng, b = rng;
    CHECK(apply("GlynnSim3", 0.3f, 0.2f, 1, {1, 0.25f, 0.1f, 0.5f, 1.5f}, a) ==
          apply("GlynnSim3", 0.3f, 0.2f, 1, {1, 0.25f, 7.0f, 0.5f, 1.5f}, b));
}
