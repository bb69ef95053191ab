// flamejit — Fractorium's Jacobi elliptic maps (jac_cn, jac_dn, jac_sn) and
// its curl_sp and cpow3, against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// fj::jacobi_elliptic (descending Landen transformations) is checked against
// the functions' defining differential equations, sn' = cn·dn,
// cn' = −sn·dn, dn' = −m·sn·cn from (0, 1, 1), integrated in double by
// Runge–Kutta, which holds for every real parameter m; against the quarter
// period K(m) of std::comp_ellint_1; and for its identities. The jac_*
// variations are checked at the default k = 1/2, where they are the
// complex sn, cn and dn, against the same equations integrated along the
// ray from 0 to z in complex arithmetic, and at other k against
// Fractorium's formula built from the double real values. curl_sp is
// checked against its formula in double and, at power 1 without spread,
// against curl's complex form; cpow3 by replaying its four draws from a copy
// of the random stream and forming z^e with std::complex.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "shared/jacobi.h"
#include "test_support.h"

namespace {

using cd = std::complex<double>;

const auto apply = &fj::test::host_variation;
using fj::test::near;
using fj::test::frequency_ok;

// sn, cn, dn of u for parameter m: the ODE from 0 to u in `steps` RK4 steps,
// in any number field T (double, or complex for a complex argument).
template <typename T>
std::array<T, 3> jacobi_ode(T u, double m, int steps) {
    std::array<T, 3> y{T(0), T(1), T(1)};
    const T h = u / double(steps);
    auto f = [m](const std::array<T, 3>& v) {
        return std::array<T, 3>{v[1] * v[2], -v[0] * v[2], -m * v[0] * v[1]};
    };
    for (int i = 0; i < steps; ++i) {
        std::array<T, 3> k1 = f(y), t{};
        for (int j = 0; j < 3; ++j) t[j] = y[j] + 0.5 * h * k1[j];
        std::array<T, 3> k2 = f(t);
        for (int j = 0; j < 3; ++j) t[j] = y[j] + 0.5 * h * k2[j];
        std::array<T, 3> k3 = f(t);
        for (int j = 0; j < 3; ++j) t[j] = y[j] + h * k3[j];
        std::array<T, 3> k4 = f(t);
        for (int j = 0; j < 3; ++j) y[j] += h / 6.0 * (k1[j] + 2.0 * k2[j] + 2.0 * k3[j] + k4[j]);
    }
    return y;
}

// The real functions, with steps of at most 1/500 (RK4's error is then
// below 1e-10 over the ranges used).
std::array<double, 3> jacobi_ref(double u, double m) {
    return jacobi_ode<double>(u, m, std::max(8, int(std::ceil(std::fabs(u) * 500))));
}

std::array<double, 3> jacobi_float(float u, float mc) {
    float s, c, d;
    fj::jacobi_elliptic(u, mc, s, c, d);
    return {s, c, d};
}

// Fractorium's jac_* at (x, y) for parameter k, from double real values:
// s, c, d of x with parameter 1 − k and s', c', d' of y with parameter k.
enum class Jac { sn, cn, dn };
cd jac_formula(Jac which, double x, double y, double k, double w, double* divisor) {
    const auto [s, c, d] = jacobi_ref(x, 1 - k);
    const auto [s1, c1, d1] = jacobi_ref(y, k);
    const double den = c1 * c1 + k * s * s * s1 * s1;
    *divisor = den;
    switch (which) {
        case Jac::sn: return w / den * cd(s * d1, c * d * s1 * c1);
        case Jac::cn: return w / den * cd(c * c1, -s * d * s1 * d1);
        default: return w / den * cd(d * c1 * d1, -k * s * c * s1);
    }
}

}  // namespace

