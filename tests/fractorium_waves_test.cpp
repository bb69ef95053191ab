// flamejit — Fractorium's waves (waves2b, waves3, waves4, waves22, waves23,
// waves42, waves2_radial, pressure_wave), coth_spiral and inverse hyperbolic
// functions (arcsech, arcsech2, arcsinh, arctanh) and synth, against their
// definitions.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double precision
// against its definition. The waves are worked out formula by formula, and
// waves2b's special waves through references of their own: glibc's j1 for
// the Bessel wave, and for the Jacobi wave sn's differential equation
// (s' = c·d, c' = −s·d, d' = −m·s·c) integrated step by step. The inverse
// hyperbolics go through std::complex's principal acosh, asinh and atanh,
// signed zeros on the cuts included. coth_spiral's parameter t is read back
// from each output with atanh, the output must be the spiral's point at
// that t, and t's spread is counted. waves4 and waves42 hash each band's
// index through a sine magnified 43758 times, which double cannot follow
// float through digit for digit: their heights are checked exactly where
// the hashed sine is that of a number near 1 (band 0), and elsewhere by
// range, by the sign the band's sine gives them, and by frequency. synth is
// worked mode by mode in Fractorium's layout (the snippet computes its modes
// in three shared steps), its draws replayed; its S(t) through shiftx, its
// Bezier map through rawx with S constant, by properties as well, and with
// S flat its modes must be the classic variations they rewrite.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <complex>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

using cd = std::complex<double>;
constexpr double kPi = 3.14159265358979323846;

// What the host build of a variation adds at a point (test_support.h).
const auto apply = &fj::test::host_variation;
using fj::test::near;

// sn(u | m) by RK4 on s' = c·d, c' = −s·d, d' = −m·s·c from (0, 1, 1); good
// to about 1e-9 over the arguments used here, for any m.
double sn_ode(double u, double m) {
    const int steps = std::max(1, int(std::ceil(std::fabs(u) / 0.005)));
    const double h = u / steps;
    double s = 0, c = 1, d = 1;
    for (int i = 0; i < steps; ++i) {
        const double s1 = c * d, c1 = -s * d, d1 = -m * s * c;
        double S = s + 0.5 * h * s1, C = c + 0.5 * h * c1, D = d + 0.5 * h * d1;
        const double s2 = C * D, c2 = -S * D, d2 = -m * S * C;
        S = s + 0.5 * h * s2, C = c + 0.5 * h * c2, D = d + 0.5 * h * d2;
        const double s3 = C * D, c3 = -S * D, d3 = -m * S * C;
        S = s + h * s3, C = c + h * c3, D = d + h * d3;
        const double s4 = C * D, c4 = -S * D, d4 = -m * S * C;
        s += h / 6 * (s1 + 2 * s2 + 2 * s3 + s4);
        c += h / 6 * (c1 + 2 * c2 + 2 * c3 + c4);
        d += h / 6 * (d1 + 2 * d2 + 2 * d3 + d4);
    }
    return s;
}

// waves2b's wave along v: pw clamped to [-10, 10] picks sn, J1 or the sine
// of a power; jacok, clamped to [-1, 1], is sn's complementary parameter.
double wave2b(double v, double freq, double pw, double jacok) {
    pw = std::clamp(pw, -10.0, 10.0);
    jacok = std::clamp(jacok, -1.0, 1.0);
    if (pw >= 0 && pw < 1e-4) return sn_ode(v * freq, 1 - jacok);
    if (pw < 0 && pw > -1e-4) return ::j1(v * freq);
    return std::sin((v < 0 ? -1 : 1) * std::pow(v == 0 ? double(FLT_EPSILON) : std::fabs(v), pw) * freq);
}

// waves2b's amplitude: scale at v = 0 fading to scaleinf, with Fractorium's
// guarded quotient (1/d where d = unity + v² is below float's epsilon).
double amp2b(double v, double scale, double scaleinf, double unity) {
    const double d = unity + v * v, q = d < FLT_EPSILON ? 1 / d : unity / d;
    return q * (scale - scaleinf) + scaleinf;
}

// The fractional part, truncated towards zero as C's (int) cast does.
double frac0(double v) { return v - std::trunc(v); }

}  // namespace

