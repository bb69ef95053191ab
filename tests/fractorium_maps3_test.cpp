// flamejit — a third batch of Fractorium's maps (polynomial, pow_block,
// shredrad, phoenix_julia, log_db, vibration2, xerf and the hypergon
// family x, y, w), against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double
// precision against its definition, written out here as Fractorium states
// it (its parameters stored as its setters store them, its precalculated
// values worked out from them), at random points and parameters. The
// random ones replay their draws from a copy of the stream, check that the
// stream moves on by exactly those draws, and check how often each outcome
// comes up. Points are skipped where a float input's rounding could decide
// a branch (a truncation's step, a comparison's tie) or where the formula
// magnifies float's rounding beyond the tolerance (a pole, a power with a
// large exponent, an angle's branch cut under a fractional power); each
// skip says which. For the hypergon family and vibration2, whose terms are
// too many to bound one by one, the definition itself is evaluated with
// each input moved by four float ulps, and a case is judged only where
// that moves the result by less than a quarter of the tolerance.
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
using fj::test::frequency_ok;
using fj::test::near;
const auto apply = &fj::test::host_variation;

const double kEps = FJ_FLT_EPSILON;

double zeps(double v) { return v != 0 ? v : kEps; }
double sign(double v) { return v < 0 ? -1 : v > 0 ? 1 : 0; }
double off_whole(double v) { return std::fabs(v - std::round(v)); }
bool same_place(const fj::Rng& a, const fj::Rng& b) { return a.state == b.state; }
bool finite(cd v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); }

struct Sampler {
    std::mt19937 gen;
    explicit Sampler(unsigned seed) : gen(seed) {}
    float uni(double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(gen)); }
    // A whole number in [lo, hi] half the time, else any value in it.
    float mixed(int lo, int hi) {
        return gen() % 2 ? float(lo + int(gen() % unsigned(hi - lo + 1))) : uni(lo, hi);
    }
};

// The definition as a function of the float inputs {x, y, w, p...}.
using Definition = std::function<cd(const std::vector<float>&)>;

// Whether moving any non-zero input by four float ulps moves the
// definition's value by less than a quarter of near()'s tolerance (with
// `slack`): elsewhere the rounding of the float inputs alone can move a
// float evaluation past the tolerance.
bool well_conditioned(const Definition& f, const std::vector<float>& in, double slack) {
    const cd at = f(in);
    if (!finite(at)) return false;
    const double allowed = 0.25 * 1e-5 * slack * std::max(1.0, std::abs(at));
    for (size_t i = 0; i < in.size(); ++i) {
        if (in[i] == 0) continue;
        for (float toward : {-INFINITY, INFINITY}) {
            std::vector<float> moved = in;
            for (int k = 0; k < 4; ++k) moved[i] = std::nextafter(moved[i], toward);
            const cd there = f(moved);
            if (!finite(there) || std::abs(there - at) > allowed) return false;
        }
    }
    return true;
}

std::vector<float> inputs(float x, float y, float w, const std::vector<float>& p) {
    std::vector<float> v = {x, y, w};
    v.insert(v.end(), p.begin(), p.end());
    return v;
}

// ---- the hypergon family's curves, as Fractorium defines and stores them

struct Curves {
    double hypergon, hn, hd, star, sn, tan_slope, lituus, la, super, m, n1, n2, n3;
};

// q: hypergon, hypergon_n, hypergon_r, star, star_n, star_slope, lituus,
// lituus_a, super, super_m, super_n1, super_n2, super_n3.
Curves stored_curves(const float* q) {
    Curves c;
    c.hypergon = q[0];
    c.hn = std::max(std::floor(double(q[1]) + 0.5), 3.0);  // a whole number, at least 3
    c.hd = std::sqrt(1 + double(q[2]) * q[2]);
    c.star = q[3];
    c.sn = std::max(std::floor(double(q[4]) + 0.5), 3.0);
    const double top = float(M_PI_2);  // Fractorium's bound, a float
    double slope = std::clamp<double>(q[5], kEps, top);
    if (std::fabs(slope - top) < 1e-6) slope -= 0.05;  // away from tan's pole
    c.tan_slope = std::tan(slope);
    c.lituus = q[6];
    c.la = q[7];
    c.super = q[8];
    c.m = q[9];
    c.n1 = q[10];
    c.n2 = q[11];
    c.n3 = q[12];
    return c;
}