TEST_CASE("fractorium jacobi: jacobi_elliptic solves sn' = cn·dn, cn' = −sn·dn, dn' = −m·sn·cn for any real m") {
    std::mt19937 gen(1148);
    std::uniform_real_distribution<float> arg(-6, 6), mcs(-1, 2), far(-40, 40);
    int wrong = 0, checked = 0, reciprocal = 0, negative_m = 0;
    double worst = 0;
    auto check = [&](float u, float mc, double tol) {
        const double m = 1 - double(mc);
        const auto want = jacobi_ref(u, m);
        const auto got = jacobi_float(u, mc);
        double err = 0;
        for (int j = 0; j < 3; ++j) err = std::max(err, std::fabs(got[j] - want[j]));
        // The float argument is exact; what float rounding inside costs
        // grows with |u| (the argument's ulp), hence the tolerance's scale.
        const double allowed = tol * std::max(1.0, double(std::fabs(u)));
        worst = std::max(worst, err / allowed);
        wrong += err > allowed;
        ++checked;
        reciprocal += mc < 0;
        negative_m += mc > 1;
    };
    for (int i = 0; i < 3000; ++i) check(arg(gen), mcs(gen), 1e-6);
    // Near m = 1 (tiny mc, both signs), where the most levels are needed,
    // and the ends of Fractorium's range.
    for (float mc : {1e-3f, 1e-6f, 1e-12f, 1e-30f, 1e-44f, -1e-6f, -1e-30f, -1.0f, 2.0f, 1.0f})
        for (int i = 0; i < 100; ++i) check(arg(gen), mc, 1e-6);
    // Far arguments: several periods out.
    for (int i = 0; i < 200; ++i) check(far(gen), mcs(gen), 1e-6);
    INFO("worst error / allowed: " << worst);
    CHECK(wrong == 0);
    CHECK(checked > 4000);
    CHECK(reciprocal > 500);
    CHECK(negative_m > 500);
}

TEST_CASE("fractorium jacobi: jacobi_elliptic keeps sn² + cn² = 1 and dn² + m·sn² = 1, its parities and its quarter period") {
    std::mt19937 gen(1149);
    std::uniform_real_distribution<float> arg(-20, 20), mcs(-1, 2), unit(0, 0.999f);
    int wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        const float u = arg(gen), mc = mcs(gen);
        const double m = 1 - double(mc);
        const auto [s, c, d] = jacobi_float(u, mc);
        wrong += std::fabs(s * s + c * c - 1) > 1e-6;
        wrong += std::fabs(d * d + m * s * s - 1) > 1e-6;
        // sn is odd, cn and dn even: exactly, as each step keeps signs.
        const auto [s2, c2, d2] = jacobi_float(-u, mc);
        wrong += !(s2 == -s && c2 == c && d2 == d);
    }
    CHECK(wrong == 0);
    // sn(K) = 1, cn(K) = 0, dn(K) = √(1 − m) at the quarter period
    // K(m) = comp_ellint_1(√m), for m in [0, 1); and sn(2K) = 0, cn(2K) = −1.
    for (int i = 0; i < 500; ++i) {
        const double m = unit(gen);
        const float mc = float(1 - m);
        const double K = std::comp_ellint_1(std::sqrt(1 - double(mc)));
        const auto [s, c, d] = jacobi_float(float(K), mc);
        // cn near its zero has slope −dn, so the float K's rounding shows.
        const double slack = 4 * K * 6e-8;
        wrong += std::fabs(s - 1) > 1e-6 || std::fabs(c) > 1e-6 + slack || std::fabs(d - std::sqrt(double(mc))) > 1e-6;
        const auto [s2, c2, d2] = jacobi_float(float(2 * K), mc);
        wrong += std::fabs(s2) > 1e-6 + 2 * slack || std::fabs(c2 + 1) > 1e-6 || std::fabs(d2 - 1) > 1e-6;
    }
    CHECK(wrong == 0);
    // The ends: m = 0 is sin, cos, 1; m = 1 (mc = 0) is tanh, sech, sech.
    for (float u : {-3.0f, -0.5f, 0.0f, 0.25f, 1.0f, 7.5f, 60.0f}) {
        const auto [s0, c0, d0] = jacobi_float(u, 1.0f);
        CHECK(s0 == doctest::Approx(std::sin(u)).epsilon(1e-6));
        CHECK(c0 == doctest::Approx(std::cos(u)).epsilon(1e-6));
        CHECK(d0 == 1.0);
        const auto [s1, c1, d1] = jacobi_float(u, 0.0f);
        CHECK(std::fabs(s1 - std::tanh(u)) < 1e-6);
        CHECK(std::fabs(c1 - 1 / std::cosh(u)) < 1e-6);
        CHECK(d1 == c1);
    }
}

