// flamejit — Fractorium's bipolar (bMod, bSwirl, bCollide) and elliptic
// (eCollide, eJulia, eMod, eMotion, ePush, eRotate, eScale, eSwirl)
// variations, against their definitions.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each of these takes the point to coordinates about the foci (±1, 0),
// changes them and maps back. The reference here works in double through
// std::complex, with none of the snippets' rewrites: bipolar
// tau − i·sigma = log((z + 1)/(z − 1)) and back z = coth((tau − i·sigma)/2);
// elliptic mu + i·nu = acosh(z) and back z = cosh(mu + i·nu). The change in
// between is each variation's rule as its description states it (bands,
// sectors, roots), and the snippet must land within 1e-5 of
// max(1, |expected|) at thousands of random points. Rules with a cut (a wrap,
// a sector's edge) skip points within a hair of it, where float and double
// may fall on different sides; the counts show each branch is reached.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "test_support.h"

namespace {

using C = std::complex<double>;
const double kFltEpsilon = 1.1920928955078125e-7;

// What the host build of variation `name` adds at z (test_support.h).
C apply(const char* name, C z, float w, const std::vector<float>& p, fj::Rng& rng) {
    return fj::test::host_variation(name, float(z.real()), float(z.imag()), w, p, rng);
}

// Within tol of max(1, |want|), and `far`·|want| more of |want|: the bipolar
// map back, coth, stretches its coordinates' rounding (an ulp or two of
// numbers up to 2π) by |z|²/2, which far from the foci passes 1e-5 of |z|.
bool near(C got, C want, double tol = 1e-5, double far = 0) {
    const double size = std::max(1.0, std::abs(want));
    return std::abs(got - want) <= (tol + far * size) * size;
}
const double kFar = 2e-7;

// How far a is from a whole number.
double off_grid(double a) { return std::fabs(a - std::round(a)); }

// Bipolar coordinates, sigma in [0, 2π) (past π below the x axis).
struct Bipolar {
    double tau, sigma;
};
Bipolar bipolar(C z) {
    const C u = std::log((z + 1.0) / (z - 1.0));
    const double s = -u.imag();
    return {u.real(), s < 0 ? s + 2 * M_PI : s};
}
C from_bipolar(double tau, double sigma) { return 1.0 / std::tanh(C(tau, -sigma) / 2.0); }

// Elliptic coordinates: mu ≥ 0, nu in [-π, π] with y's sign.
C elliptic(C z) { return std::acosh(z); }

// Runs `name` at n random points of [-2.5, 2.5]² (the same points for the
// same seed) against `want`, which gives the expected point or nothing where
// the point sits on a cut. Returns the misses; `checked` counts the rest.
template <class Want>
int misses(const char* name, float w, const std::vector<float>& p, unsigned seed, Want want, int& checked,
           double far = 0, int n = 4000) {
    const std::string label = name;
    CAPTURE(label);
    std::mt19937 gen(seed);
    std::uniform_real_distribution<float> coord(-2.5f, 2.5f);
    fj::Rng rng = fj::make_rng(seed, 0);
    int wrong = 0;
    checked = 0;
    for (int i = 0; i < n; ++i) {
        const C z(coord(gen), coord(gen));
        const std::optional<C> e = want(z);
        if (!e) continue;
        ++checked;
        const C got = apply(name, z, w, p, rng);
        if (!near(got, double(w) * *e, 1e-5, far)) {
            if (++wrong <= 3) MESSAGE(label, " at ", z.real(), ", ", z.imag(), ": ", got, " not ", double(w) * *e);
        }
    }
    return wrong;
}

}  // namespace