TEST_CASE("waves: waves2b's sine, Bessel and Jacobi waves under an amplitude fading from scale to scaleinf") {
    std::mt19937 gen(61);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(61, 0);
    // freqx, freqy, pwx, pwy, scalex, scaleinfx, scaley, scaleinfy, unity, jacok.
    const std::vector<std::vector<float>> sets = {
        {2, 3, 1.7f, -0.8f, 1.5f, 0.2f, -0.5f, 0.7f, 1.3f, 0.25f},   // sines of powers
        {2.5f, 9, 0, -5e-5f, 1, 0.3f, 0.8f, -0.4f, 1, 0.25f},        // sn (m 0.75), J1 either side of 12
        {1.5f, 2, 1e-4f, -1e-4f, 1, 1, 1, 1, 1, -3},                 // jacok −3 → −1: sn at m 2
        {3, 2, 0, 0, 0.5f, 1, 1, 0.5f, -2, 0},                        // m 1 (tanh); unity −2: the guard
        {2, 2, 0, 0, 1, 1, 1, 1, 1, 2.5f},                            // jacok 2.5 → 1: sn at m 0 is sin
        {2, 2, 0, 0, 1, 0, 1, 0, 1, 1e-6f},                           // m just below 1
        {2, 2, 14, -25, 1, 0, 1, 0, 1, 0.25f},                        // powers clamped to ±10
    };
    int wrong = 0, judged = 0;
    for (const auto& p : sets) {
        for (int i = 0; i < 700; ++i) {
            float x = coord(gen), y = coord(gen);
            const float w = i % 2 ? 0.8f : -1.3f;
            if (p[2] > 10) {  // |v|^±10 stays moderate for |v| in [0.8, 1.1]
                x = std::copysign(0.8f + 0.15f * std::fabs(x), x);
                y = std::copysign(0.8f + 0.15f * std::fabs(y), y);
            }
            if (std::fabs(p[8] + x * x) < 0.05 || std::fabs(p[8] + y * y) < 0.05) continue;  // the guard's pole
            if (p[3] < -1e-4f && std::fabs(x) < 0.2) continue;  // |x|^pw sweeps the sine too fast to judge
            const cd want(w * (x + amp2b(x, p[4], p[5], p[8]) * wave2b(y, p[0], p[2], p[9])),
                          w * (y + amp2b(y, p[6], p[7], p[8]) * wave2b(x, p[1], p[3], p[9])));
            wrong += !near(apply("waves2b", x, y, w, p, rng), want);
            ++judged;
        }
    }
    CHECK(wrong == 0);
    CHECK(judged > 4000);
    // J1 along a line, out to the Hankel range: y = 0 makes the amplitude 1 and x's wave 0.
    wrong = 0;
    for (int i = -3000; i <= 3000; ++i) {
        const float x = i * 0.01f;
        const cd got = apply("waves2b", x, 0, 1, {0, 2, 1, -5e-5f, 1, 1, 1, 1, 1, 0.25f}, rng);
        wrong += std::fabs(got.imag() - ::j1(2.0 * x)) > 1e-5;
    }
    CHECK(wrong == 0);
    // y = 0 reads as float's epsilon with sign +: x's wave is sin(2·ε^−0.1).
    const cd at_axis = apply("waves2b", 0.5f, 0, 1, {2, 2, -0.1f, 1, 1.5f, 0.5f, 1, 1, 1, 0.25f}, rng);
    const double eps_wave = std::sin(2 * std::pow(double(FLT_EPSILON), -0.1));
    CHECK(near(at_axis, {0.5 + amp2b(0.5, 1.5, 0.5, 1) * eps_wave, std::sin(1.0)}));
    CHECK(std::fabs(eps_wave - std::sin(2 * std::pow(1e-30, -0.1))) > 0.1);  // ε, not a smaller guard
}

