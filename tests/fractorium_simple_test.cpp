// flamejit — Fractorium's short closed-form variations (deltaa, erf, exp2,
// fibonacci, fibonacci2, flowerdb, foci_p, gamma, inkdrop, lens, loonie3,
// mask, ovoid, panorama1, panorama2, poincare2, projective, pulse, q_ode,
// rippled, rotate, roundspher, scry2, shift, sintrange, squirrel, svf,
// swirl3, swirl3r, curvature, wdisc), against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each is worked in double at random points and parameters, from the
// formula as Fractorium's definition writes it (or, where named, from an
// equivalent complex form: Binet's formula, the complex exponential and
// square), with std::erf and std::lgamma as the references for erf and
// gamma. Points where a float input's rounding is amplified past the
// tolerance (near poles, branch cuts and the edges of regions) are
// skipped, each with its reason. The guards the snippets add where
// Fractorium's float build gives NaN or infinity are checked at those
// points, and scry2's polygons by their geometry.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <random>
#include <vector>

#include "test_support.h"

namespace {

using cd = std::complex<double>;

const auto apply = &fj::test::host_variation;
using fj::test::near;

const double kPi = M_PI;
const double kEps = FJ_FLT_EPSILON;

// One closed-form variation: its parameters' range, the reference, and
// whether a case is well enough conditioned to judge.
struct Closed {
    const char* name;
    int params;
    float lo, hi;  // each parameter drawn uniformly from [lo, hi]
    std::function<cd(double x, double y, double w, const std::vector<double>& p)> want;
    std::function<bool(double x, double y, const std::vector<double>& p)> judged;
    double slack;
};

bool always(double, double, const std::vector<double>&) { return true; }

// poincare2's c: the centre of the {p, q} tiling's tile next to the one at
// the origin, at angle 2π/p, where the tiling is hyperbolic; else 0. Its
// distance is 1/√s, s = 1 − (cos a − 1)/(cos a + cos(2π/q)) (1 where s ≤ 0).
cd poincare2_centre(double p, double q) {
    if (1 / p + 1 / q >= 0.5) return 0;
    const double a = 2 * kPi / p, s = 1 - (std::cos(a) - 1) / (std::cos(a) + std::cos(2 * kPi / q));
    return std::polar(s > 0 ? 1 / std::sqrt(s) : 1.0, a);
}

std::vector<Closed> closed_forms() {
    const auto fib = [](double x, double y, double sc, double sc2) {
        // Binet's two terms as complex logarithms: z·log φ and −z·(log φ + iπ).
        const double lphi = std::log((1 + std::sqrt(5.0)) / 2);
        const cd z(x, y), l1 = z * lphi, l2 = -z * cd(lphi, kPi);
        const cd t1 = sc * std::exp(sc2 * l1.real()) * std::polar(1.0, l1.imag());
        const cd t2 = sc * std::exp(sc2 * l2.real()) * std::polar(1.0, l2.imag());
        return (t1 - t2) / std::sqrt(5.0);
    };
    return {
        {"erf", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) { return w * cd(std::erf(x), std::erf(y)); },
         always, 1},
        {"exp2", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) { return w * std::exp(kPi * cd(x, y)); },
         always, 4},
        {"fibonacci", 0, 0, 0,
         [=](double x, double y, double w, const std::vector<double>&) { return w * fib(x, y, 1, 1); },
         always, 8},
        {"fibonacci2", 2, -1.5f, 1.5f,
         [=](double x, double y, double w, const std::vector<double>& p) { return w * fib(x, y, p[0], p[1]); },
         always, 8},
        {"flowerdb", 3, -4, 8,
         [](double x, double y, double w, const std::vector<double>& p) {
             const double t = std::atan2(y, x), r = std::hypot(x, y);
             return w * r * std::fabs((p[2] + std::sin(p[0] * t)) * std::cos(p[0] * p[1] * t)) * std::polar(1.0, t);
         },
         // petals·split up to 64 multiplies φ's rounding; keep it below 30.
         [](double, double, const std::vector<double>& p) { return std::fabs(p[0] * p[1]) < 30; }, 8},
        {"foci_p", 2, -2, 2,
         [](double x, double y, double w, const std::vector<double>& p) {
             const double e = std::exp(x), a = e * p[0], b = p[1] / e;
             return w * cd(a - b, std::sin(y)) / (a + b - std::cos(y));
         },
         // The divisor vanishes on a curve through the plane: keep away.
         [](double x, double y, const std::vector<double>& p) {
             const double e = std::exp(x);
             return std::fabs(e * p[0] + p[1] / e - std::cos(y)) > 0.05;
         },
         40},
        {"lens", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) { return w * cd(x, y) * cd(x, y) / 2.0; },
         always, 1},
        {"mask", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) {
             const double s = std::sin(x);
             return w / (x * x + y * y) * (std::cosh(y) + 1) * s * s * cd(s, std::cos(x));
         },
         [](double x, double y, const std::vector<double>&) { return x * x + y * y > 0.01; }, 4},
        {"ovoid", 2, -2, 2,
         [](double x, double y, double w, const std::vector<double>& p) {
             return w / (x * x + y * y) * cd(p[0] * x, p[1] * y);
         },
         [](double x, double y, const std::vector<double>&) { return x * x + y * y > 0.01; }, 1},
        {"panorama1", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) {
             const double aux = 1 / std::sqrt(x * x + y * y + 1), x1 = x * aux, y1 = y * aux;
             return w * cd(std::atan2(x1, y1) / kPi, std::hypot(x1, y1) - 0.5);
         },
         // atan2(x, y) jumps across the negative y axis.
         [](double x, double y, const std::vector<double>&) { return !(y < 0 && std::fabs(x) < 1e-4); }, 1},
        {"panorama2", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) {
             const double aux = 1 / (std::hypot(x, y) + 1), x1 = x * aux, y1 = y * aux;
             return w * cd(std::atan2(x1, y1) / kPi, std::hypot(x1, y1) - 0.5);
         },
         [](double x, double y, const std::vector<double>&) { return !(y < 0 && std::fabs(x) < 1e-4); }, 1},
        {"projective", 9, -2, 2,
         [](double x, double y, double w, const std::vector<double>& p) {
             return w * cd(p[3] * x + p[4] * y + p[5], p[6] * x + p[7] * y + p[8]) / (p[0] * x + p[1] * y + p[2]);
         },
         [](double x, double y, const std::vector<double>& p) { return std::fabs(p[0] * x + p[1] * y + p[2]) > 0.1; },
         40},
        {"pulse", 4, -3, 3,
         [](double x, double y, double w, const std::vector<double>& p) {
             return w * cd(x + p[2] * std::sin(x * p[0]), y + p[3] * std::sin(y * p[1]));
         },
         always, 4},
        {"rippled", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) {
             const double d = x * x + y * y;
             return w * cd(std::tanh(d) * x, std::cos(d) * y);
         },
         always, 4},
        {"rotate", 1, -400, 400,
         [](double x, double y, double w, const std::vector<double>& p) {
             return w * cd(x, y) * std::polar(1.0, p[0] * kPi / 180);
         },
         always, 4},
        {"roundspher", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) {
             // As Fractorium writes it: a quotient of quotients through 1/r².
             const double r2 = x * x + y * y, e = 1 / r2 + (2 / kPi) * (2 / kPi), t = w / r2;
             return w * t * cd(x, y) / e;
         },
         [](double x, double y, const std::vector<double>&) { return x * x + y * y > 0; }, 1},
        {"shift", 3, -300, 300,
         [](double x, double y, double w, const std::vector<double>& p) {
             const double a = p[2] * kPi / 180;
             return w * (cd(x, y) + cd(p[0], -p[1]) * std::polar(1.0, -a));
         },
         always, 4},
        {"sintrange", 1, -2, 2,
         [](double x, double y, double w, const std::vector<double>& p) {
             const double r2 = x * x + y * y;
             return w * cd(std::sin(x) * (x * x + p[0] * (1 - r2)), std::sin(y) * (y * y + p[0] * (1 - r2)));
         },
         always, 8},
        {"squirrel", 2, -2, 2,
         [](double x, double y, double w, const std::vector<double>& p) {
             const double u = std::sqrt(std::max(p[0] * x * x + p[1] * y * y, 0.0));
             return w * cd(std::cos(u) * std::tan(x), std::sin(u) * std::tan(y));
         },
         // tan has poles at odd multiples of π/2, and u's square root a
         // vertical tangent where a·x² + b·y² crosses 0.
         [](double x, double y, const std::vector<double>& p) {
             return std::fabs(std::cos(x)) > 0.1 && std::fabs(std::cos(y)) > 0.1 &&
                    std::fabs(p[0] * x * x + p[1] * y * y) > 0.01;
         },
         40},
        {"svf", 1, -4, 4,
         [](double x, double y, double w, const std::vector<double>& p) {
             return w * std::cos(y) * std::cos(p[0] * y) * std::polar(1.0, x);
         },
         always, 8},
        {"swirl3", 1, -2, 2,
         [](double x, double y, double w, const std::vector<double>& p) {
             const double r = std::hypot(x, y);
             return w * cd(x, y) * std::polar(1.0, p[0] * std::log(r));
         },
         always, 8},
        {"swirl3r", 3, -0.5f, 2,
         [](double x, double y, double w, const std::vector<double>& p) {
             // min and max kept ≥ 0 and taken in either order.
             const double a = std::max(p[1], 0.0), b = std::max(p[2], 0.0);
             const double lo = std::min(a, b), hi = std::max(a, b), r = std::hypot(x, y);
             const double turn = r < lo ? std::log(lo) * p[0]
                                 : r > hi ? (hi > 0 ? std::log(hi) * p[0] : 0.0)
                                          : std::log(r) * p[0];
             return w * cd(x, y) * std::polar(1.0, turn);
         },
         always, 8},
        {"curvature", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) {
             return cd(w / std::hypot(x, y), std::atan2(y, x));  // the angle unweighted
         },
         [](double x, double y, const std::vector<double>&) { return std::hypot(x, y) > 0.01; }, 1},
        // p and q from 2.5 to 12: tilings hyperbolic (1/p + 1/q < 1/2) and not.
        {"poincare2", 2, 2.5f, 12,
         [](double x, double y, double w, const std::vector<double>& p) {
             const cd z(x, y), c = poincare2_centre(p[0], p[1]);
             return w * (z - c) / (1.0 - std::conj(c) * z);
         },
         // Away from the pole 1/c̄ (outside the unit disc) and from the
         // regime's edge 1/p + 1/q = 1/2, where c jumps.
         [](double x, double y, const std::vector<double>& p) {
             const cd c = poincare2_centre(p[0], p[1]);
             return std::abs(1.0 - std::conj(c) * cd(x, y)) > 0.1 && std::fabs(1 / p[0] + 1 / p[1] - 0.5) > 1e-4;
         },
         40},
        {"q_ode", 12, -2, 2,
         [](double x, double y, double w, const std::vector<double>& q) {
             // The weight on the linear x term of x' and the linear y term of y' only.
             return cd(q[0] + w * q[1] * x + q[2] * x * x + q[3] * x * y + q[4] * y + q[5] * y * y,
                       q[6] + q[7] * x + q[8] * x * x + q[9] * x * y + w * q[10] * y + q[11] * y * y);
         },
         always, 8},
        {"wdisc", 0, 0, 0,
         [](double x, double y, double w, const std::vector<double>&) {
             const double rad = std::atan2(y, x) / kPi, turn = kPi / (std::hypot(x, y) + 1);
             return w * rad * std::polar(1.0, rad > 0 ? kPi - turn : turn);
         },
         // atan2 jumps across the negative x axis (y = 0 itself is +0 in both).
         [](double x, double y, const std::vector<double>&) { return !(x < 0 && y != 0 && std::fabs(y) < 1e-3); },
         4},
    };
}

