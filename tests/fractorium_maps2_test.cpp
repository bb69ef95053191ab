// flamejit — more of Fractorium's maps (SplitBrdr, GlynnSim4, GlynnSim5,
// Spirograph, henon, lozi, MobiusN, Juliac, d_spherical, bisplit), against
// what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double precision
// against its definition: the complex ones through std::complex, the random
// ones by replaying their draws from a copy of the stream (and checking the
// stream moves on by exactly those draws), the roots of Juliac also by which
// root each result is and how often each comes up. Points where a float
// input's rounding is amplified past the tolerance (branch edges, poles,
// branch cuts) are skipped, each with its reason.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "test_support.h"

namespace {

using cd = std::complex<double>;
using fj::test::near;
using fj::test::frequency_ok;
const auto apply = &fj::test::host_variation;

bool same_place(const fj::Rng& a, const fj::Rng& b) { return a.state == b.state; }

double clamp01(double v) { return std::min(std::max(v, 0.0), 1.0); }

}  // namespace

TEST_CASE("fractorium maps2: SplitBrdr is bubble plus halved grid cells, pushed three times in four") {
    std::mt19937 gen(81);
    std::uniform_real_distribution<float> coord(-4, 4), par(-1, 1);
    fj::Rng rng = fj::make_rng(81, 0);
    int wrong = 0, pushed = 0, checked = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), px = par(gen), py = par(gen), sx = par(gen), sy = par(gen);
        const double w = 0.7;
        // Nearest whole numbers, ties to even.
        const double rx = std::nearbyint(x), ry = std::nearbyint(y), dx = x - rx, dy = y - ry;
        fj::Rng replay = rng;
        const double u = fj::rand01(replay);
        const cd got = apply("SplitBrdr", x, y, float(w), {sx, sy, px, py}, rng);
        wrong += !same_place(rng, replay);
        // Skip the side chosen by |dx| against |dy| at the diagonal, tiny
        // offsets (the slope dy/dx is then ill-conditioned) and ties in the
        // rounding.
        if (std::fabs(std::fabs(dx) - std::fabs(dy)) < 1e-4 || std::max(std::fabs(dx), std::fabs(dy)) < 1e-2 ||
            std::fabs(std::fabs(dx) - 0.5) < 1e-5 || std::fabs(std::fabs(dy) - 0.5) < 1e-5)
            continue;
        double cx = dx / 2 + rx, cy = dy / 2 + ry;
        if (u < 0.75) {
            ++pushed;
            if (std::fabs(dx) > std::fabs(dy)) {
                // Across the right side by x, the left by y; sideways by y·slope.
                cx += dx >= 0 ? sx : -sy;
                cy += (dx >= 0 ? sy : -sy) * dy / dx;
            } else {
                // Across the top and bottom by y; sideways by y·slope at the
                // top, by x·slope at the bottom.
                cy += dy >= 0 ? sy : -sy;
                cx += (dy >= 0 ? sy : -sx) * dx / dy;
            }
        }
        const double b = w / ((double(x) * x + double(y) * y) / 4 + 1);
        wrong += !near(got, b * cd(x, y) + w * cd(cx, cy) + cd(px * double(x), py * double(y)), 10);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 8000);
    CHECK(frequency_ok(pushed, checked, 0.75));
}