TEST_CASE("waves: waves3, waves22, waves23, waves2_radial and pressure_wave move each coordinate by their waves") {
    std::mt19937 gen(62);
    std::uniform_real_distribution<float> coord(-3, 3), far(-9, 9);
    fj::Rng rng = fj::make_rng(62, 0);
    constexpr double two_pi = 2 * M_PI;
    int wrong = 0, ramp = 0, skipped = 0;
    for (int i = 0; i < 5000; ++i) {
        const double x = coord(gen), y = coord(gen), w = i % 2 ? 0.7 : -1.2;
        const float fx = float(x), fy = float(y), fw = float(w);
        // waves3: each amplitude waved along the other coordinate.
        wrong += !near(apply("waves3", fx, fy, fw, {0.3f, -0.2f, 5, 3, 2.5f, -1.5f}, rng),
                       w * cd(x + std::sin(5 * y) * 0.15 * (1 + std::sin(2.5 * y)),
                              y + std::sin(3 * x) * -0.1 * (1 + std::sin(-1.5 * x))));
        wrong += !near(apply("waves3", fx, fy, fw, {0.05f, 0.05f, 7, 13, 0, 2}, rng),
                       w * cd(x + std::sin(7 * y) * 0.025, y + std::sin(13 * x) * 0.025 * (1 + std::sin(2 * x))));
        // waves22: modes 0.3 → 0 and 0.7 → 1, powers 2.7 → 2 and 3.2 → 3.
        const double s5 = std::sin(5 * y), s3 = 0.5 * (1 + std::sin(3 * x));
        wrong += !near(apply("waves22", fx, fy, fw, {0.3f, 0.2f, 5, 3, 0.3f, 0.7f, 2.7f, 3.2f}, rng),
                       w * cd(x + s5 * s5 * 0.3, y + s3 * s3 * s3 * 0.2));
        // Modes 0.5 → 1 and −2 → 0, powers −1.5 → −1 and 0.4 → 0 (1/s near its
        // pole magnifies the sine's rounding: skipped below 0.05, 10 times looser).
        const double s4 = 0.5 * (1 + std::sin(4 * y));
        if (s4 > 0.05)
            wrong += !near(apply("waves22", fx, fy, fw, {0.1f, -0.4f, 4, 2, 0.5f, -2, -1.5f, 0.4f}, rng),
                           w * cd(x + 0.1 / s4, y - 0.4), 10);
        // Mode 7 → 1; power 3e9 is past int's range: INT_MIN, as C's cast on x86.
        const double s33 = 0.5 * (1 + std::sin(3 * y)), sy = std::sin(3 * x);
        const cd huge = apply("waves22", fx, fy, fw, {0.2f, 0.2f, 3, 3, 7, -5, 3e9f, -2.9f}, rng);
        if (s33 < 0.99) wrong += std::isfinite(huge.real());
        // (1/sin² magnifies the sine's rounding near its poles: 10 times looser.)
        if (std::fabs(sy) > 0.05) wrong += !near({0, huge.imag()}, {0, w * (y + 0.2 / (sy * sy))}, 10);
        // waves23: sawteeth of period 2π/freq, folded at 1/2 (skip the jumps).
        const auto saw = [&](double v, double freq, double& f) {
            f = v * freq / two_pi - std::floor(v * freq / two_pi);
            const bool edge = f < 1e-4 || f > 1 - 1e-4 || std::fabs(f - 0.5) < 1e-4;
            if (f > 0.5) f = 0.5 - f;
            return edge;
        };
        double f1, f2;
        if (!saw(y, 5, f1) && !saw(x, 3, f2))
            wrong += !near(apply("waves23", fx, fy, fw, {0.3f, -0.2f, 5, 3}, rng), w * cd(x + 0.3 * f1, y - 0.2 * f2));
        else
            ++skipped;
        // pressure_wave: x + sin(2πfx)/(2πf); frequency 0 leaves the coordinate alone.
        const auto pressure = [](double v, double f) { return f == 0 ? v : v + std::sin(two_pi * f * v) / (two_pi * f); };
        wrong += !near(apply("pressure_wave", fx, fy, fw, {1, 1}, rng), w * cd(pressure(x, 1), pressure(y, 1)));
        wrong += !near(apply("pressure_wave", fx, fy, fw, {0.37f, -2.5f}, rng),
                       w * cd(pressure(x, 0.37), pressure(y, -2.5)));
        wrong += !near(apply("pressure_wave", fx, fy, fw, {0, 1.3f}, rng), w * cd(x, pressure(y, 1.3)));
        // waves2_radial: no waves inside null, a ramp up to distance, full waves beyond.
        const double gx = far(gen), gy = far(gen), r = std::hypot(gx, gy);
        const auto radial = [&](const std::vector<float>& p) {
            double f = r < p[5] ? (r - p[4]) / (p[5] - p[4]) : 1;
            if (r < p[4]) f = 0;
            return w * cd(gx + f * std::sin(gy * p[0]) * p[1], gy + f * std::sin(gx * p[2]) * p[3]);
        };
        for (const std::vector<float>& p : {std::vector<float>{7, 0.1f, 13, 0.1f, 2, 10},    // default
                                            std::vector<float>{3, 0.5f, -2, 0.2f, 3, 1},      // null beyond distance
                                            std::vector<float>{4, 0.3f, 5, 0.3f, 4, 4}}) {    // no ramp at all
            if (std::fabs(r - p[4]) < 1e-4 || std::fabs(r - p[5]) < 1e-4) continue;
            wrong += !near(apply("waves2_radial", float(gx), float(gy), fw, p, rng), radial(p));
        }
        ramp += r > 2 && r < 9;  // inside the default's ramp
    }
    CHECK(wrong == 0);
    CHECK(skipped < 50);
    CHECK(ramp > 2000);
}

TEST_CASE("waves: waves4 and waves42 give each band a hashed height, exact in band 0, of the band's sign, spread evenly") {
    std::mt19937 gen(63);
    std::uniform_real_distribution<float> coord(-3, 3), along(-20, 20);
    fj::Rng rng = fj::make_rng(63, 0);
    // scalex 0.3, scaley 0.2, freqx 7, freqy 5, cont, yfact 50 (the height also
    // drifts along y, 0.05 of the hash's argument per unit), waves42's freqx2 1.5.
    for (const char* name : {"waves4", "waves42"}) {
        const bool is42 = std::string(name) == "waves42";
        const auto params = [&](float cont) {
            std::vector<float> p = {0.3f, 0.2f, 7, 5, cont, 50};
            if (is42) p.push_back(1.5f);
            return p;
        };
        const int n = 30000;
        int wrong = 0, band0 = 0, up = 0, ones = 0, negative = 0;
        double sum_h2 = 0;
        int counted = 0;
        for (int i = 0; i < n; ++i) {
            const float x = coord(gen), y = i % 4 ? along(gen) : float(0.66 * std::fabs(along(gen)) / 20), w = 0.9f;
            // The band: its index k, and how far into it y lies (skip its edges).
            const double scaled = is42 ? 1.5 * y : 7.0 * y / (2 * M_PI), k = std::floor(scaled);
            if (scaled - k < 1e-4 || scaled - k > 1 - 1e-4) continue;
            const double hash_sine = std::sin(12.9898 * k + 78.233 * k + 1 + 0.05 * y);
            const double sine = std::sin(7.0 * y);
            const cd got = apply(name, x, y, w, params(0), rng), got1 = apply(name, x, y, w, params(0.5f), rng);
            // y: plain waves.
            wrong += std::fabs(got.imag() - w * (y + 0.2 * std::sin(5.0 * x))) > 1e-5 * std::max(1.0, std::fabs(got.imag()));
            wrong += got1.imag() != got.imag();
            // cont rounds to a whole number: 0.5 to 1 (got1), 0.4 to 0.
            wrong += apply(name, x, y, w, params(0.4f), rng) != got;
            if (std::fabs(sine) < 0.1) continue;
            const double h2 = (got.real() / w - x) / (0.3 * sine), c2 = (got1.real() / w - x) / (0.3 * sine);
            wrong += h2 < -1e-4 || h2 > 1 + 1e-4;
            const bool one = std::fabs(c2 - 1) < 1e-4;
            wrong += !one && std::fabs(c2) > 1e-4;  // with cont 1, h² is 0 or 1
            sum_h2 += h2;
            ++counted;
            if (k == 0) {
                // 1 + 0.05·y rounds to float within 6e-8: the hash within 43758·1e-7.
                ++band0;
                const double h = frac0(43758.5453 * hash_sine);
                if (std::min(h, 1 - h) < 0.02) continue;  // about to wrap round
                wrong += std::fabs(std::sqrt(std::max(h2, 0.0)) - h) > 0.01;
                if (std::fabs(h - 0.5) > 0.01) wrong += one != (h > 0.5);
            } else if (std::fabs(hash_sine) > 1e-2) {
                // Elsewhere the height's sign is the band's sine's: cont 1 never lifts a negative one.
                if (hash_sine < 0) {
                    ++negative;
                    wrong += one;
                } else {
                    ++up;
                    ones += one;
                }
            }
        }
        const std::string label = name;
        CAPTURE(label);
        CHECK(wrong == 0);
        CHECK(band0 > 1000);
        CHECK(negative > n / 10);
        CHECK(sum_h2 / counted == doctest::Approx(1.0 / 3).epsilon(0.05));  // |h| uniform in [0, 1)
        CHECK(double(ones) / up == doctest::Approx(0.5).epsilon(0.06));      // h > 1/2 half the time
    }
}