TEST_CASE("fractorium coordinates: at their identity settings all eleven map a point back onto itself") {
    // Random points, the axes, the segment between the foci and just off it,
    // the foci, the origin and far points: the way into coordinates and back
    // out, guards included. At a focus tau is infinite and the point must
    // still come back, not as 0/0.
    std::vector<C> points = {{0, 0},     {1, 0},       {-1, 0},      {0, 1},       {0, -1},    {0.5, 0},
                             {-0.3, 0},  {2, 0},       {-2, 0},      {0.5, 1e-6},  {0.5, -1e-6}, {3, 1e-6},
                             {1 + 1e-4, 1e-5}, {-1, 1e-4}, {30, -40}, {-700, 900}, {1e-3, 2e-3}, {0, 5}};
    std::mt19937 gen(40);
    std::uniform_real_distribution<float> coord(-3, 3);
    for (int i = 0; i < 3000; ++i) points.emplace_back(coord(gen), coord(gen));
    struct Case {
        const char* name;
        std::vector<float> p;
    };
    const Case cases[] = {{"bMod", {0, 0.5f}},   {"bSwirl", {0, 0}},  {"bCollide", {0, 2}}, {"eCollide", {0, 3}},
                          {"eJulia", {1}},       {"eMod", {0, 0.5f}}, {"eMotion", {0, 0}},  {"ePush", {0, 1, 0}},
                          {"eRotate", {0}},      {"eScale", {1, 0}},  {"eSwirl", {0, 0}},   {"bMod", {-1, 0}}};
    fj::Rng rng = fj::make_rng(40, 0);
    for (const Case& k : cases) {
        CAPTURE(k.name);
        int wrong = 0;
        for (const C z : points) {
            // Snap to float, as the snippet sees it.
            const C zf(float(z.real()), float(z.imag()));
            const C got = apply(k.name, zf, 0.7f, k.p, rng);
            if (!near(got, 0.7 * zf) && ++wrong <= 3) MESSAGE("at ", zf, ": ", got);
        }
        CHECK(wrong == 0);
    }
}

TEST_CASE("fractorium coordinates: bMod wraps tau inside its band by distance·radius and leaves the rest") {
    struct Case {
        float radius, distance;  // as given
        double r, d;             // as Fractorium keeps them
    };
    for (const Case k : {Case{0.8f, 0.3f, 0.8, 0.3}, Case{1.5f, 2.3f, 1.5, 0.3}, Case{0.5f, -0.5f, 0.5, 1.5}}) {
        CAPTURE(k.radius);
        CAPTURE(k.distance);
        int wrapped = 0, kept = 0, checked = 0;
        const int wrong = misses("bMod", 0.9f, {k.radius, k.distance}, 41, [&](C z) -> std::optional<C> {
            Bipolar b = bipolar(z);
            if (std::fabs(std::fabs(b.tau) - k.r) < 1e-5) return {};  // the band's edge
            if (std::fabs(b.tau) < k.r) {
                const double t = (b.tau + k.r + k.d * k.r) / (2 * k.r);
                if (off_grid(t) < 1e-5) return {};  // the wrap
                b.tau = 2 * k.r * (t - std::floor(t)) - k.r;
                ++wrapped;
            } else {
                ++kept;
            }
            return from_bipolar(b.tau, b.sigma);
        }, checked, kFar);
        CHECK(wrong == 0);
        CHECK(wrapped > 500);
        CHECK(kept > 100);
    }
    // A focus has infinite tau: beyond any band, it stays where it is.
    fj::Rng rng = fj::make_rng(41, 1);
    CHECK(near(apply("bMod", {1, 0}, 1, {100, 1}, rng), {1, 0}));
    CHECK(near(apply("bMod", {-1, 0}, 1, {100, 1}, rng), {-1, 0}));
}

TEST_CASE("fractorium coordinates: bSwirl turns sigma by out·tau + in/tau, finite on the y axis") {
    const float in = 0.3f, out = -0.6f;
    int checked = 0;
    // |tau| < 0.1 skipped: in/tau multiplies tau's float rounding (a few
    // 1e-7 of it) by in/tau², past the tolerance near the y axis.
    const int wrong = misses("bSwirl", 0.8f, {in, out}, 42, [&](C z) -> std::optional<C> {
        const Bipolar b = bipolar(z);
        if (std::fabs(b.tau) < 0.1) return {};
        return from_bipolar(b.tau, b.sigma + out * b.tau + in / b.tau);
    }, checked, kFar);
    CHECK(wrong == 0);
    CHECK(checked > 3000);
    // On the y axis tau is 0 and Fractorium divides by FLT_EPSILON: a huge
    // but finite turn (float cannot say which), so the point stays on the y
    // axis (tau = 0) at a finite place.
    fj::Rng rng = fj::make_rng(42, 1);
    for (double y : {0.0, 0.4, -1.7, 3.0}) {
        const C o = apply("bSwirl", {0, y}, 1, {in, out}, rng);
        CHECK(std::isfinite(o.imag()));
        CHECK(o.real() == 0);
    }
    // A focus stays put, whatever the swirl.
    CHECK(near(apply("bSwirl", {1, 0}, 1, {in, out}, rng), {1, 0}));
    CHECK(near(apply("bSwirl", {-1, 0}, 1, {in, out}, rng), {-1, 0}));
}