TEST_CASE("fractorium maps2: GlynnSim4 and GlynnSim5 collapse their circle and scale the outside at the replayed draw") {
    std::mt19937 gen(82);
    std::uniform_real_distribution<float> coord(-3, 3), radius(-0.5f, 2), contrast(-0.5f, 1.5f), power(-2, 3);
    fj::Rng rng = fj::make_rng(82, 0);
    int wrong = 0, inside = 0, scaled = 0, kept = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), R = radius(gen), c = contrast(gen), pw = power(gen);
        const float X = coord(gen), Y = coord(gen), th = radius(gen) / 4, w = 0.9f;
        const cd z(x, y);
        const double r = std::abs(z), alpha = std::fabs(R / r);
        // GlynnSim4: inside the circle every point goes to (X, Y); outside
        // it is scaled by alpha² with probability clamp(contrast)·alpha^pow.
        if (std::fabs(r - R) > 1e-5) {
            fj::Rng replay = rng;
            const cd got = apply("GlynnSim4", x, y, w, {R, c, pw, X, Y}, rng);
            cd want;
            bool edge = false;
            if (r < R) {
                want = cd(X, Y);
                ++inside;
            } else {
                const double u = fj::rand01(replay), p = clamp01(c) * std::pow(alpha, double(pw));
                edge = std::fabs(u - p) < 1e-5;
                want = u > p ? z : alpha * alpha * z;
                (u > p ? kept : scaled)++;
            }
            wrong += !same_place(rng, replay);
            if (!edge) wrong += !near(got, double(w) * want, 10);
        }
        // GlynnSim5: inside radius + thickness, 0; outside kept, or at the
        // probability above put at (alpha², alpha²) on the diagonal.
        if (std::fabs(r - (R + th)) > 1e-5) {
            fj::Rng replay = rng;
            const cd got = apply("GlynnSim5", x, y, w, {R, th, c, pw}, rng);
            cd want = 0;
            bool edge = false;
            if (r >= R + th) {
                const double u = fj::rand01(replay), p = clamp01(c) * std::pow(alpha, double(pw));
                edge = std::fabs(u - p) < 1e-5;
                want = u > p ? z : cd(alpha * alpha, alpha * alpha);
            }
            wrong += !same_place(rng, replay);
            if (!edge) wrong += !near(got, double(w) * want, 10);
        }
    }
    CHECK(wrong == 0);
    CHECK(inside > 500);
    CHECK(scaled > 500);
    CHECK(kept > 500);
    // At r = 2, radius 1, pow 1, contrast 0.5: scaled with probability 1/4.
    const int n = 20000;
    int s4 = 0, s5 = 0;
    for (int i = 0; i < n; ++i) {
        s4 += near(apply("GlynnSim4", 2, 0, 1, {1, 0.5f, 1, 0, 0}, rng), cd(0.5, 0));
        s5 += near(apply("GlynnSim5", 2, 0, 1, {1, 0.1f, 0.5f, 1}, rng), cd(0.25, 0.25));
    }
    CHECK(frequency_ok(s4, n, 0.25));
    CHECK(frequency_ok(s5, n, 0.25));
}

TEST_CASE("fractorium maps2: Spirograph draws its curve at the replayed t plus the diagonal smear") {
    std::mt19937 gen(83);
    std::uniform_real_distribution<float> par(-3, 3);
    fj::Rng rng = fj::make_rng(83, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        std::vector<float> p(9);
        for (float& v : p) v = par(gen);
        if (std::fabs(p[1]) < 0.2f) continue;  // (a+b)/b·t grows without bound as b → 0
        fj::Rng replay = rng;
        const double t = (double(p[5]) - p[3]) * fj::rand01(replay) + p[3];
        const double s = (double(p[6]) - p[4]) * fj::rand01(replay) + p[4];
        const double ab = double(p[0]) + p[1], kt = ab / p[1] * t, w = -0.6;
        const cd want = w * cd(ab * std::cos(t) - p[7] * std::cos(kt) + p[2] * std::cos(t) + s,
                               ab * std::sin(t) - p[8] * std::sin(kt) + p[2] * std::sin(t) + s);
        // The input point does not matter.
        wrong += !near(apply("Spirograph", par(gen), par(gen), float(w), p, rng), want, 10);
        wrong += !same_place(rng, replay);
    }
    CHECK(wrong == 0);
    // b = 0 divides by float epsilon: with c1 = c2 = 0 a plain circle, not NaN.
    fj::Rng replay = rng;
    const double t = -1 + 2 * fj::rand01(replay), s = -1 + 2 * fj::rand01(replay);
    CHECK(near(apply("Spirograph", 0, 0, 1, {3, 0, 1, -1, -1, 1, 1, 0, 0}, rng), 4.0 * std::polar(1.0, t) + cd(s, s)));
}