TEST_CASE("fractorium jacobi: at k = 1/2, jac_sn, jac_cn and jac_dn are the complex sn, cn and dn of parameter 1/2") {
    std::mt19937 gen(1150);
    std::uniform_real_distribution<float> coord(-3, 3);
    fj::Rng rng = fj::make_rng(1150, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 1500; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.9f;
        const cd z(x, y);
        // The ray from 0 to z may pass near a pole (at 2jK + (2l + 1)iK'),
        // where neither integration nor float values are well conditioned:
        // skip where two step sizes disagree or the values are large.
        const auto a = jacobi_ode<cd>(z, 0.5, 4000), b = jacobi_ode<cd>(z, 0.5, 8000);
        bool ok = true;
        for (int j = 0; j < 3; ++j) ok = ok && std::abs(a[j] - b[j]) < 1e-9 && std::abs(b[j]) < 8;
        if (!ok) continue;
        ++checked;
        // Error in the float values grows with the result's size.
        wrong += !near(apply("jac_sn", x, y, w, {0.5f}, rng), double(w) * b[0], 5 * (1 + std::abs(b[0])));
        wrong += !near(apply("jac_cn", x, y, w, {0.5f}, rng), double(w) * b[1], 5 * (1 + std::abs(b[1])));
        wrong += !near(apply("jac_dn", x, y, w, {0.5f}, rng), double(w) * b[2], 5 * (1 + std::abs(b[2])));
    }
    CHECK(wrong == 0);
    CHECK(checked > 1000);
}

TEST_CASE("fractorium jacobi: at any k the jac_* follow Fractorium's formula, k clamped to [-1, 1]") {
    std::mt19937 gen(1151);
    std::uniform_real_distribution<float> coord(-4, 4), ks(-1, 1);
    fj::Rng rng = fj::make_rng(1151, 0);
    int wrong = 0, checked = 0, skipped = 0;
    const Jac kinds[] = {Jac::sn, Jac::cn, Jac::dn};
    const char* names[] = {"jac_sn", "jac_cn", "jac_dn"};
    for (int i = 0; i < 2000; ++i) {
        const float x = i % 10 == 0 ? 0.0f : coord(gen), y = i % 10 == 1 ? 0.0f : coord(gen), k = ks(gen), w = -0.7f;
        for (int j = 0; j < 3; ++j) {
            double den;
            const cd want = jac_formula(kinds[j], x, y, k, w, &den);
            // A divisor near 0 (a pole) magnifies the float values' error.
            if (std::fabs(den) < 0.05) {
                ++skipped;
                continue;
            }
            wrong += !near(apply(names[j], x, y, w, {k}, rng), want, 20 / std::fabs(den));
            ++checked;
        }
    }
    CHECK(wrong == 0);
    CHECK(checked > 5000);
    // k beyond [-1, 1] acts as the nearer end.
    for (int j = 0; j < 3; ++j) {
        CHECK(apply(names[j], 0.7f, -1.3f, 1, {3.0f}, rng) == apply(names[j], 0.7f, -1.3f, 1, {1.0f}, rng));
        CHECK(apply(names[j], 0.7f, -1.3f, 1, {-2.0f}, rng) == apply(names[j], 0.7f, -1.3f, 1, {-1.0f}, rng));
        double den;
        CHECK(near(apply(names[j], 0.7f, -1.3f, 1, {-2.0f}, rng), jac_formula(kinds[j], 0.7f, -1.3f, -1, 1, &den), 10));
    }
    // The origin: sn(0) = 0, cn(0) = dn(0) = 1.
    CHECK(apply("jac_sn", 0, 0, 2, {0.3f}, rng) == cd(0, 0));
    CHECK(apply("jac_cn", 0, 0, 2, {0.3f}, rng) == cd(2, 0));
    CHECK(apply("jac_dn", 0, 0, 2, {0.3f}, rng) == cd(2, 0));
}

namespace {

// curl_sp in double, from its definition.
cd curl_sp_formula(double x, double y, double w, double pw, double c1, double c2, double sx, double sy) {
    auto signed_pow = [pw](double v) { return pw == 1 ? v : std::pow(std::fabs(v), pw) * (v < 0 ? -1 : 1); };
    const double u = signed_pow(x), v = signed_pow(y);
    const double a = c1 * u + c2 * (u * u - v * v), b = c1 * v + 2 * c2 * u * v;
    const double re = std::hypot(a, sx) * (a > 0 ? 1 : -1) + 1, im = std::hypot(b, sy) * (b > 0 ? 1 : -1);
    const double q = std::pow(re * re + im * im, 1 / pw);
    return w / q * cd(u * re + v * im, v * re - u * im);
}

}  // namespace