// scry2 as Fractorium writes it, in double.
cd scry2_reference(double x, double y, double w, double power) {
    const double r2 = x * x + y * y, s = 1 / (std::sqrt(r2) * (r2 + 1));
    const double nx = x * s, ny = y * s, sector = 2 * kPi / power;
    const double dang = (std::atan2(ny, nx) + kPi) / sector, rad = std::hypot(nx, ny);
    const double zang1 = std::floor(dang), xang1 = dang - zang1;
    const double xang2 = xang1 > 0.5 ? 1 - xang1 : xang1, zang = xang1 > 0.5 ? zang1 + 1 : zang1;
    const double sign = xang1 > 0.5 ? -1 : 1;
    const double xang = std::atan(xang2 * std::tan(sector / 2) * 2) / sector;
    const double coeff = 1 / std::cos(xang * sector);
    const double ang = (zang + sign * xang) * sector - kPi;
    return w * coeff * rad * std::polar(1.0, ang);
}

}  // namespace

TEST_CASE("fractorium simple: the elementary maps match their formulas at random points and parameters") {
    std::mt19937 gen(1171);
    std::uniform_real_distribution<float> coord(-3, 3), unit(0, 1);
    fj::Rng rng = fj::make_rng(1171, 0);
    for (const Closed& c : closed_forms()) {
        int wrong = 0, judged = 0;
        for (int i = 0; i < 4000; ++i) {
            // Some points on the axes and near the origin, the rest spread out.
            float x = coord(gen), y = coord(gen);
            if (i % 10 == 0) x = 0;
            if (i % 10 == 1) y = 0;
            if (i % 10 == 2) { x *= 0.01f; y *= 0.01f; }
            const float w = 0.3f + unit(gen);
            std::vector<float> pf(c.params);
            std::vector<double> pd(c.params);
            for (int k = 0; k < c.params; ++k) pd[k] = pf[k] = c.lo + (c.hi - c.lo) * unit(gen);
            const cd got = apply(c.name, x, y, w, pf, rng);
            if (!c.judged(x, y, pd)) continue;
            ++judged;
            const cd want = c.want(x, y, w, pd);
            if (!near(got, want, c.slack)) {
                ++wrong;
                if (wrong <= 3)
                    MESSAGE(c.name << " at (" << x << ", " << y << "): got " << got << ", want " << want);
            }
        }
        CHECK_MESSAGE(wrong == 0, c.name);
        CHECK_MESSAGE(judged > 2000, c.name);
    }
}