TEST_CASE("fractorium maps2: henon and lozi take one step of their maps") {
    std::mt19937 gen(84);
    std::uniform_real_distribution<float> coord(-3, 3), par(-2, 2);
    fj::Rng rng = fj::make_rng(84, 0);
    int wrong = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = i % 10 ? coord(gen) : 0.0f, y = coord(gen), a = par(gen), b = par(gen), w = 1.3f;
        wrong += !near(apply("henon", x, y, w, {a, b}, rng), double(w) * cd(1 - a * double(x) * x + y, b * double(x)));
        wrong += !near(apply("lozi", x, y, w, {a, b}, rng), double(w) * cd(1 - a * std::fabs(x) + y, b * double(x)));
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium maps2: MobiusN is a Möbius map between a power and its replayed root") {
    std::mt19937 gen(85);
    std::uniform_real_distribution<float> coord(-2, 2), coef(-1.5f, 1.5f), power(-4, 4), dist(0.25f, 2);
    fj::Rng rng = fj::make_rng(85, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), P = power(gen), D = dist(gen), w = 0.8f;
        std::vector<float> p(10);
        for (int k = 0; k < 8; ++k) p[k] = coef(gen);
        p[8] = P;
        p[9] = D;
        const double pw = std::fabs(P) < 1 ? 1 : P, e = 4 * D / pw;
        const cd z(x, y);
        const cd u = std::polar(std::pow(std::abs(z), e), std::arg(z) * pw);
        const cd den = cd(p[4], p[5]) * u + cd(p[6], p[7]);
        const cd q = (cd(p[0], p[1]) * u + cd(p[2], p[3])) / den;
        fj::Rng replay = rng;
        const double n = std::floor(pw * fj::rand01(replay));
        const cd got = apply("MobiusN", x, y, w, p, rng);
        wrong += !same_place(rng, replay);
        // Skip near the pole, near q = 0 (its angle), near the branch cuts of
        // the input's angle (times a fractional power) and of q's, and
        // near the origin, where a negative exponent blows up.
        if (std::abs(den) < 0.05 || std::abs(q) < 1e-3 || std::abs(z) < 1e-2) continue;
        if (x < 0 && std::fabs(y) < 1e-3 * std::fabs(x)) continue;
        if (q.real() < 0 && std::fabs(q.imag()) < 1e-3 * std::abs(q)) continue;
        const cd want = double(w) * std::polar(std::pow(std::abs(q), 1 / e), (std::arg(q) + 2 * M_PI * n) / std::floor(pw));
        if (std::abs(want) > 1e30) continue;  // near float's range
        wrong += !near(got, want, 50);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 5000);
    // A power below 1 in size is 1. At the pole the divisor becomes float
    // epsilon, and as u·conj(C·u + D) is 0 there too, the point lands at 0.
    fj::Rng a = rng, b = rng;
    CHECK(apply("MobiusN", 0.3f, 0.4f, 1, {1, 0, 0, 0, 0, 0, 1, 0, -0.5f, 1}, a) ==
          apply("MobiusN", 0.3f, 0.4f, 1, {1, 0, 0, 0, 0, 0, 1, 0, 1, 1}, b));
    CHECK(apply("MobiusN", 1, 0, 1, {0, 0, 1, 0, 1, 0, -1, 0, 1, 0.25f}, rng) == cd(0, 0));
}