TEST_CASE("fractorium coordinates: bCollide turns sigma within sectors π/num wide, alternately, wrapping in each") {
    struct Case {
        float a, num;
        double ka;  // a as Fractorium keeps it, in [-1, 1]
    };
    for (const Case k : {Case{0.3f, 3, 0.3}, Case{-0.4f, 2.5f, -0.4}, Case{1.3f, 1, -0.7}}) {
        CAPTURE(k.a);
        CAPTURE(k.num);
        const double width = M_PI / k.num, turn = k.ka * width;
        int even = 0, odd = 0, crossed = 0, checked = 0;
        const int wrong = misses("bCollide", 1.1f, {k.a, k.num}, 43, [&](C z) -> std::optional<C> {
            const Bipolar b = bipolar(z);
            const double sector = std::floor(b.sigma / width), at = b.sigma / width - sector;
            const bool is_even = std::fmod(sector, 2) == 0;
            const double moved = at + (is_even ? turn : -turn) / width;
            if (off_grid(at) < 1e-5 || off_grid(moved) < 1e-5) return {};  // a sector's edge
            (is_even ? even : odd)++;
            // Wrapped within the sector, except a backward turn out of the
            // first one, which goes on below sigma = 0.
            double place = moved - std::floor(moved);
            if (sector == 0 && moved < 0) {
                place = moved;
                ++crossed;
            }
            return from_bipolar(b.tau, (sector + place) * width);
        }, checked, kFar);
        CHECK(wrong == 0);
        CHECK(even > 500);
        CHECK(odd > 500);
        if (k.ka < 0) CHECK(crossed > 50);
    }
}

TEST_CASE("fractorium coordinates: eCollide turns |nu| within num sectors of [0, π], the x axis counting as below") {
    struct Case {
        float a, num;
        double ka;
        int n;  // as Fractorium keeps them
    };
    for (const Case k : {Case{0.3f, 1, 0.3, 1}, Case{1.25f, 2.6f, 0.25, 3}, Case{-0.4f, 4, 0.6, 4}}) {
        CAPTURE(k.a);
        CAPTURE(k.num);
        const double width = M_PI / k.n, turn = k.ka * width;
        int even = 0, odd = 0, checked = 0;
        // `edges`: skip points on a sector's edge (nu = 0 exactly is none).
        const auto rule = [&](C z, bool edges) -> std::optional<C> {
            const C e = elliptic(z);
            const double nu = std::fabs(e.imag()), sector = std::floor(nu / width), at = nu / width - sector;
            const bool is_even = std::fmod(sector, 2) == 0;
            const double moved = at + (is_even ? turn : -turn) / width;
            if (edges && (off_grid(at) < 1e-5 || off_grid(moved) < 1e-5)) return {};
            (is_even ? even : odd)++;
            const double turned = (sector + moved - std::floor(moved)) * width;
            return std::cosh(C(e.real(), z.imag() > 0 ? turned : -turned));
        };
        const int wrong = misses("eCollide", 0.9f, {k.a, k.num}, 44, [&](C z) { return rule(z, true); }, checked);
        CHECK(wrong == 0);
        CHECK(even > 500);
        if (k.n > 1) CHECK(odd > 500);
        // On the x axis, beyond the right focus (nu = 0) and between the foci:
        // turned as below it, so the first lands below the axis.
        fj::Rng rng = fj::make_rng(44, 1);
        for (double x : {2.0, 0.4, -0.7}) {
            CAPTURE(x);
            const C o = apply("eCollide", {x, 0}, 1, {k.a, k.num}, rng);
            CHECK(near(o, *rule(C(x, 0), false)));
            if (x == 2.0) CHECK(o.imag() < 0);
        }
    }
}