TEST_CASE("fractorium simple: poincare2 is an isometry of the Poincaré disc taking the next tile's centre to 0") {
    // {p, q} with 1/p + 1/q < 1/2: the map sends c to the origin, keeps the
    // unit circle and the disc (a hyperbolic isometry), and with w = 1 its
    // inverse z ↦ (z + c)/(1 + c̄z) brings the point back.
    fj::Rng rng = fj::make_rng(1175, 0);
    std::mt19937 gen(1175);
    std::uniform_real_distribution<double> unit(0, 1);
    for (const auto& pq : std::vector<std::pair<float, float>>{{3, 7}, {4, 5}, {5, 4}, {7, 3}, {6, 6}, {8, 3}}) {
        const cd c = poincare2_centre(pq.first, pq.second);
        REQUIRE(std::abs(c) > 0.1);
        REQUIRE(std::abs(c) < 1);
        const std::vector<float> p = {pq.first, pq.second};
        CHECK(std::abs(apply("poincare2", float(c.real()), float(c.imag()), 1, p, rng)) < 1e-5);
        for (int i = 0; i < 200; ++i) {
            const double t = 2 * kPi * unit(gen), r = unit(gen);
            const cd on = std::polar(1.0, t), in = std::polar(0.99 * r, t);
            const cd f_on = apply("poincare2", float(on.real()), float(on.imag()), 1, p, rng);
            const cd f_in = apply("poincare2", float(in.real()), float(in.imag()), 1, p, rng);
            CHECK_MESSAGE(std::fabs(std::abs(f_on) - 1) < 1e-4, pq.first << "," << pq.second << " at " << on);
            CHECK(std::abs(f_in) < 1);
            CHECK(std::abs((f_in + c) / (1.0 + std::conj(c) * f_in) - in) < 1e-4);
        }
    }
    // Euclidean tilings ({3, 6}, {4, 4}) and spherical ones: the identity.
    for (const auto& pq : std::vector<std::pair<float, float>>{{3, 6}, {4, 4}, {3, 3}, {5, 3}})
        CHECK(apply("poincare2", 0.3f, -0.7f, 2, {pq.first, pq.second}, rng) == cd(0.6f, -1.4f));
}