TEST_CASE("inverse hyperbolics: arcsech, arcsinh and arctanh are std::complex's principal acosh(1/z), asinh, atanh") {
    std::mt19937 gen(64);
    std::uniform_real_distribution<float> coord(-2, 2), logr(std::log(1e-3f), std::log(1e3f)), angle(-M_PI, M_PI);
    fj::Rng rng = fj::make_rng(64, 0);
    const cd i1(0, 1);
    int wrong = 0, below = 0, above = 0, judged = 0;
    for (int n = 0; n < 20000; ++n) {
        // Half in the square, half spread over six decades of radius.
        const cd zf = n % 2 ? cd(coord(gen), coord(gen)) : std::polar(double(std::exp(logr(gen))), double(angle(gen)));
        const float x = float(zf.real()), y = float(zf.imag()), fw = n % 3 ? 0.8f : -1.3f;
        const cd z(x, y);
        const double w = fw;
        // Branch points are ill-conditioned in any precision: skipped within 1e-3.
        if (std::abs(z - 1.0) > 1e-3 && std::abs(z + 1.0) > 1e-3) {
            ++judged;
            const cd sech = std::acosh(1.0 / z);
            wrong += !near(apply("arcsech", x, y, fw, {}, rng), w / M_PI * sech);
            wrong += !near(apply("arctanh", x, y, fw, {}, rng), 2 * w / M_PI * std::atanh(z));
            // arcsech2: halves swapped over, shifted by ±1 (unweighted); the
            // seam (the image of (0, 1)) is skipped.
            const cd v = 2 * w / M_PI * sech;
            if (std::fabs(v.imag()) > 1e-6) {
                const cd want = v.imag() < 0 ? v + i1 : cd(-v.real(), v.imag() - 1);
                (v.imag() < 0 ? below : above) += 1;
                wrong += !near(apply("arcsech2", x, y, fw, {}, rng), want);
            }
        }
        if (std::abs(z - i1) > 1e-3 && std::abs(z + i1) > 1e-3)
            wrong += !near(apply("arcsinh", x, y, fw, {}, rng), 2 * w / M_PI * std::asinh(z));
    }
    CHECK(wrong == 0);
    CHECK(judged > 19000);
    CHECK(below > 5000);
    CHECK(above > 5000);
}