// The sum of the curves' radii at angle a.
double curves_radius(const Curves& c, double a) {
    double total = 0;
    if (c.hypergon != 0) {
        const double t = std::fmod(std::fabs(a), 2 * M_PI / c.hn) - M_PI / c.hn;
        const double sec2 = std::pow(std::tan(t), 2) + 1;
        const double d2 = c.hd * c.hd;
        total += sec2 >= d2 ? c.hypergon : c.hypergon * (c.hd - std::sqrt(d2 - sec2)) / std::sqrt(sec2);
    }
    if (c.star != 0) {
        const double t = std::tan(std::fabs(std::fmod(std::fabs(a), 2 * M_PI / c.sn) - M_PI / c.sn));
        const double ts = c.tan_slope;
        total += c.star * std::sqrt(ts * ts * (1 + t * t) / ((t + ts) * (t + ts)));
    }
    if (c.lituus != 0) total += c.lituus * std::pow(std::fabs(a / M_PI + 1), -c.la);
    if (c.super != 0) {
        const double b = a * c.m / 4;
        total += c.super * std::pow(std::pow(std::fabs(std::cos(b)), c.n2) + std::pow(std::fabs(std::sin(b)), c.n3),
                                    -1 / zeps(c.n1));
    }
    return total;
}

// Random curve parameters: each curve on about two times in three, with
// whole and fractional counts, slopes past both ends of their range, and
// the superformula's n1 kept from 0 (−1/n1 is its exponent).
std::vector<float> random_curves(Sampler& s) {
    auto amp = [&] { return s.gen() % 3 ? s.uni(-2, 2) : 0.0f; };
    return {amp(),           s.mixed(1, 9),   s.uni(-2, 2),
            amp(),           s.mixed(1, 9),   s.gen() % 5 ? s.uni(0.1, 1.5) : s.uni(-1, 3),
            amp(),           s.uni(-2, 2),    amp(),
            s.mixed(-6, 6),  s.uni(0.4, 3) * (s.gen() % 4 ? 1 : -1), s.uni(-2, 3), s.uni(-2, 3)};
}

// Where a float angle near −π cannot be judged: the lituus's base
// |a/π + 1| is then a small difference that float's angle rounds away.
bool lituus_near_pole(const float* q, double a) { return q[6] != 0 && std::fabs(a / M_PI + 1) < 0.05; }

}  // namespace