TEST_CASE("fractorium simple: fibonacci gives the Fibonacci numbers at whole x on the axis") {
    fj::Rng rng = fj::make_rng(1172, 0);
    double a = 0, b = 1;  // F(0), F(1)
    for (int n = 0; n <= 20; ++n) {
        const cd got = apply("fibonacci", float(n), 0, 0.5f, {}, rng);
        CHECK_MESSAGE(near(got, cd(0.5 * a, 0), 4), n);
        const cd got2 = apply("fibonacci2", float(n), 0, 0.5f, {1, 1}, rng);
        CHECK(got2 == got);
        const double c = a + b;
        a = b;
        b = c;
    }
}

TEST_CASE("fractorium simple: deltaa takes the ratio of the distances to the foci and half the angle they subtend") {
    std::mt19937 gen(1173);
    std::uniform_real_distribution<float> coord(-4, 4);
    fj::Rng rng = fj::make_rng(1173, 0);
    int wrong = 0, judged = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = i % 10 == 0 ? 0.0f : coord(gen) * (i % 3 == 0 ? 0.01f : 1.0f);
        const cd z(x, y);
        const double d1 = std::abs(z + 1.0), d2 = std::abs(z - 1.0);
        // The foci: the ratio's and the angle's conditioning blow up.
        if (d1 < 0.05 || d2 < 0.05) continue;
        // As Fractorium writes it: a difference of two atan2.
        const double angle = (std::atan2(y, x - 1.0) - std::atan2(y, x + 1.0)) / 2;
        ++judged;
        wrong += !near(apply("deltaa", x, y, 0.7f, {}, rng), 0.7 * d1 / d2 * std::polar(1.0, angle), 4);
    }
    CHECK(wrong == 0);
    CHECK(judged > 8000);
    // On the segment between the foci the angle is π/2 (a quarter turn, halved
    // from the straight angle): the image is on the y axis, above for y = 0
    // and below for y just below 0.
    CHECK(near(apply("deltaa", 0.5f, 0.0f, 1, {}, rng), cd(0, 3)));
    CHECK(near(apply("deltaa", 0.5f, -1e-30f, 1, {}, rng), cd(0, -3)));
    // The focus (1, 0) divides by float epsilon; (−1, 0) goes to the origin.
    CHECK(near(apply("deltaa", 1, 0, 1, {}, rng), cd(2 / kEps, 0)));
    CHECK(apply("deltaa", -1, 0, 1, {}, rng) == cd(0, 0));
}