TEST_CASE("inverse hyperbolics: on the cuts, the side std::complex picks in Fractorium's formulas; the degenerate points") {
    fj::Rng rng = fj::make_rng(65, 0);
    const double w = 0.9, k = w / M_PI;
    int wrong = 0;
    for (const double zero : {0.0, -0.0}) {
        // arcsech's cut: 1/z real below 1, i.e. z real beyond 1 or below 0; (0, 1) is not on it.
        // 1.0/cd(x, ±0) is Fractorium's own division: Smith's algorithm gives
        // its imaginary zero x's sign, whatever the sign of y's, so the
        // image lies above the axis for x > 1 and below it for x < 0.
        for (const float x : {2.0f, 1.5f, -0.5f, -1.0f, -3.0f, 0.5f, 1.0f}) {
            const cd got = apply("arcsech", x, float(zero), float(w), {}, rng);
            const cd want = k * std::acosh(1.0 / cd(x, zero));
            wrong += !near(got, want);
            // on the cut the two sides differ in sign: the right one is taken
            if (x != 0.5f && x != 1.0f) wrong += std::signbit(got.imag()) != std::signbit(want.imag()) || (got.imag() > 0) != (x > 1);
        }
        // arcsech2: any zero imaginary part (z in (0, 1)) takes the mirrored half.
        const cd fold = apply("arcsech2", 0.5f, float(zero), float(w), {}, rng);
        wrong += !near(fold, {-2 * k * std::acosh(2.0), -1});
        // arcsinh's cuts: the imaginary axis beyond ±i.
        for (const float y : {2.0f, -3.0f, 1.0f, 0.5f}) {
            const cd got = apply("arcsinh", float(zero), y, float(w), {}, rng);
            const cd want = 2 * k * std::asinh(cd(zero, y));
            wrong += !near(got, want) || (std::fabs(y) > 1 && std::signbit(got.real()) != std::signbit(want.real()));
        }
        // arctanh's cuts: the real axis beyond ±1. Fractorium's own formula in
        // std::complex: the division's imaginary zero takes the sign of −x, so
        // the cut beyond 1 goes to −w and the one below −1 to +w.
        for (const float x : {2.0f, -3.0f, 0.5f}) {
            const cd got = apply("arctanh", x, float(zero), float(w), {}, rng), z(x, zero);
            wrong += !near(got, k * std::log((z + 1.0) / (-z + 1.0)));
            if (std::fabs(x) > 1) wrong += !near({0, got.imag()}, {0, x > 1 ? -w : w});
        }
    }
    CHECK(wrong == 0);
    // The poles: arcsech at the origin, arctanh at ±1 (log of 0 or of infinity).
    const cd origin = apply("arcsech", 0, 0, 1, {}, rng);
    CHECK_FALSE((std::isfinite(origin.real()) && std::isfinite(origin.imag())));
    CHECK_FALSE(std::isfinite(apply("arctanh", 1, 0, 1, {}, rng).real()));
    CHECK_FALSE(std::isfinite(apply("arctanh", -1, 0, 1, {}, rng).real()));
    // arcsinh's branch points ±i are finite: ±iπ/2, scaled by 2w/π.
    CHECK(near(apply("arcsinh", 0, 1, float(w), {}, rng), {0, w}));
    CHECK(near(apply("arcsinh", 0, -1, float(w), {}, rng), {0, -w}));
}

TEST_CASE("coth_spiral: every point lands on w·coth((1 + ia)·t/2), t uniform in [-π, π), whatever the input") {
    std::mt19937 gen(66);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(66, 0);
    for (const float a : {4.0f, -1.3f, 0.0f}) {
        const int n = 24000;
        int wrong = 0, bins[8] = {}, small = 0;
        for (int i = 0; i < n; ++i) {
            const float x = coord(gen), y = coord(gen), w = i % 2 ? 0.8f : -1.1f;
            fj::Rng twin = rng;
            const cd got = apply("coth_spiral", x, y, w, {a}, rng);
            // The same draw elsewhere: the input is ignored.
            wrong += apply("coth_spiral", -y, 3 * x, w, {a}, twin) != got;
            // coth(u) = v gives u = atanh(1/v) up to iπ: Re(u) = t/2.
            const double t = 2 * std::atanh(double(w) / got).real();
            const cd want = double(w) / std::tanh(cd(1, a) * (t / 2));
            wrong += !near(got, want, 10) || t < -M_PI - 1e-5 || t > M_PI + 1e-5;
            ++bins[std::clamp(int((t + M_PI) / (2 * M_PI) * 8), 0, 7)];
            small += std::fabs(t) < 1e-3;
        }
        CAPTURE(a);
        CHECK(wrong == 0);
        for (int b : bins) CHECK(b == doctest::Approx(n / 8.0).epsilon(0.06));
        CHECK(small > 0);  // draws near t = 0, where Fractorium's divisor cancels, were judged too
    }
}

namespace {

// synth, worked in double from its definition mode by mode (Fractorium's
// layout, not the snippet's): p as the snippet reads it, draws replayed.
struct SynthRef {
    const std::vector<float>& p;
    bool fragile = false;  // a point where float and double may fall on two sides of a jump

    static int choice(double v, int hi) { return int(std::clamp(std::floor(v + 0.5), 0.0, double(hi))); }
    static double zeps(double v) { return v != 0 ? v : double(FLT_EPSILON); }

    double s(double t) {
        const double a = p[0], mix = p[3];
        double f = a;
        for (int k = 0; k < 5; ++k) {
            const double amp = p[5 + 6 * k], skew = p[7 + 6 * k], frq = p[8 + 6 * k], phs = p[9 + 6 * k];
            if (amp == 0) continue;
            double y = (phs + t * frq) / (2 * kPi);
            y -= std::floor(y);
            fragile |= y < 1e-4 || y > 1 - 1e-4;
            if (skew != 0) {
                const double mid = 0.5 + 0.5 * skew;
                fragile |= std::fabs(y - mid) < 1e-4;
                y = y > mid ? 0.5 + 0.5 * (y - mid) / zeps(1 - mid) : 0.5 - 0.5 * (mid - y) / zeps(mid);
            }
            const int type = choice(p[6 + 6 * k], 8);
            double v;
            if (type == 0) v = std::sin(2 * kPi * y);
            else if (type == 1) v = std::cos(2 * kPi * y);
            else if (type == 2) v = y > 0.5 ? 1 : -1;
            else if (type == 3) v = 1 - 2 * y;
            else if (type == 4) v = y > 0.5 ? 3 - 4 * y : 2 * y - 1;
            else if (type == 5) v = 8 * (y - 0.5) * (y - 0.5) - 1;
            else if (type == 6) v = 2 * std::sqrt(y) - 1;
            else {
                const double c = std::cos((y - 0.5) * 2 * kPi / frq);
                fragile |= std::fabs(c) < 0.05 || 1 - c < 0.05;
                v = type == 7 ? 1 / c - 1 : c / (1 - c);
            }
            if (type == 2 || type == 4) fragile |= std::fabs(y - 0.5) < 1e-4;
            const int layer = choice(p[10 + 6 * k], 3);
            if (layer == 0) f += amp * v;
            else if (layer == 1) f *= 1 + amp * v;
            else if (layer == 2) f = std::max(f, a + amp * v);
            else f = std::min(f, a + amp * v);
        }
        return f * mix + 1 - mix;
    }