TEST_CASE("fractorium maps3: polynomial is sign(v)·(|w|·|v|)^pow + lc·v + sc in each coordinate") {
    Sampler s(401);
    fj::Rng rng = fj::make_rng(401, 0);
    int wrong = 0, checked = 0, zero_axis = 0;
    for (int i = 0; i < 30000; ++i) {
        const double range = i % 3 == 0 ? 0.05 : i % 3 == 1 ? 20 : 2;
        float fx = s.uni(-range, range), fy = s.uni(-range, range);
        if (i % 10 == 0) (i % 20 ? fx : fy) = 0;
        const float w = s.uni(-2, 2) * (i % 50 == 0 ? 0 : 1);
        const std::vector<float> p = {s.mixed(-3, 3), s.mixed(-3, 3), s.uni(-2, 2), s.uni(-2, 2), s.uni(-2, 2),
                                      s.uni(-2, 2)};
        auto term = [&](double v, double pw, double lc, double sc) {
            // The sign's 0 where the coordinate is 0 (Fractorium's 0·∞ for a negative power).
            const double power = v == 0 ? 0 : sign(v) * std::pow(std::fabs(double(w)) * std::fabs(v), pw);
            return power + lc * v + sc;
        };
        const cd want(term(fx, p[0], p[2], p[4]), term(fy, p[1], p[3], p[5]));
        // Past float's range (a negative power of a tiny coordinate).
        if (!finite(want) || std::abs(want) > 1e30) continue;
        wrong += !near(apply("polynomial", fx, fy, w, p, rng), want, 4);
        ++checked;
        zero_axis += fx == 0 || fy == 0;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(zero_axis > 2000);
    // The defaults with weight 1 are linear; the weight's sign does not
    // count, and it does not scale lc and sc.
    CHECK(near(apply("polynomial", 0.3f, -1.7f, 1, {1, 1, 0, 0, 0, 0}, rng), cd(0.3f, -1.7f)));
    CHECK(near(apply("polynomial", 0.3f, -1.7f, -2, {1, 2, 1, 0.5f, 3, -1}, rng),
               cd(2 * 0.3f + 0.3f + 3, -std::pow(2 * 1.7f, 2) + 0.5 * -1.7f - 1)));
    // A zero coordinate under a negative power: its line only, not NaN.
    CHECK(apply("polynomial", 0, 0, 1, {-1, -2, 1, 1, 0.5f, -0.5f}, rng) == cd(0.5, -0.5));
}

TEST_CASE("fractorium maps3: pow_block takes the rational power at the replayed branch") {
    Sampler s(402);
    fj::Rng rng = fj::make_rng(402, 0);
    int wrong = 0, checked = 0, turned = 0;
    for (int i = 0; i < 30000; ++i) {
        const float fx = s.uni(-3, 3), fy = s.uni(-3, 3), w = s.uni(-2, 2);
        const std::vector<float> p = {s.mixed(-4, 4), s.mixed(-5, 5), s.mixed(-2, 2), s.uni(-2, 2),
                                      s.uni(-2, 2) * (i % 20 ? 1 : 0)};
        fj::Rng replay = rng;
        const double u = fj::rand01(replay);
        const cd got = apply("pow_block", fx, fy, w, p, rng);
        wrong += !same_place(rng, replay);
        const double num = p[0], den = p[1], x = fx, y = fy;
        // correctd 0: the power 0 (Fractorium's num/∞).
        const double power = p[4] == 0 ? 0 : num / zeps(den * p[3] * (1 / double(p[4])));
        const double k = std::floor(u * den), r2 = x * x + y * y, phi = std::atan2(y, x);
        // The floor's step; the branch cut of the angle, which a fractional
        // num/den carries into the result; a zero divisor (through float
        // epsilon: angles of 10^7 radians); a large power of the radius,
        // which magnifies its rounding.
        if ((off_whole(u * den) != 0 && off_whole(u * den) < 1e-5 * (1 + std::fabs(u * den))) ||
            (x < 0 && std::fabs(y) < 1e-4 * std::fabs(x)) || std::fabs(den) < 0.5 ||
            std::fabs(0.5 * power * std::log(r2)) > 20 || std::fabs(power) > 100 || r2 < 1e-6)
            continue;
        const double a = (phi / den + p[2] * 2 * M_PI * k / den) * num;
        wrong += !near(got, double(w) * std::pow(r2, power / 2) * std::polar(1.0, a), 10);
        ++checked;
        turned += k != 0 && p[2] != 0;
    }
    CHECK(wrong == 0);
    CHECK(checked > 20000);
    CHECK(turned > 5000);
    // The defaults (3/2, root 1): both square-root branches of z³, each half the time.
    const cd z(0.6, -0.8);
    int first = 0, other = 0;
    const int n = 8000;
    for (int i = 0; i < n; ++i) {
        const cd got = apply("pow_block", 0.6f, -0.8f, 1, {3, 2, 1, 1, 1}, rng);
        const cd root = std::polar(1.0, 1.5 * std::arg(z));
        first += near(got, root);
        other += near(got, -root);
    }
    CHECK(first + other == n);
    CHECK(frequency_ok(first, n, 0.5));
    // correctd 0 with correctn 0 (NaN in Fractorium): the power 0, so the
    // radius is the weight (off the unit circle, where NaN powers give 1).
    const cd got = apply("pow_block", 0.3f, -0.4f, 2, {1, 1, 0, 0, 0}, rng);
    CHECK(near(got, 2.0 * std::polar(1.0, std::atan2(-0.4, 0.3))));
}

TEST_CASE("fractorium maps3: shredrad squeezes each sector towards its centre line by width") {
    Sampler s(403);
    fj::Rng rng = fj::make_rng(403, 0);
    int wrong = 0, checked = 0, negative = 0, held = 0;
    for (int i = 0; i < 30000; ++i) {
        const float fx = s.uni(-3, 3), fy = s.uni(-3, 3), w = s.uni(-2, 2);
        const std::vector<float> p = {s.mixed(-12, 12), s.uni(-1.5, 1.5)};
        double n = p[0];
        if (std::fabs(n) < 1e-6) n = n < 0 ? -kEps : kEps;  // non-zero, as Fractorium stores it
        const double width = std::clamp<double>(p[1], -1, 1), x = fx, y = fy;
        const double phi = std::atan2(y, x), alpha = 2 * M_PI / n;
        const double xang = (phi + 3 * M_PI + alpha / 2) / alpha;
        // The truncation's step (between sectors), and for a fractional n the
        // branch cut of the angle, where the sectors do not meet up.
        if (off_whole(xang) < 1e-5 * (1 + std::fabs(xang)) ||
            (off_whole(n) != 0 && x < 0 && std::fabs(y) < 1e-4 * std::fabs(x)))
            continue;
        // Fractorium's form of the angle.
        const double k = std::trunc(xang);
        const double zang = ((xang - k) * width + k) * alpha - M_PI - alpha / 2 * width;
        wrong += !near(apply("shredrad", fx, fy, w, p, rng), double(w) * std::hypot(x, y) * std::polar(1.0, zang), 4);
        ++checked;
        negative += n < 0;
        held += std::fabs(p[1]) > 1;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(negative > 10000);
    CHECK(held > 5000);
    // Width 0 puts every point of a sector on its centre line, at angles
    // k·2π/n − π; width 1 is linear.
    for (int i = 0; i < 200; ++i) {
        const float fx = s.uni(-3, 3), fy = s.uni(-3, 3);
        const cd got = apply("shredrad", fx, fy, 1, {6, 0}, rng);
        CHECK(off_whole((std::arg(got) + M_PI) / (M_PI / 3)) < 1e-5);
        CHECK(std::fabs(std::abs(got) - std::hypot(fx, fy)) < 1e-5);
        CHECK(near(apply("shredrad", fx, fy, 1, {6, 1}, rng), cd(fx, fy)));
    }
    // n 0 (float epsilon) is one sector: the angle width·(angle + 3π) − π,
    // where Fractorium's form cancels away its digits in float.
    for (float n : {0.0f, 5e-7f, -5e-7f}) {
        const double a = std::atan2(-1.2, 0.5);
        const cd want = 1.3 * std::polar(1.0, 0.3 * (a + 3 * M_PI) - M_PI);
        CHECK(near(apply("shredrad", 0.5f, -1.2f, 1, {n, 0.3f}, rng), want));
    }
}

TEST_CASE("fractorium maps3: phoenix_julia is the distorted point's julia at the replayed root") {
    Sampler s(404);
    fj::Rng rng = fj::make_rng(404, 0);
    int wrong = 0, checked = 0, distorted = 0;
    for (int i = 0; i < 30000; ++i) {
        const float fx = s.uni(-3, 3), fy = s.uni(-3, 3), w = s.uni(-2, 2);
        const float power = s.mixed(1, 8) * (i % 3 ? 1 : -1);
        const std::vector<float> p = {power, s.uni(-2, 2), s.uni(-2, 1), i % 2 ? s.uni(-2, 1) : 0.0f};
        fj::Rng replay = rng;
        const double u = fj::rand01(replay);
        const cd got = apply("phoenix_julia", fx, fy, w, p, rng);
        wrong += !same_place(rng, replay);
        const double x = fx, y = fy, px = x * (p[2] + 1.0), py = y * (p[3] + 1.0), r2 = x * x + y * y;
        const double inv = p[1] / double(power), k = std::trunc(u * power);
        // The truncation's step (a product that is whole is exact in float
        // too); the branch cut of the distorted point's angle and its
        // origin; a large power of the radius.
        if ((off_whole(u * power) != 0 && off_whole(u * power) < 1e-5 * (1 + std::fabs(u * power))) ||
            (px < 0 && std::fabs(py) < 1e-4 * std::fabs(px)) || std::hypot(px, py) < 1e-4 ||
            std::fabs(0.5 * inv * std::log(r2)) > 20)
            continue;
        const double a = std::atan2(py, px) * inv + k * 2 * M_PI / power;
        wrong += !near(got, double(w) * std::pow(r2, inv / 2) * std::polar(1.0, a), 8);
        ++checked;
        distorted += p[2] != 0 && p[3] != 0;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(distorted > 10000);
    // Power 3, dist 1, no distortion: the three cube roots, each a third of the time.
    const cd z(-0.6, 0.8);
    int count[3] = {0, 0, 0}, none = 0;
    const int n = 9000;
    for (int i = 0; i < n; ++i) {
        const cd got = apply("phoenix_julia", -0.6f, 0.8f, 1, {3, 1, 0, 0}, rng);
        int which = -1;
        for (int k = 0; k < 3; ++k)
            if (near(got, std::polar(1.0, (std::arg(z) + 2 * M_PI * k) / 3))) which = k;
        if (which < 0) ++none;
        else ++count[which];
    }
    CHECK(none == 0);
    for (int c : count) CHECK(frequency_ok(c, n, 1.0 / 3));
    // Power 0 with dist 0: the exponent 0/ε is 0, so the point lands at (w, 0).
    CHECK(near(apply("phoenix_julia", 0.3f, 0.4f, 1.5f, {0, 0, -0.5f, 0}, rng), cd(1.5, 0)));
}

TEST_CASE("fractorium maps3: log_db is the logarithm on the branch of seven replayed draws") {
    Sampler s(405);
    fj::Rng rng = fj::make_rng(405, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 30000; ++i) {
        const float fx = s.uni(-4, 4), fy = s.uni(-4, 4), w = s.uni(-2, 2);
        const std::vector<float> p = {i % 5 ? s.uni(0.01, 5) : s.uni(-1, 0.01),
                                      i % 5 ? s.uni(0.01, 3) : s.uni(-1, 0.01)};
        // Each draw: Fractorium's Rand(10), ⌊u32·10 / 2^32⌋, less 5, dropped unless within 2 of 0.
        fj::Rng replay = rng;
        int m = 0;
        for (int k = 0; k < 7; ++k) {
            const int d = int((double(fj::next_u32(replay)) * 10) / 4294967296.0) - 5;
            if (std::abs(d) < 3) m += d;
        }
        const cd got = apply("log_db", fx, fy, w, p, rng);
        wrong += !same_place(rng, replay);
        const double x = fx, y = fy;
        const double scale = p[0] > kEps ? 1 / std::log(M_E * p[0]) : 1;
        const double period = p[1] > kEps ? M_PI * p[1] : M_PI;
        // ln(e·base) near 0 (base near 1/e), and the angle's branch cut,
        // where the float angle may fall on the other side.
        if (std::fabs(std::log(M_E * p[0])) < 0.02 || (x < 0 && std::fabs(y) < 1e-5 * std::fabs(x))) continue;
        const cd want = double(w) * cd(0.5 * scale * std::log(x * x + y * y), std::atan2(y, x) + period * m);
        wrong += !near(got, want, 4);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    // The branch number's distribution: seven independent draws of −2..2 with
    // probabilities 1, 1, 6, 1, 1 in 10, convolved.
    std::vector<double> dist = {1};
    for (int k = 0; k < 7; ++k) {
        std::vector<double> next(dist.size() + 4, 0);
        for (size_t j = 0; j < dist.size(); ++j)
            for (int d = -2; d <= 2; ++d) next[j + 2 + d] += dist[j] * (d == 0 ? 0.6 : 0.1);
        dist = next;
    }
    const int n = 20000;
    std::vector<int> seen(dist.size(), 0);
    int odd = 0;
    for (int i = 0; i < n; ++i) {
        const cd got = apply("log_db", -0.6f, 0.8f, 1, {1, 1}, rng);
        const double branch = (got.imag() - std::atan2(0.8, -0.6)) / M_PI;
        if (off_whole(branch) > 1e-4 || std::fabs(branch) > 14) {
            ++odd;
            continue;
        }
        ++seen[size_t(std::lround(branch) + 14)];
    }
    CHECK(odd == 0);
    for (size_t j = 0; j < dist.size(); ++j) CHECK_MESSAGE(frequency_ok(seen[j], n, dist[j]), "branch " << int(j) - 14);
    // base 1/e: ln(e·base) is 0 (Fractorium's x is infinite); through float epsilon here, finite.
    CHECK(finite(apply("log_db", 0.6f, 0.8f, 1, {float(1 / M_E), 1}, rng)));
}

TEST_CASE("fractorium maps3: vibration2 adds its two modulated waves") {
    Sampler s(406);
    fj::Rng rng = fj::make_rng(406, 0);
    auto wave = [](double x, double y, const float* q, const float* m, double& ox, double& oy) {
        auto modulate = [](double amp, double freq, double v) { return amp * std::cos(v * freq * 2 * M_PI); };
        const double d0 = x * std::cos(q[0]) + y * std::sin(q[0]);
        const double dir = q[0] + modulate(m[0], m[1], d0), angle = q[1] + modulate(m[2], m[3], d0);
        const double shift = modulate(m[4], m[5], d0) / zeps(q[2]);
        const double amp = q[3] + q[3] * modulate(m[6], m[7], d0);
        const double d = x * std::cos(dir) + y * std::sin(dir);
        const double local = amp * std::sin(d * q[2] * 2 * M_PI + shift + 2 * M_PI * q[4] / zeps(q[2]));
        ox += local * std::cos(angle + dir);
        oy += local * std::sin(angle + dir);
    };
    const Definition f = [&](const std::vector<float>& v) {
        double x = v[0], y = v[1];
        const float* p = v.data() + 3;
        wave(v[0], v[1], p, p + 10, x, y);
        wave(v[0], v[1], p + 5, p + 18, x, y);
        return double(v[2]) * cd(x, y);
    };
    int wrong = 0, checked = 0;
    for (int i = 0; i < 20000; ++i) {
        const float fx = s.uni(-3, 3), fy = s.uni(-3, 3), w = s.uni(-2, 2);
        std::vector<float> p(26);
        for (int k : {0, 5}) {
            p[k] = s.uni(-4, 4);
            p[k + 1] = s.uni(-4, 4);
            p[k + 2] = s.uni(0.2, 2) * (s.gen() % 2 ? 1 : -1);
            p[k + 3] = s.uni(-1, 1);
            p[k + 4] = s.uni(-1, 1);
        }
        for (int k = 10; k < 26; ++k) p[k] = s.gen() % 4 ? s.uni(-1, 1) : 0.0f;
        const std::vector<float> in = inputs(fx, fy, w, p);
        if (!well_conditioned(f, in, 10)) continue;
        wrong += !near(apply("vibration2", fx, fy, w, p, rng), f(in), 10);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 10000);
    // Without modulation, and with angles and phases inside the ranges
    // vibration wraps into, it is vibration.
    int differ = 0;
    for (int i = 0; i < 2000; ++i) {
        const float fx = s.uni(-3, 3), fy = s.uni(-3, 3);
        std::vector<float> p(26, 0.0f);
        for (int k : {0, 5}) {
            p[k] = s.uni(0, 6.28);
            p[k + 1] = s.uni(0, 6.28);
            p[k + 2] = s.uni(0.2, 2);
            p[k + 3] = s.uni(-1, 1);
            p[k + 4] = s.uni(0, 1);
        }
        const std::vector<float> first(p.begin(), p.begin() + 10);
        differ += !near(apply("vibration2", fx, fy, 0.8f, p, rng), apply("vibration", fx, fy, 0.8f, first, rng), 4);
    }
    CHECK(differ == 0);
}

TEST_CASE("fractorium maps3: xerf is erf within 2 of the axes and v/r² beyond") {
    Sampler s(407);
    fj::Rng rng = fj::make_rng(407, 0);
    int wrong = 0, inverted = 0, mixed = 0;
    for (int i = 0; i < 30000; ++i) {
        const double range = i % 2 ? 4 : 50;
        float fx = s.uni(-range, range), fy = s.uni(-range, range);
        if (i % 10 == 0) fx = i % 20 ? 2.0f : -2.0f;  // the comparison's own edge is exact
        const float w = s.uni(-2, 2);
        const double x = fx, y = fy, r2 = x * x + y * y;
        const cd want =
            double(w) * cd(std::fabs(x) >= 2 ? x / r2 : std::erf(x), std::fabs(y) >= 2 ? y / r2 : std::erf(y));
        wrong += !near(apply("xerf", fx, fy, w, {}, rng), want, 2);
        inverted += std::fabs(x) >= 2 && std::fabs(y) >= 2;
        mixed += (std::fabs(x) >= 2) != (std::fabs(y) >= 2);
    }
    CHECK(wrong == 0);
    CHECK(inverted > 5000);
    CHECK(mixed > 5000);
}

TEST_CASE("fractorium maps3: x pushes the point out by its curves, y inverts it in them") {
    Sampler s(408);
    fj::Rng rng = fj::make_rng(408, 0);
    const Definition fx_def = [](const std::vector<float>& v) {
        const double x = v[0], y = v[1], a = std::atan2(y, x), total = curves_radius(stored_curves(&v[3]), a);
        return double(v[2]) * std::sqrt(x * x + y * y + total * total) * std::polar(1.0, a);
    };
    const Definition fy_def = [](const std::vector<float>& v) {
        const double x = v[0], y = v[1], a = std::atan2(y, x), total = curves_radius(stored_curves(&v[3]), a);
        return total == 0 ? cd(0, 0) : double(v[2]) * total * total / std::hypot(x, y) * std::polar(1.0, a);
    };
    int wrong = 0, checked = 0, curves[4] = {0, 0, 0, 0}, clamped = 0;
    for (int i = 0; i < 30000; ++i) {
        const float px = s.uni(-3, 3), py = s.uni(-3, 3), w = s.uni(-2, 2);
        const std::vector<float> p = random_curves(s);
        const std::vector<float> in = inputs(px, py, w, p);
        if (lituus_near_pole(p.data(), std::atan2(py, px))) continue;
        bool judged = false;
        if (well_conditioned(fx_def, in, 10)) {
            wrong += !near(apply("x", px, py, w, p, rng), fx_def(in), 10);
            judged = true;
        }
        if (std::hypot(px, py) > 1e-2 && well_conditioned(fy_def, in, 10)) {
            wrong += !near(apply("y", px, py, w, p, rng), fy_def(in), 10);
            judged = true;
        }
        if (!judged) continue;
        ++checked;
        for (int k = 0; k < 4; ++k) curves[k] += p[size_t(k < 3 ? 3 * k : 8)] != 0;
        clamped += p[1] < 2.5f || p[5] > float(M_PI_2);
    }
    CHECK(wrong == 0);
    CHECK(checked > 20000);
    for (int c : curves) CHECK(c > 10000);
    CHECK(clamped > 3000);
}

TEST_CASE("fractorium maps3: each of the hypergon family's curves has its shape") {
    fj::Rng rng = fj::make_rng(409, 0);
    // y with weight 1 maps the unit circle onto the curve's radius squared:
    // the curve's point at angle a (for a positive radius).
    auto curve = [&](const std::vector<float>& p, double a) {
        const cd got = apply("y", float(std::cos(a)), float(std::sin(a)), 1, p, rng);
        return std::sqrt(std::abs(got)) * std::polar(1.0, std::arg(got));
    };
    auto with = [](std::vector<std::pair<int, float>> set) {
        std::vector<float> p = {0, 4, 1, 0, 5, 2, 0, 1, 0, 1, 1, 1, 1};
        for (auto [k, v] : set) p[size_t(k)] = v;
        return p;
    };
    // hypergon n 4, r 0.5: around the side's middle at π/4 the arc of the
    // circle of radius 0.5 about the point at distance √1.25 there (it
    // meets the unit circle at right angles); where the ray misses it, 1.
    const std::vector<float> hyper = with({{0, 1}, {1, 4}, {2, 0.5f}});
    const cd centre = std::polar(std::sqrt(1.25), M_PI / 4);
    int on_arc = 0, on_circle = 0, off = 0;
    for (double a = 0.01; a < M_PI / 2; a += 0.01) {
        const cd at = curve(hyper, a);
        if (std::fabs(std::cos(a - M_PI / 4) - 1 / std::sqrt(1.25)) < 1e-3) continue;  // the arc's end
        if (std::cos(a - M_PI / 4) > 1 / std::sqrt(1.25)) {
            off += std::fabs(std::abs(at - centre) - 0.5) > 1e-5;
            ++on_arc;
        } else {
            off += std::fabs(std::abs(at) - 1) > 1e-5;
            ++on_circle;
        }
    }
    CHECK(off == 0);
    CHECK(on_arc > 40);
    CHECK(on_circle > 40);
    // star n 4, slope 0.6: from its point at angle π/4 (radius 1) a straight
    // edge leaves at 0.6 radians to the ray back to the origin.
    const std::vector<float> star = with({{3, 1}, {4, 4}, {5, 0.6f}});
    const cd tip = std::polar(1.0, M_PI / 4);
    CHECK(std::fabs(std::abs(curve(star, M_PI / 4)) - 1) < 1e-5);
    int bent = 0;
    for (double a = M_PI / 4 + 0.01; a < M_PI / 2; a += 0.01) {
        const cd edge = curve(star, a) - tip;
        bent += std::fabs(std::fabs(std::arg(edge / -tip)) - 0.6f) > 1e-4;
    }
    CHECK(bent == 0);
    // The slope is held to π/2 and then taken 0.05 less: 2 and π/2 give the same star.
    CHECK(near(curve(with({{3, 1}, {5, 2}}), 0.3), curve(with({{3, 1}, {5, float(M_PI_2) - 0.05f}}), 0.3)));
    // lituus: its amplitude times |a/π + 1|^−lituus_a, 2·1.5^−3 at angle π/2.
    CHECK(std::fabs(std::abs(curve(with({{6, 2}, {7, 3}}), M_PI / 2)) - 2 * std::pow(1.5, -3)) < 1e-5);
    // superformula m 4, n1 2, n2 n3 2: (cos² + sin²)^(−1/2) = 1 everywhere.
    CHECK(std::fabs(std::abs(curve(with({{8, 1.5f}, {9, 4}, {10, 2}, {11, 2}, {12, 2}}), 0.7)) - 1.5) < 1e-5);
    // n1 0 divides through float epsilon: where the sum is exactly 1 (m 0:
    // cos 0 and sin 0) the radius is still 1.
    CHECK(std::fabs(std::abs(curve(with({{8, 1}, {9, 0}, {10, 0}, {11, 2}, {12, 2}}), 0.7)) - 1) < 1e-5);
    // With the default amplitudes (all 0) x is linear, and y gives 0, also
    // at the origin (NaN in Fractorium).
    const std::vector<float> none = with({});
    CHECK(near(apply("x", 0.3f, -0.4f, 2, none, rng), cd(0.6, -0.8)));
    CHECK(apply("y", 0.3f, -0.4f, 2, none, rng) == cd(0, 0));
    CHECK(apply("y", 0, 0, 2, none, rng) == cd(0, 0));
    // x at the origin lands on the curve itself, at angle 0: the lituus's 1 there.
    CHECK(near(apply("x", 0, 0, 1, with({{6, 0.7f}, {7, 3}}), rng), cd(0.7, 0)));
    // A count below 3 is 3: a hypergon of n 1 is the triangle's.
    int differ = 0;
    for (double a = -3; a < 3; a += 0.1)
        differ += curve(with({{0, 1}, {1, 3}}), a) != curve(with({{0, 1}, {1, 1.2f}}), a);
    CHECK(differ == 0);
}

TEST_CASE("fractorium maps3: w turns the points inside its curves and rescales them to the turned curve") {
    Sampler s(410);
    fj::Rng rng = fj::make_rng(410, 0);
    const Definition f = [](const std::vector<float>& v) {
        const double x = v[0], y = v[1], r = std::hypot(x, y), a = std::atan2(y, x);
        // angle is cyclic in [−π, π], as Fractorium stores it.
        double turn = v[3];
        if (turn > M_PI) turn = -M_PI + std::fmod(turn + M_PI, 2 * M_PI);
        if (turn < -M_PI) turn = M_PI - std::fmod(M_PI - turn, 2 * M_PI);
        double a2 = a + turn;
        if (a2 < -M_PI) a2 += 2 * M_PI;
        if (a2 > M_PI) a2 -= 2 * M_PI;
        const Curves c = stored_curves(&v[4]);
        const double total = curves_radius(c, a);
        // The origin when the curves sum to 0 there: it stays (0/0 in Fractorium).
        if (r <= total && total != 0) return double(v[2]) * curves_radius(c, a2) * r / total * std::polar(1.0, a2);
        return double(v[2]) * cd(x, y);
    };
    int wrong = 0, checked = 0, inside = 0, outside = 0;
    for (int i = 0; i < 30000; ++i) {
        const float px = s.uni(-2.5, 2.5), py = s.uni(-2.5, 2.5), w = s.uni(-2, 2);
        std::vector<float> p = random_curves(s);
        p.insert(p.begin(), s.uni(-8, 8));
        const std::vector<float> in = inputs(px, py, w, p);
        const double a = std::atan2(py, px), turned = std::remainder(a + double(p[0]), 2 * M_PI);
        // The lituus's pole at the angle or the turned angle, and the turned
        // angle's wrap, where float may turn it to the other end of [−π, π].
        if (lituus_near_pole(p.data() + 1, a) || lituus_near_pole(p.data() + 1, turned) ||
            std::fabs(std::fabs(turned) - M_PI) < 1e-4)
            continue;
        if (!well_conditioned(f, in, 10)) continue;
        const cd want = f(in);
        wrong += !near(apply("w", px, py, w, p, rng), want, 10);
        ++checked;
        (near(want, double(w) * cd(px, py)) ? outside : inside)++;
    }
    CHECK(wrong == 0);
    CHECK(checked > 20000);
    CHECK(inside > 3000);
    CHECK(outside > 3000);
    // A quarter turn of a square hypergon inside it maps it onto itself:
    // the point keeps its depth and turns by π/2.
    const std::vector<float> square = {float(M_PI_2), 1, 4, 1, 0, 5, 2, 0, 1, 0, 1, 1, 1, 1};
    for (int i = 0; i < 200; ++i) {
        const double a = s.uni(-3.1, 3.1), r = s.uni(0, 0.4);
        const float px = float(r * std::cos(a)), py = float(r * std::sin(a));
        CHECK(near(apply("w", px, py, 1, square, rng), cd(px, py) * cd(0, 1), 4));
    }
    // The defaults (no curves): linear, and the origin stays.
    std::vector<float> none(square);
    none[0] = 0;
    none[1] = 0;
    CHECK(near(apply("w", 0.3f, -0.4f, 2, none, rng), cd(0.6, -0.8)));
    CHECK(apply("w", 0, 0, 2, none, rng) == cd(0, 0));
}