TEST_CASE("fractorium jacobi: curl_sp is curl on the signed power of each coordinate, with spread and |q|^(2/pow)") {
    std::mt19937 gen(1152);
    std::uniform_real_distribution<float> coord(-2, 2), pows(0.3f, 3), coef(-1, 1), spread(-0.5f, 0.5f);
    fj::Rng rng = fj::make_rng(1152, 0);
    int wrong = 0, checked = 0, curl_checked = 0;
    for (int i = 0; i < 6000; ++i) {
        const float x = i % 20 == 0 ? 0.0f : coord(gen), y = i % 20 == 1 ? 0.0f : coord(gen);
        const float pw = i % 3 == 0 ? 1.0f : (i % 3 == 1 ? pows(gen) : -pows(gen));
        const float c1 = coef(gen), c2 = coef(gen), sx = spread(gen), sy = spread(gen), w = 0.8f;
        // A negative power sends a coordinate near 0 to infinity: keep
        // |x|, |y| ≥ 0.05 there (the axes themselves are checked below).
        if (pw < 0 && (std::fabs(x) < 0.05f || std::fabs(y) < 0.05f)) continue;
        const cd want = curl_sp_formula(x, y, w, pw, c1, c2, sx, sy);
        // The spread's sign flips where a or b crosses 0 (a jump of 2·|s|),
        // and q near 0 magnifies rounding: skip those neighbourhoods.
        auto signed_pow = [pw](double v) { return pw == 1 ? v : std::pow(std::fabs(v), pw) * (v < 0 ? -1 : 1); };
        const double u = signed_pow(x), v = signed_pow(y);
        const double a = c1 * u + c2 * (u * u - v * v), b = c1 * v + 2 * c2 * u * v;
        const double re = std::hypot(a, sx) * (a > 0 ? 1 : -1) + 1, im = std::hypot(b, sy) * (b > 0 ? 1 : -1);
        if (std::fabs(a) < 1e-3 || std::fabs(b) < 1e-3 || re * re + im * im < 0.05) continue;
        wrong += !near(apply("curl_sp", x, y, w, {pw, c1, c2, sx, sy, 0.3f}, rng), want, 10);
        ++checked;
        // Power 1, no spread: curl, w·z/(1 + c1·z + c2·z²).
        if (pw == 1.0f) {
            const cd z(x, y), q = 1.0 + double(c1) * z + double(c2) * z * z;
            if (std::abs(q) > 0.2) {
                wrong += !near(apply("curl_sp", x, y, w, {1, c1, c2, 0, 0, 0}, rng), double(w) * z / q, 10);
                ++curl_checked;
            }
        }
    }
    CHECK(wrong == 0);
    CHECK(checked > 2500);
    CHECK(curl_checked > 1000);
    // dc changes nothing.
    CHECK(apply("curl_sp", 0.3f, -0.6f, 1, {1.5f, 0.2f, 0.4f, 0.1f, 0.2f, 0}, rng) ==
          apply("curl_sp", 0.3f, -0.6f, 1, {1.5f, 0.2f, 0.4f, 0.1f, 0.2f, 7}, rng));
    // A zero coordinate with a negative power is the point at infinity:
    // not finite (the iteration's bad value), as the formula's limit.
    const cd got = apply("curl_sp", 0, 0.5f, 1, {-1.5f, 0.2f, 0.1f, 0, 0, 0}, rng);
    CHECK(!(std::isfinite(got.real()) && std::isfinite(got.imag())));
    // pow 0 becomes float epsilon: every coordinate raised to it is ±1 and
    // |q|² raised to 1/ε is 0 or infinite, so the result is finite.
    const cd zero_pow = apply("curl_sp", 0.4f, -0.3f, 1, {0, 0.2f, 0.1f, 0, 0, 0}, rng);
    CHECK(std::isfinite(zero_pow.real()));
    CHECK(std::isfinite(zero_pow.imag()));
}