    // Fractorium's quadratic Bezier map, branch by branch.
    static double bezier(double x, double m) {
        double sign = 1;
        if (m < 0) m = -m, sign = -1;
        if (x < 0) x = -x, sign = -sign;
        const double im = m > 1e-10 ? 1 / m : 1e10, rejoin = std::max(im, 2 * m);
        if (x > rejoin || m == 1) return sign * x;
        double t;
        if (m < 1 && x <= 1) {
            t = std::fabs(m - 0.5) > 1e-10 ? (-m + std::sqrt(m * m + (1 - 2 * m) * x)) / (1 - 2 * m) : x;
            return sign * (x + (m - 1) * t * t);
        }
        if (m > 1 && x <= 1) {
            t = std::fabs(m - 2) > 1e-10 ? (-im + std::sqrt(im * im + (1 - 2 * im) * x)) / (1 - 2 * im) : x;
            return sign * (x + (m - 1) * t * t);
        }
        if (m < 1) {
            t = std::sqrt((x - 1) / (rejoin - 1));
            return sign * (x + (m - 1) * t * t + 2 * (1 - m) * t + (m - 1));
        }
        t = (1 - m) + std::sqrt((m - 1) * (m - 1) + (x - 1));
        return sign * (x + (m - 1) * t * t - 2 * (m - 1) * t + (m - 1));
    }

    double lerp(double x, double m, int smooth) { return smooth == 0 ? x * m : bezier(x, m); }

    // sin and cos of t reshaped by S at t and t + π/2.
    void sincos(double t, double& s, double& c, int smooth) {
        s = std::sin(t), c = std::cos(t);
        if (smooth == 0) {
            s *= this->s(t), c *= this->s(t + kPi / 2);
        } else {
            s = (1 - p[3]) * s + this->s(t) - 1;
            c = (1 - p[3]) * c + this->s(t + kPi / 2) - 1;
        }
    }