TEST_CASE("fractorium maps2: Juliac raises to its complex exponent at the replayed root, each root as often") {
    std::mt19937 gen(86);
    std::uniform_real_distribution<float> coord(-2, 2), re(0.5f, 4), im(-2, 2), dist(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(86, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), I = im(gen), D = dist(gen), w = 0.7f;
        const float R = (i % 2 ? 1 : -1) * (i % 4 < 2 ? re(gen) : float(1 + gen() % 4));
        fj::Rng replay = rng;
        // k: a random 24-bit integer modulo |re|.
        const double k = std::fmod(double(fj::next_u32(replay) >> 8), std::fabs(double(R)));
        const cd got = apply("Juliac", x, y, w, {R, I, D}, rng);
        wrong += !same_place(rng, replay);
        // The angle's branch cut (the negative x axis) and the origin are ill-conditioned.
        if ((x < 0 && std::fabs(y) < 1e-4 * std::fabs(x)) || std::hypot(x, y) < 1e-3) continue;
        const cd z(x, y);
        const cd expo = cd(D * std::log(std::abs(z)), std::arg(z) + 2 * M_PI * k) * cd(1 / double(R), I / 100.0);
        wrong += !near(got, double(w) * std::exp(expo), 20);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 9000);
    // re 3, im 0, dist 1: the three cube roots, each a third of the time.
    const cd z(-0.6, 0.8);
    int count[3] = {0, 0, 0}, none = 0;
    const int n = 9000;
    for (int i = 0; i < n; ++i) {
        const cd got = apply("Juliac", -0.6f, 0.8f, 1, {3, 0, 1}, rng);
        int which = -1;
        for (int k = 0; k < 3; ++k)
            if (near(got, std::polar(std::cbrt(std::abs(z)), (std::arg(z) + 2 * M_PI * k) / 3))) which = k;
        if (which < 0) ++none;
        else ++count[which];
    }
    CHECK(none == 0);
    for (int c : count) CHECK(frequency_ok(c, n, 1.0 / 3));
    // The origin lands at 0 (its radius underflows), not at NaN.
    CHECK(apply("Juliac", 0, 0, 1, {2, 1, 1}, rng) == cd(0, 0));
}

TEST_CASE("fractorium maps2: d_spherical is spherical at the replayed draw below its weight, else linear") {
    std::mt19937 gen(87);
    std::uniform_real_distribution<float> coord(-3, 3), sw(-0.5f, 1.5f);
    fj::Rng rng = fj::make_rng(87, 0);
    int wrong = 0, spherical = 0;
    const int n = 10000;
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), s = i < n / 2 ? 0.3f : sw(gen), w = -1.1f;
        const cd z(x, y);
        fj::Rng replay = rng;
        const bool sph = fj::rand01(replay) < s;
        const cd got = apply("d_spherical", x, y, w, {s}, rng);
        wrong += !same_place(rng, replay);
        wrong += !near(got, double(w) * (sph ? z / std::norm(z) : z), 4);
        if (i < n / 2) spherical += sph;
    }
    CHECK(wrong == 0);
    CHECK(frequency_ok(spherical, n / 2, 0.3));
    // The origin stays at 0 either way.
    for (int i = 0; i < 10; ++i) CHECK(apply("d_spherical", 0, 0, 1, {0.5f}, rng) == cd(0, 0));
}

TEST_CASE("fractorium maps2: bisplit is (cos y/tan x, −y/sin x) times a tenth of the weight") {
    std::mt19937 gen(88);
    std::uniform_real_distribution<float> coord(-6, 6);
    fj::Rng rng = fj::make_rng(88, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 5000; ++i) {
        const float x = coord(gen), y = coord(gen), w = 0.9f;
        // Near sin x = 0 both coordinates have poles.
        if (std::fabs(std::sin(double(x))) < 0.05) continue;
        const double k = 0.1 * w;
        wrong += !near(apply("bisplit", x, y, w, {}, rng), k * cd(std::cos(y) / std::tan(x), -y / std::sin(x)), 10);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 4000);
    // x = 0: the zero tangent and sine become float epsilon.
    CHECK(near(apply("bisplit", 0, 0.5f, 1, {}, rng), 0.1 / FJ_FLT_EPSILON * cd(std::cos(0.5), -0.5)));
}