TEST_CASE("fractorium jacobi: cpow3 is z^e on the replayed branch, turned by 2πk/divisor") {
    std::mt19937 gen(1153);
    std::uniform_real_distribution<float> coord(-2, 2), rs(-2, 2), ds(-3, 3), divs(-4, 4), spreads(0, 3);
    fj::Rng rng = fj::make_rng(1153, 0);
    int wrong = 0, checked = 0, moved_down = 0, moved_turns = 0;
    for (int i = 0; i < 6000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.6f;
        const float r = rs(gen), d = ds(gen), spread = spreads(gen);
        // A whole divisor keeps 2π·k/divisor (k up to 32766) well conditioned.
        const float divisor = i % 2 ? std::round(divs(gen)) : divs(gen);
        if (divisor == 0 || std::fabs(divisor) < 0.5f || d == 0) continue;
        // Fractorium's exponent, in double.
        const double L = d < 0 ? -std::log(-double(d)) : std::log(double(d));
        const double beta = std::atan2(L * r, 2 * M_PI);
        const double c = r * std::cos(beta) * std::cos(beta) / divisor, dd = r * std::cos(beta) * std::sin(beta) / divisor;
        const double coeff = dd == 0 ? 0 : -0.095 * spread / dd;
        // Replay the draws: [-1, 1) number, sign bit, u, k.
        fj::Rng replay = rng;
        const double v = fj::rand11(replay);
        const bool bit = fj::rand_bit(replay);
        const double u = 1.0 - fj::rand01(replay);
        // k is the float product's whole part, as the snippet forms it.
        const double k = std::floor(fj::rand01(replay) * 32767.0f);
        double a = std::atan2(y, x);
        if (a < 0) a += 2 * M_PI;
        if (std::cos(a / 2) < v) {
            a -= 2 * M_PI;
            ++moved_down;
        }
        const double spin = std::log(u) * coeff, turns = std::round(spin);
        // Float's product may round to the other whole number at a half.
        const bool at_half = std::fabs(std::fabs(spin - std::trunc(spin)) - 0.5) < 1e-5 * std::max(1.0, std::fabs(spin));
        a += (bit ? 2 * M_PI : -2 * M_PI) * turns;
        moved_turns += turns != 0;
        const cd logz(std::log(std::hypot(double(x), double(y))), a);
        const cd want = double(w) * std::exp(cd(c, dd) * logz) * std::polar(1.0, 2 * M_PI * k / divisor);
        const cd got = apply("cpow3", x, y, w, {r, d, divisor, spread}, rng);
        // Large turn counts make the angle huge, and big results carry their
        // exponent's rounding: skip those.
        if (std::fabs(a) > 200 || std::abs(want) > 1e4 || std::abs(want) < 1e-6) continue;
        // Near the cut the angle's branch is ill-conditioned: skip.
        if (std::fabs(std::atan2(double(y), double(x))) > M_PI - 1e-4 || std::fabs(std::cos(a / 2) - v) < 1e-5 || at_half)
            continue;
        const double slack = 10 * (1 + std::fabs(a) * std::abs(cd(c, dd)));
        wrong += !near(got, want, slack);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 2500);
    CHECK(moved_down > 500);
    CHECK(moved_turns > 500);
    // The downward move comes with probability (1 − cos(a/2))/2: at a = π/2
    // (the point (0, 1)), 1 − cos(π/4) over 2. Read off the result: with
    // r = 1, d = 1 (e = 1 + 0i), divisor 1 and spread 0, z^e is z whatever
    // the branch, so use r = 0.5 (a square root) instead, whose sign shows it.
    int down = 0;
    const int n = 20000;
    for (int i = 0; i < n; ++i) {
        const cd got = apply("cpow3", 0, 1, 1, {0.5f, 1, 1, 0}, rng);
        down += got.real() < 0;  // e^{i(π/2 − 2π)/2}: the lower branch
    }
    CHECK(frequency_ok(down, n, (1 - std::cos(M_PI / 4)) / 2));
    // d and divisor at 0 become float epsilon; the origin is kept finite.
    for (const auto& p : {std::vector<float>{1, 0, 1, 1}, std::vector<float>{1, 1, 0, 1}, std::vector<float>{1.5f, 2, 3, 1}}) {
        const cd got = apply("cpow3", 0.3f, 0.2f, 1, p, rng);
        CHECK(std::isfinite(got.real()));
        CHECK(std::isfinite(got.imag()));
        const cd origin = apply("cpow3", 0, 0, 1, p, rng);
        CHECK(std::isfinite(origin.real()));
        CHECK(std::isfinite(origin.imag()));
    }
}