    cd operator()(double x, double y, double w, fj::Rng& draws) {
        const int mode = choice(p[1], 26), smooth = choice(p[4], 1);
        const double power = p[2], mix = p[3], r2 = x * x + y * y, r = std::sqrt(r2), th = std::atan2(x, y);
        auto u01 = [&] { return double(fj::rand01(draws)); };
        double rad, t, s, c;
        switch (mode) {
        case 0:
            rad = lerp(std::pow(zeps(r2), (power + 1) / 2), this->s(th), smooth);
            return w * rad * cd(std::sin(th), std::cos(th));
        case 1: rad = lerp(r / (r2 / 4 + 1), this->s(th), smooth); return w * rad * cd(std::sin(th), std::cos(th));
        case 2: {
            const double u1 = u01(), u2 = u01(), u3 = u01();
            rad = (u1 + u2 + 0.002 * u3) / 2.002;
            t = 2 * kPi * u01() - kPi;
            const cd v = rad * cd(std::sin(t), std::cos(t));
            return v * w * lerp(std::pow(zeps(rad * rad), power / 2), this->s(t), smooth);
        }
        case 3: {
            const double u1 = u01(), u2 = u01();
            rad = 0.5 * (u1 + u2);
            t = 2 * kPi * u01() - kPi;
            rad = lerp(std::pow(zeps(rad * rad), -power / 2), this->s(t), smooth);
            return w * rad * cd(std::sin(t), std::cos(t));
        }
        case 4: {
            const double u1 = u01(), u2 = u01();
            const double vy = 1 + 0.1 * (u1 + u2 - 1) * power;
            t = 2 * std::asin((u01() - 0.5) * 2);
            return w * cd(t / kPi, lerp(vy, this->s(t), smooth) - 1);
        }
        case 5: return w * lerp(r, this->s(th), smooth) * cd(std::sin(th), std::cos(th));
        case 6: return w * cd(lerp(x, this->s(y), smooth), y);
        case 7: return w * cd(x, lerp(y, this->s(x), smooth));
        case 8: return w * cd(lerp(x, this->s(y), smooth), lerp(y, this->s(x), smooth));
        case 9: return w * cd(x + this->s(y) - 1, y);
        case 10: return w * cd(x, y + this->s(x) - 1);
        case 11: return w * cd(x + this->s(y) - 1, y + this->s(x) - 1);
        case 12: return w * cd(this->s(x) - 1 + (1 - mix) * std::sin(x), this->s(y) - 1 + (1 - mix) * std::sin(y));
        case 13:
            rad = std::pow(zeps(r2), power / 2);
            sincos(rad, s, c, smooth);
            return w * cd(s * x - c * y, c * x + s * y);
        case 14:
            rad = std::pow(zeps(r2), power / 2);
            sincos(th, s, c, smooth);
            return w * cd(s / rad, c * rad);
        case 15:
            rad = std::pow(zeps(r2), power / 4);
            t = th / 2 + (u01() < 0.5 ? kPi : 0);
            sincos(t, s, c, smooth);
            return w * rad * cd(c, s);
        case 16:
            sincos(kPi * std::pow(zeps(r2), power / 2), s, c, smooth);
            return w * (th / kPi) * cd(s, c);
        case 17: {
            const double mu = zeps(power * power), q = (r + mu) / (2 * mu);
            fragile |= std::fabs(q - std::round(q)) < 1e-4 * std::max(1.0, q);
            sincos(r + (-2 * mu * std::trunc(q) + r * (1 - mu)), s, c, smooth);
            return w * th * cd(s, c);
        }
        case 18:
            rad = std::pow(zeps(r2), power / 2);
            sincos(x, s, c, smooth);
            return w * cd(rad * s, rad * y);
        case 19: {
            const double u1 = u01(), u2 = u01();
            rad = 1 + 0.1 * (u1 + u2 - 1) * power;
            t = 2 * kPi * u01() - kPi;
            return w * lerp(rad, this->s(t), smooth) * cd(std::sin(t), std::cos(t));
        }
        case 20:
            t = 2 * kPi * u01() - kPi;
            rad = std::pow(zeps(u01()), power);
            return w * (this->s(t) + 0.1 * rad) * cd(std::sin(t), std::cos(t));
        case 21:
        case 22:
            rad = std::pow(zeps(r2), power / 2);
            t = th - 1 + this->s(rad);
            return w * rad * cd(std::sin(t), std::cos(t));
        case 23: {
            rad = std::pow(zeps(r2), power / 2);
            const double mu = this->s(rad) - 1;
            return w * cd(x + mu * std::cos(th), y - mu * std::sin(th));
        }
        case 24: return w * cd(x, 2 * (this->s(x) - 1) - y);
        case 25: return w * cd(2 * (this->s(y) - 1) - x, 2 * (this->s(x) - 1) - y);
        default: return w * std::pow(lerp(r, this->s(th), smooth), power) * cd(std::sin(th), std::cos(th));
        }
    }
};

// A synth parameter list: a, mode, power, mix, smooth, then the five waves
// (amplitude, type, skew, frequency, phase, layer) drawn at random, some
// silent, whole-number parameters a little off their integers.
std::vector<float> random_synth(std::mt19937& gen, float mode, float smooth) {
    std::uniform_real_distribution<float> unit(0, 1);
    auto between = [&](float lo, float hi) { return lo + (hi - lo) * unit(gen); };
    std::vector<float> p = {between(-1, 1), mode, between(-2.5f, 2.5f), between(0, 1.5f), smooth};
    for (int k = 0; k < 5; ++k) {
        const float amp = unit(gen) < 0.3f ? 0 : between(-1, 1);
        const float type = std::floor(between(0, 9)) + between(-0.4f, 0.4f);
        const float skew = unit(gen) < 0.4f ? 0 : between(-0.9f, 0.9f);
        p.insert(p.end(), {amp, type, skew, between(0.5f, 4), between(-kPi, kPi), std::floor(between(0, 4))});
    }
    return p;
}

}  // namespace

TEST_CASE("synth: S(t), its waves, skews and layers, as shiftx reads it (x + S(y) − 1)") {
    std::mt19937 gen(1244);
    std::uniform_real_distribution<float> coord(-3, 3);
    fj::Rng rng = fj::make_rng(1244, 0);
    int wrong = 0, judged = 0;
    std::vector<int> types(9), layers(4);
    for (int set = 0; set < 300; ++set) {
        const std::vector<float> p = random_synth(gen, 9, 0);
        for (int k = 0; k < 5; ++k)
            if (p[5 + 6 * k] != 0) ++types[SynthRef::choice(p[6 + 6 * k], 8)], ++layers[SynthRef::choice(p[10 + 6 * k], 3)];
        for (int i = 0; i < 20; ++i) {
            const float x = coord(gen), y = coord(gen);
            SynthRef ref{p};
            fj::Rng replay = rng;
            const cd want = ref(x, y, 0.8, replay);
            if (ref.fragile) continue;
            wrong += !near(apply("synth", x, y, 0.8f, p, rng), want, 10);
            ++judged;
        }
    }
    CHECK(wrong == 0);
    CHECK(judged > 4000);
    for (int n : types) CHECK(n > 50);
    for (int n : layers) CHECK(n > 100);
    // Flat: every amplitude 0 leaves S = a·mix + 1 − mix.
    std::vector<float> flat(35, 0);
    flat[0] = 3, flat[1] = 9, flat[3] = 0.5f;
    CHECK(near(apply("synth", 0.25f, -1, 2, flat, rng), cd(2 * (0.25 + 2 - 1), -2)));
}