TEST_CASE("fractorium simple: gamma is log Γ of the radius and the angle, the origin at epsilon") {
    std::mt19937 gen(1174);
    std::uniform_real_distribution<float> logr(-12, 6), ang(-3.14159f, 3.14159f), unit(0, 1);
    fj::Rng rng = fj::make_rng(1174, 0);
    int wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        // Radii from 6e-6 to 400, and all of [0.5, 3] (log Γ's zeros at 1 and 2).
        const double r = i % 2 ? std::exp(double(logr(gen))) : 0.5 + 2.5 * unit(gen);
        const double a = ang(gen);
        const float x = float(r * std::cos(a)), y = float(r * std::sin(a));
        const double rr = std::hypot(double(x), double(y));
        const cd want = 0.9 * cd(std::lgamma(rr), std::atan2(double(y), double(x)));
        // fj_gamma_log_gamma's error, 7e-7 of the larger of 1 and |log Γ|,
        // is judged against 1e-5.
        wrong += !near(apply("gamma", x, y, 0.9f, {}, rng), want, 1);
    }
    CHECK(wrong == 0);
    CHECK(near(apply("gamma", 0, 0, 1, {}, rng), cd(std::lgamma(kEps), 0)));
    // Whole radii: log((n − 1)!).
    CHECK(near(apply("gamma", 5, 0, 1, {}, rng), cd(std::log(24.0), 0)));
    CHECK(std::fabs(apply("gamma", 1, 0, 1, {}, rng).real()) < 3e-6);
    CHECK(std::fabs(apply("gamma", 0, 2, 1, {}, rng).real()) < 3e-6);
}

TEST_CASE("fractorium simple: inkdrop moves each point away from the drop to distance sqrt(d² + r²)") {
    std::mt19937 gen(1175);
    std::uniform_real_distribution<float> coord(-3, 3), rad(-0.5f, 2);
    fj::Rng rng = fj::make_rng(1175, 0);
    int wrong = 0, judged = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = i % 50 == 0 ? 3000.0f : coord(gen), y = coord(gen);
        const float r = rad(gen), cx = coord(gen), cy = coord(gen);
        const cd c(cx, cy), d = cd(x, y) - c;
        const double R = std::max(double(r), 0.0);  // r is kept at least 0
        if (std::abs(d) < 1e-3) continue;           // the direction is ill-conditioned
        ++judged;
        const cd want = 0.8 * (c + d / std::abs(d) * std::sqrt(std::norm(d) + R * R));
        wrong += !near(apply("inkdrop", x, y, 0.8f, {r, cx, cy}, rng), want, 4);
    }
    CHECK(wrong == 0);
    CHECK(judged > 9000);
    // The centre is pushed along +x; with r = 0 it stays.
    CHECK(near(apply("inkdrop", 1, 2, 1, {0.5f, 1, 2}, rng), cd(1.5, 2)));
    CHECK(apply("inkdrop", 1, 2, 1, {0, 1, 2}, rng) == cd(1, 2));
}