TEST_CASE("fractorium coordinates: eJulia lands on one of its |power| elliptic roots, each equally often") {
    // The roots: cosh((acosh(z) + 2πik)/power); a negative power roots the
    // inverted point z/|z|², and the origin inverts through Fractorium's
    // FLT_EPSILON guard to i/sqrt(FLT_EPSILON).
    const auto roots = [](C z, int power) {
        if (power < 0) z = z == C(0, 0) ? C(0, 1 / std::sqrt(kFltEpsilon)) : 1.0 / std::conj(z);
        std::vector<C> r;
        for (int k = 0; k < std::abs(power); ++k) r.push_back(std::cosh((elliptic(z) + C(0, 2 * M_PI * k)) / double(power)));
        return r;
    };
    std::mt19937 gen(45);
    std::uniform_real_distribution<float> coord(-2.5f, 2.5f);
    fj::Rng rng = fj::make_rng(45, 0);
    // Powers as given and as Fractorium rounds them (0.4 to 1, -0.4 to -1).
    for (const auto& [given, power] : {std::pair{3.0f, 3}, std::pair{-2.0f, -2}, std::pair{2.4f, 2},
                                      std::pair{0.4f, 1}, std::pair{-0.4f, -1}}) {
        CAPTURE(given);
        const int n = 12000;
        std::vector<int> hits(std::abs(power));
        int wrong = 0;
        for (int i = 0; i < n; ++i) {
            const C z(coord(gen), coord(gen));
            const C o = apply("eJulia", z, 0.8f, {given}, rng);
            const std::vector<C> r = roots(z, power);
            int best = 0;
            for (int k = 1; k < int(r.size()); ++k)
                if (std::abs(o - 0.8 * r[k]) < std::abs(o - 0.8 * r[best])) best = k;
            wrong += !near(o, 0.8 * r[best]);
            ++hits[best];
        }
        CHECK(wrong == 0);
        for (int h : hits) CHECK(h == doctest::Approx(double(n) / hits.size()).epsilon(0.05));
    }
    // The origin, at a negative power: the guarded inversion's roots.
    for (int i = 0; i < 20; ++i) {
        const C o = apply("eJulia", {0, 0}, 1, {-2}, rng);
        const std::vector<C> r = roots({0, 0}, -2);
        CHECK((near(o, r[0]) || near(o, r[1])));
    }
}

TEST_CASE("fractorium coordinates: eMod wraps mu inside its band, up above the x axis and down below") {
    struct Case {
        float radius, distance;
        double r, d;
    };
    for (const Case k : {Case{0.9f, 0.4f, 0.9, 0.4}, Case{1.4f, -0.7f, 1.4, 1.3}, Case{0.6f, 3.5f, 0.6, 1.5}}) {
        CAPTURE(k.radius);
        CAPTURE(k.distance);
        int up = 0, down = 0, kept = 0, checked = 0;
        const int wrong = misses("eMod", 1.2f, {k.radius, k.distance}, 46, [&](C z) -> std::optional<C> {
            C e = elliptic(z);
            double mu = e.real();
            if (std::fabs(mu - k.r) < 1e-5) return {};  // the band's edge
            if (mu < k.r) {
                // Above: mu + d·r taken into [-r, r); below: mu − d·r into (-r, r].
                const bool above = e.imag() > 0;
                const double t = (mu + (above ? k.d : -k.d) * k.r + k.r) / (2 * k.r);
                if (off_grid(t) < 1e-5) return {};  // the wrap
                mu = 2 * k.r * (above ? t - std::floor(t) : t - std::ceil(t) + 1) - k.r;
                (above ? up : down)++;
            } else {
                ++kept;
            }
            return std::cosh(C(mu, e.imag()));
        }, checked);
        CHECK(wrong == 0);
        CHECK(up > 100);
        CHECK(down > 100);
        CHECK(kept > 100);
    }
}