TEST_CASE("synth: the Bezier map bends x to m at 1, rejoins y = x at max(1/m, 2m), and is odd and continuous") {
    // rawx with S ≡ m (a = m, mix 1, no waves) and smooth 1: x goes to B(x, m).
    fj::Rng rng = fj::make_rng(1245, 0);
    auto bend = [&](float x, float m) {
        std::vector<float> p(35, 0);
        p[0] = m, p[1] = 6, p[3] = 1, p[4] = 1;
        return apply("synth", x, 0.5f, 1, p, rng).real();
    };
    int wrong = 0;
    for (float m : {0.1f, 0.3f, 0.5f, 0.7f, 0.9f, 1.2f, 2.0f, 3.5f, 7.0f}) {
        const double rejoin = std::max(1.0 / m, 2.0 * m);
        wrong += std::fabs(bend(1, m) - m) > 1e-5 * m;                                        // through (1, m)
        wrong += std::fabs(bend(float(rejoin) * 1.01f, m) - float(rejoin) * 1.01f) > 1e-5 * rejoin;  // y = x again
        wrong += std::fabs(bend(-0.6f, m) + bend(0.6f, m)) > 1e-6;                            // odd in x
        wrong += std::fabs(bend(0.6f, -m) + bend(0.6f, m)) > 1e-6;                            // odd in m
        // Continuous at 1 (where the third curve leaves like a square root)
        // and at the rejoin, and increasing in between.
        for (double at : {1.0, rejoin})
            wrong += std::fabs(bend(float(at * (1 + 1e-6)), m) - bend(float(at * (1 - 1e-6)), m)) > 5e-3 * at;
        double last = -1;
        for (int i = 0; i <= 400; ++i) {
            const double b = bend(float(rejoin * 1.2 * i / 400), m);
            wrong += b < last - 1e-6;
            last = b;
        }
    }
    CHECK(wrong == 0);
    // Against the map worked branch by branch, at random x and m.
    wrong = 0;
    std::mt19937 gen(1245);
    std::uniform_real_distribution<float> xs(-8, 8), ms(-5, 5);
    for (int i = 0; i < 5000; ++i) {
        const float x = xs(gen), m = i % 10 == 0 ? 0.5f * (i % 20 ? 1 : 4) : ms(gen);  // m = 0.5 and 2: the special cases
        wrong += !near(bend(x, m), SynthRef::bezier(x, m), 10);
    }
    CHECK(wrong == 0);
}

TEST_CASE("synth: every mode, smooth 0 and 1, against its definition; draws replayed") {
    std::mt19937 gen(1246);
    std::uniform_real_distribution<float> coord(-2, 2);
    fj::Rng rng = fj::make_rng(1246, 0);
    for (int mode = 0; mode <= 26; ++mode) {
        int wrong = 0, judged = 0, moved = 0;
        for (int set = 0; set < 40; ++set) {
            const std::vector<float> p = random_synth(gen, mode + (set % 3 - 1) * 0.3f, float(set % 2));
            for (int i = 0; i < 25; ++i) {
                const float x = coord(gen), y = coord(gen);
                if (std::fabs(x) < 1e-3 && y < 0) continue;  // atan2(x, y)'s cut
                SynthRef ref{p};
                fj::Rng replay = rng;
                const cd want = ref(x, y, -0.7, replay);
                const cd got = apply("synth", x, y, -0.7f, p, rng);
                moved += rng.state != replay.state;  // the snippet drew what the definition draws
                if (ref.fragile || !std::isfinite(want.real()) || !std::isfinite(want.imag()) ||
                    std::abs(want) > 1e4)
                    continue;
                wrong += !near(got, want, 50);
                ++judged;
            }
        }
        CHECK_MESSAGE(wrong == 0, "mode " << mode);
        CHECK_MESSAGE(judged > 400, "mode " << mode);
        CHECK_MESSAGE(moved == 0, "mode " << mode);
    }
}

TEST_CASE("synth: with S flat its modes are the classic variations") {
    // No waves, mix 0: S ≡ 1 and smooth 0 leaves the shapes synth rewrites.
    fj::Rng rng = fj::make_rng(1247, 0);
    std::mt19937 gen(1247);
    std::uniform_real_distribution<float> coord(-2, 2);
    auto flat = [](float mode, float power) {
        std::vector<float> p(35, 0);
        p[1] = mode, p[2] = power;
        return p;
    };
    const struct {
        const char* classic;
        float mode, power;
    } pairs[] = {{"spherical", 0, -2}, {"bubble", 1, 0},   {"hyperbolic", 14, 1}, {"disc", 16, 1},
                 {"sinusoidal", 12, 0}, {"swirl", 13, 2},  {"cylinder", 18, 0},   {"linear", 5, 0}};
    int wrong = 0;
    for (const auto& pair : pairs) {
        for (int i = 0; i < 500; ++i) {
            const float x = coord(gen), y = coord(gen);
            if (std::hypot(x, y) < 0.05) continue;
            const cd want = apply(pair.classic, x, y, 0.9f, {}, rng);
            const cd got = apply("synth", x, y, 0.9f, flat(pair.mode, pair.power), rng);
            const bool ok = near(got, want, 20);
            wrong += !ok;
            if (!ok) MESSAGE(pair.classic << " at " << x << ", " << y << ": " << got << " against " << want);
        }
    }
    CHECK(wrong == 0);
    // julia (mode 15, power 1): one of the two square roots, each often.
    int first = 0;
    for (int i = 0; i < 2000; ++i) {
        const float x = coord(gen), y = coord(gen);
        const cd got = apply("synth", x, y, 1, flat(15, 1), rng);
        const cd root = std::sqrt(std::hypot(double(x), double(y))) * std::polar(1.0, std::atan2(double(x), double(y)) / 2);
        const cd swapped(root.real(), root.imag());  // (r cos a, r sin a)
        wrong += !(near(got, swapped, 20) || near(got, -swapped, 20));
        first += near(got, swapped, 20);
    }
    CHECK(wrong == 0);
    CHECK(fj::test::frequency_ok(first, 2000, 0.5));
}