TEST_CASE("fractorium simple: loonie3 scales the disc right of the origin and only weights the rest") {
    std::mt19937 gen(1176);
    std::uniform_real_distribution<float> xs(-0.8f, 1.5f), ys(-1, 1), weights(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(1176, 0);
    int wrong = 0, inside = 0, outside = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = xs(gen), y = ys(gen), w = weights(gen);
        const double r2 = double(x) * x + double(y) * y, W2 = double(w) * w;
        const double s2 = x > kEps ? (r2 / x) * (r2 / x) : 2 * W2;
        // The rim, where the scale jumps from 0 to w, is decided by rounding.
        if (std::fabs(std::sqrt(s2) - std::fabs(w)) < 1e-4) continue;
        const bool in = s2 < W2;
        const double k = in ? w * std::sqrt(W2 / s2 - 1) : w;
        (in ? inside : outside)++;
        wrong += !near(apply("loonie3", x, y, w, {}, rng), k * cd(x, y), 20);
    }
    CHECK(wrong == 0);
    CHECK(inside > 1500);
    CHECK(outside > 2000);
}

TEST_CASE("fractorium simple: scry2 matches its definition and maps each circle onto a regular polygon") {
    std::mt19937 gen(1177);
    std::uniform_real_distribution<float> coord(-3, 3), powers(3, 9);
    fj::Rng rng = fj::make_rng(1177, 0);
    int wrong = 0, off_polygon = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.9f;
        const float power = i % 2 ? std::round(powers(gen)) : powers(gen);
        const cd got = apply("scry2", x, y, w, {power}, rng);
        wrong += !near(got, scry2_reference(x, y, w, power), 8);
        // The polygon of inradius 1/(r² + 1) whose sides' midpoints lie on
        // the rays at π + 2πk/power: the point's largest projection on those
        // rays is the inradius (for whole powers, where the rays close up).
        if (power == std::round(power)) {
            const double r2 = double(x) * x + double(y) * y;
            double best = -1e9;
            for (int k = 0; k < int(power); ++k)
                best = std::max(best, (got / double(w) * std::polar(1.0, -(kPi + 2 * kPi * k / power))).real());
            off_polygon += std::fabs(best - 1 / (r2 + 1)) > 1e-5;
        }
    }
    CHECK(wrong == 0);
    CHECK(off_polygon == 0);
    // The origin itself goes to 0 (the radius r/(r·(r² + 1)) is 0/epsilon).
    CHECK(apply("scry2", 0, 0, 1, {4}, rng) == cd(0, 0));
}

TEST_CASE("fractorium simple: where Fractorium's float build gives NaN or infinity, the guards give finite limits") {
    fj::Rng rng = fj::make_rng(1178, 0);
    // foci_p far out: e^x overflows float, the map has reached (±w, 0).
    for (float x : {100.0f, 1000.0f, -100.0f, -1e30f}) {
        const cd got = apply("foci_p", x, 0.7f, 0.5f, {0.5f, 0.5f}, rng);
        CHECK(near(got, cd(x > 0 ? 0.5 : -0.5, 0)));
    }
    // roundspher at a radius whose 1/r² overflows float: w²·z.
    CHECK(near(apply("roundspher", 1e-22f, 3e-23f, 0.5f, {}, rng) * 1e22, 0.25 * cd(1, 0.3)));
    // swirl3 and swirl3r (with min 0) keep the origin, where log r is −∞.
    CHECK(apply("swirl3", 0, 0, 1, {0.5f}, rng) == cd(0, 0));
    CHECK(apply("swirl3r", 0, 0, 1, {0.5f, 0, 1}, rng) == cd(0, 0));
    // curvature and ovoid divide by epsilon at the origin.
    CHECK(near(apply("curvature", 0, 0, 0.5f, {}, rng), cd(0.5 / kEps, 0)));
    CHECK(apply("ovoid", 0, 0, 1, {2, 3}, rng) == cd(0, 0));
    // projective on its line at infinity divides by epsilon: (1, 0)/ε.
    CHECK(near(apply("projective", 1, 0, 1, {1, 0, -1, 1, 0, 0, 0, 1, 0}, rng), cd(1 / kEps, 0)));
    // squirrel holds tan's argument to ±8388607.
    CHECK(near(apply("squirrel", 1e9f, 0, 1, {1, 1}, rng),
               cd(std::cos(1e9) * std::tan(8388607.0), 0), 10));
}