TEST_CASE("fractorium coordinates: eMotion, ePush, eRotate and eScale move mu and nu as they say") {
    int checked = 0, flipped = 0;
    // eMotion: mu grows by move below the x axis and shrinks above; past 0
    // it comes out as (-mu, -nu); then nu turns (rotate 7 wraps to 7 − 2π).
    for (const float move : {0.3f, -0.5f, 1.2f}) {
        CAPTURE(move);
        CHECK(misses("eMotion", 0.9f, {move, 7}, 47, [&](C z) -> std::optional<C> {
            const C e = elliptic(z);
            double mu = e.real() + (e.imag() < 0 ? move : -move), nu = e.imag();
            if (mu <= 0) {
                mu = -mu;
                nu = -nu;
                ++flipped;
            }
            return std::cosh(C(mu, nu + 7 - 2 * M_PI));
        }, checked) == 0);
    }
    CHECK(flipped > 500);
    // ePush: mu·dist + push, nu + rotate (4 wraps to 4 − 2π).
    CHECK(misses("ePush", 0.7f, {0.25f, 1.5f, 4}, 48, [&](C z) -> std::optional<C> {
        const C e = elliptic(z);
        return std::cosh(C(e.real() * 1.5 + 0.25, e.imag() + 4 - 2 * M_PI));
    }, checked) == 0);
    CHECK(misses("ePush", 0.7f, {-0.4f, 0.5f, -1}, 48, [&](C z) -> std::optional<C> {
        const C e = elliptic(z);
        return std::cosh(C(e.real() * 0.5 - 0.4, e.imag() - 1));
    }, checked) == 0);
    // eRotate: along the confocal ellipse by rotate.
    for (const float rotate : {0.8f, -2.9f, 5.0f}) {
        CAPTURE(rotate);
        CHECK(misses("eRotate", 1.3f, {rotate}, 49, [&](C z) -> std::optional<C> {
            const C e = elliptic(z);
            return std::cosh(C(e.real(), e.imag() + rotate));
        }, checked) == 0);
    }
    // eScale: mu·scale; nu cut at −angle − π and shrunk by scale onto an arc
    // around −angle. Scale 1.5 is kept at 1.
    struct Case {
        float scale, angle;
        double s;
    };
    int cut = 0;
    for (const Case k : {Case{0.6f, 0.9f, 0.6}, Case{0.25f, 4, 0.25}, Case{1.5f, 2, 1}}) {
        CAPTURE(k.scale);
        CHECK(misses("eScale", 1, {k.scale, k.angle}, 50, [&](C z) -> std::optional<C> {
            const C e = elliptic(z);
            const double t = (e.imag() + M_PI + k.angle) / (2 * M_PI);
            if (off_grid(t) < 1e-5) return {};  // the cut
            cut += t >= 1;
            const double from_cut = 2 * M_PI * (t - std::floor(t));
            return std::cosh(C(e.real() * k.s, k.s * from_cut - k.angle - k.s * M_PI));
        }, checked) == 0);
    }
    CHECK(cut > 1000);
}

TEST_CASE("fractorium coordinates: eSwirl turns nu by out·mu + in/mu, finite on the segment between the foci") {
    const float in = 0.2f, out = 0.7f;
    int checked = 0;
    // mu < 0.05 skipped: in/mu multiplies mu's float rounding by in/mu²,
    // past the tolerance close to the segment.
    CHECK(misses("eSwirl", 0.9f, {in, out}, 51, [&](C z) -> std::optional<C> {
        const C e = elliptic(z);
        if (e.real() < 0.05) return {};
        return std::cosh(C(e.real(), e.imag() + out * e.real() + in / e.real()));
    }, checked) == 0);
    CHECK(checked > 3000);
    // On the segment mu is 0: Fractorium would divide by zero; here the turn
    // is in/FLT_EPSILON, huge but finite, and mu = 0 keeps the point on the
    // segment. With in = 0 nothing turns.
    fj::Rng rng = fj::make_rng(51, 1);
    for (double x : {-0.9, 0.0, 0.35, 1.0}) {
        const C o = apply("eSwirl", {x, 0}, 1, {in, out}, rng);
        CHECK(std::isfinite(o.real()));
        CHECK(std::fabs(o.real()) <= 1);
        CHECK(o.imag() == 0);
        CHECK(near(apply("eSwirl", {x, 0}, 1, {0, out}, rng), {x, 0}));
    }
}
