// flamejit — Fractorium's excinis, fourth, starblur2, oscilloscope2,
// vibration, Voron and nBlur, against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double
// precision against its definition, written out here from the formulas:
// at random points (near 0, ordinary, large, on the axes) and random
// parameters, skipping the points where a float input's rounding could
// flip a branch (within a small distance of the branch's edge) or is
// amplified past the tolerance (sines of large arguments). starblur2 is
// random: its two draws are replayed from a copy of the random stream.
// Voron's seeds come from its integer hash, written out here in 64-bit
// arithmetic. nBlur's reference keeps Fractorium's loops, which the snippet
// writes in closed form, and its draws are replayed too.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <random>
#include <vector>

#include "test_support.h"

namespace {

using cd = std::complex<double>;

const auto apply = &fj::test::host_variation;
using fj::test::near;

const double kEps = FJ_FLT_EPSILON;

// A point of the kinds the renderer meets: near 0, ordinary, large, on an axis.
struct PointSampler {
    std::mt19937 gen;
    explicit PointSampler(unsigned seed) : gen(seed) {}
    float uni(double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(gen)); }
    std::pair<float, float> point() {
        const double c = uni(0, 1);
        if (c < 0.15) return {uni(-1e-3, 1e-3), uni(-1e-3, 1e-3)};
        if (c < 0.65) return {uni(-2, 2), uni(-2, 2)};
        if (c < 0.85) return {uni(-300, 300), uni(-300, 300)};
        if (c < 0.93) return {0.0f, uni(-3, 3)};
        return {uni(-3, 3), 0.0f};
    }
};

// A parameter wrapped into [lo, hi] as Fractorium's cyclic parameters are.
double wrap(double v, double lo, double hi) {
    if (v > hi) return lo + std::fmod(v - lo, hi - lo);
    if (v < lo) return hi - std::fmod(hi - v, hi - lo);
    return v;
}

double zeps(double v) { return v != 0 ? v : kEps; }

// Distance of v from the nearest whole number.
double off_whole(double v) { return std::fabs(v - std::round(v)); }

// Fractorium's Voron hash of an integer: n ^= n << 13, then
// (n·(15731·n² + 789221) + 1376312589) mod 2^31 over 2^31 − 1, with C's
// 32-bit wrap-around.
double voron_noise(int64_t x) {
    const uint64_t mod = uint64_t(1) << 32;
    uint64_t n = uint64_t(x) % mod;
    n = (n ^ (n << 13)) % mod;
    const uint64_t inner = (n * n % mod * 15731 + 789221) % mod;
    return double((n * inner + 1376312589) % mod & 0x7fffffff) / 2147483647.0;
}

}  // namespace

TEST_CASE("fractorium blurs2: excinis squares the point and scales it by f(w/ρ), ρ pushed off 0 by ±eps") {
    PointSampler s(211);
    fj::Rng rng = fj::make_rng(211, 0);
    int wrong = 0, checked[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 20000; ++i) {
        const auto [fx, fy] = s.point();
        const double x = fx, y = fy, w = s.uni(-2, 2);
        const std::vector<float> p = {s.uni(-2, 2), s.uni(-1, 6), s.uni(-0.2, 0.6)};
        const double rho = std::hypot(x, y) * p[0], eps = p[2];
        // |ρ| at eps decides whether ρ is pushed; float's ρ is rounded.
        if (std::fabs(std::fabs(rho) - eps) < 1e-5 * (1 + std::fabs(eps))) continue;
        const double delta = std::fabs(rho) > eps ? 0 : (rho >= 0 ? eps : -eps);
        const double u = float(w) / zeps(rho + delta);
        const double func = std::clamp<double>(p[1], 0, 5);
        const int kind = func < 1 ? 0 : func < 2 ? 1 : func < 3 ? 2 : func < 4 ? 3 : 4;
        double f = 0;
        if (kind == 0) f = u;
        if (kind == 1) {
            if (std::fabs(u) > 100) continue;  // cos of a large argument amplifies u's rounding
            f = std::cos(u);
        }
        if (kind == 2) {
            if (u > 80) continue;  // overflows float (checked below)
            f = std::exp(u);
        }
        if (kind == 3) {
            if (std::fabs(std::fabs(u) + std::fabs(delta) - 1) < 1e-3) continue;  // log near its zero
            f = std::log(std::fabs(u) + std::fabs(delta));
        }
        if (kind == 4) {
            if (std::fabs(u + delta) < 1e-3) continue;  // a pole
            f = 1 / zeps(u + delta);
        }
        const cd want = cd((x - y) * (x + y), 2 * x * y) * f;
        // u's rounding is amplified by the slopes of cos, exp and 1/u.
        const double slack = kind == 0 || kind == 3 ? 2 : 1 + std::fabs(u);
        wrong += !near(apply("excinis", fx, fy, float(w), p, rng), want, 4 * slack);
        ++checked[kind];
    }
    CHECK(wrong == 0);
    for (int k = 0; k < 5; ++k) CHECK(checked[k] > 1000);
}

TEST_CASE("fractorium blurs2: excinis at the origin and inside eps, and its exponential overflowing") {
    fj::Rng rng = fj::make_rng(212, 0);
    // The origin: ρ = 0 is pushed to +eps; z² = 0 leaves 0.
    CHECK(apply("excinis", 0, 0, 1, {1, 0, 0.1f}, rng) == cd(0, 0));
    // Inside eps: ρ = 0.05 → 0.15, so f = w/0.15.
    CHECK(near(apply("excinis", 0.05f, 0, 0.6f, {1, 0, 0.1f}, rng), cd(0.0025 * 0.6 / 0.15, 0), 4));
    // A negative lengthscalar makes ρ negative and the push negative too.
    CHECK(near(apply("excinis", 0, 0.05f, 0.6f, {-1, 0, 0.1f}, rng), cd(-0.0025 * 0.6 / -0.15, 0), 4));
    // e^u beyond float's range: infinite, for the renderer to drop.
    const cd big = apply("excinis", 0.5f, 0.25f, 2, {1, 2.5f, 0.1f}, rng);  // u = 2/0.559 ≈ 3.6: finite
    CHECK(std::isfinite(big.real()));
    const cd over = apply("excinis", 0.002f, 0.001f, 2, {1, 2.5f, 0.01f}, rng);  // u = 2/0.0122 ≈ 163
    CHECK(std::isinf(over.real()));
}

TEST_CASE("fractorium blurs2: fourth is spherical, loonie, lazysusan and linear by quadrant") {
    PointSampler s(213);
    fj::Rng rng = fj::make_rng(213, 0);
    int wrong = 0, checked[5] = {0, 0, 0, 0, 0};
    for (int i = 0; i < 20000; ++i) {
        const auto [fx, fy] = s.point();
        const double x = fx, y = fy, w = s.uni(-2, 2);
        const std::vector<float> p = {s.uni(-8, 8), s.uni(-2, 2), s.uni(-3, 3), s.uni(-1, 1), s.uni(-1, 1)};
        cd want;
        int kind;
        if (x > 0 && y > 0) {
            kind = 0;
            want = w * cd(x, y) / (x * x + y * y);
        } else if (x > 0 && y < 0) {
            const double r2 = x * x + y * y;
            if (std::fabs(r2 - w * w) < 1e-4 * (1 + r2)) continue;  // the loonie circle's edge
            kind = 1;
            want = r2 < w * w ? w * std::sqrt(w * w / r2 - 1) * cd(x, y) : w * cd(x, y);
        } else if (x < 0 && y > 0) {
            const double cx = p[3], cy = p[4], dx = x - cx, dy = y + cy, d = std::hypot(dx, dy);
            if (std::fabs(d - w) < 1e-4) continue;  // the lazysusan circle's edge
            if (d < w) {
                kind = 2;
                const double a = std::atan2(dy, dx) + wrap(p[0], 0, 2 * M_PI) + p[2] * (w - d);
                want = w * d * cd(std::cos(a), std::sin(a)) + cd(cx, -cy);
            } else {
                kind = 3;
                want = w * (1 + p[1] / d) * cd(dx, dy) + cd(cx, -cy);
            }
        } else {
            kind = 4;
            want = w * cd(x, y);
        }
        // The lazysusan's offsets from its centre cancel near it.
        const double slack = kind >= 2 && kind <= 3 ? 1 + 1 / std::max(1e-3, std::hypot(x - p[3], y + p[4])) : 2;
        wrong += !near(apply("fourth", fx, fy, float(w), p, rng), want, 4 * slack);
        ++checked[kind];
    }
    CHECK(wrong == 0);
    for (int k = 0; k < 5; ++k) CHECK(checked[k] > 200);
}

TEST_CASE("fractorium blurs2: starblur2 draws its striped, holed star at the replayed draws") {
    PointSampler s(214);
    fj::Rng rng = fj::make_rng(214, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 20000; ++i) {
        const std::vector<float> p = i % 4 == 0 ? std::vector<float>{5, 0.4016228317f, 0.5f, 5, 0.2f}
                                                : std::vector<float>{s.uni(-7, 7), s.uni(-1.5, 1.5), s.uni(-1.5, 1.5),
                                                                     s.uni(-6, 6), s.uni(-1, 1)};
        const double w = s.uni(-2, 2);
        fj::Rng replay = rng;
        const double u1 = fj::rand01(replay), u2 = fj::rand01(replay);
        const double power = p[0], range = p[1], width = p[4];
        const double pw = zeps(power), alpha = M_PI / pw;
        const double len = std::sqrt(std::max(0.0, 1 + range * range - 2 * range * std::cos(alpha)));
        const double corner = std::asin(std::clamp(std::sin(alpha) * range / zeps(len), -1.0, 1.0));
        const double hole = std::min(std::fabs(double(p[2])), 1.0), stripes = std::fabs(double(p[3]));
        const double k = u1 * power * 2;
        // Float's k may fall on the other side of a whole number, or of a stripe.
        if (off_whole(k) < 1e-5 * (1 + std::fabs(k))) continue;
        const double half_edge = std::floor(k), f = k - half_edge;
        if (stripes > 0 && off_whole(f * stripes) < 1e-4 * (1 + stripes)) continue;
        const bool odd = std::fmod(half_edge, 2.0) != 0;
        double along = f;
        if (stripes > 0) {
            const double band = std::trunc(f * stripes), in_band = f * stripes - band;
            along = ((odd ? 1 - width * in_band : width * in_band) + band) / stripes;
        }
        const double t = along * len;
        const double rim = zeps(std::sqrt(std::max(0.0, 1 + t * t - 2 * t * std::cos(corner))));
        const double sn = std::sin(corner) * t / rim;
        if (std::fabs(std::fabs(sn) - 1) < 1e-3) continue;  // asin is ill-conditioned at ±1
        const double off = std::asin(std::clamp(sn, -1.0, 1.0));
        const double a = 2 * M_PI / pw * std::trunc(half_edge / 2) + (odd ? off : -off) - M_PI / 2;
        const double r = w * rim * std::sqrt(u2 * (1 - hole * hole) + hole * hole);
        const cd want = r * cd(std::cos(a), std::sin(a));
        // The angle carries power's rounding times the half-edge count; the
        // corner's angle amplifies near-degenerate stars.
        const double slack = 4 + 2 * std::fabs(k) + 1 / std::max(1e-3, std::fabs(len));
        wrong += !near(apply("starblur2", s.uni(-2, 2), s.uni(-2, 2), float(w), p, rng), want, slack);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 15000);
}

TEST_CASE("fractorium blurs2: starblur2 without stripes at stripes 0, and a segment at power 0") {
    fj::Rng rng = fj::make_rng(215, 0);
    // stripes 0 (Fractorium divides by epsilon): the half-edge is plain, so
    // every point stays within the star's radius |w|.
    double far = 0;
    for (int i = 0; i < 2000; ++i) far = std::max(far, std::abs(apply("starblur2", 0, 0, 1.5f, {5, 0.4f, 0.3f, 0, 0.2f}, rng)));
    CHECK(far <= 1.5 * (1 + 1e-6));
    CHECK(far > 1.4);
    // power 0: straight down the y axis, between the hole and |w|.
    for (int i = 0; i < 200; ++i) {
        const cd q = apply("starblur2", 0.3f, 0.1f, 2, {0, 0.4f, 0.5f, 5, 0.2f}, rng);
        CHECK(std::fabs(q.real()) < 1e-6);
        CHECK(q.imag() <= -1.0 + 1e-6);
        CHECK(q.imag() >= -2.0 - 1e-6);
    }
}

TEST_CASE("fractorium blurs2: oscilloscope2 negates the point inside its wobbling band") {
    PointSampler s(216);
    fj::Rng rng = fj::make_rng(216, 0);
    int wrong = 0, inside = 0, outside = 0;
    for (int i = 0; i < 20000; ++i) {
        const auto [fx, fy] = s.point();
        const double x = fx, y = fy, w = s.uni(-2, 2);
        const std::vector<float> p = {s.uni(-1, 2), s.uni(-3, 3), s.uni(-3, 3), s.uni(-2, 2), s.uni(-2, 2),
                                      i % 2 ? 0.0f : s.uni(-1, 2)};
        const double pt = p[4] * std::sin(2 * M_PI * p[2] * y);
        const double arg = 2 * M_PI * p[1] * x + pt;
        if (std::fabs(arg) > 1e3) continue;  // a cosine of a huge argument
        const double env = p[5] == 0 ? p[3] : p[3] * std::exp(-std::fabs(x) * p[5]);
        const double t = env * std::cos(arg) + std::max<double>(p[0], 0);
        // The band's edge, where the arguments' rounding decides.
        if (std::fabs(std::fabs(y) - t) < 1e-6 * (1 + std::fabs(arg) + std::fabs(y)) * (1 + std::fabs(p[3]))) continue;
        const bool in = std::fabs(y) <= t;
        (in ? inside : outside)++;
        wrong += !near(apply("oscilloscope2", fx, fy, float(w), p, rng), (in ? -w : w) * cd(x, y), 2);
    }
    CHECK(wrong == 0);
    CHECK(inside > 3000);
    CHECK(outside > 3000);
}

TEST_CASE("fractorium blurs2: vibration adds two plane waves along their directions") {
    PointSampler s(217);
    fj::Rng rng = fj::make_rng(217, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 20000; ++i) {
        const auto [fx, fy] = s.point();
        const double x = fx, y = fy, w = s.uni(-2, 2);
        std::vector<float> p(10);
        for (float& v : p) v = s.uni(-7, 7);
        if (i % 5 == 0) p = {0, 1.5707963f, 1, 0.25f, 0, 1.5707963f, 1.5707963f, 1, 0.25f, 0};
        cd want(x, y);
        double amplification = 0;
        bool ok = true;
        for (int k = 0; k < 2; ++k) {
            const float* q = p.data() + 5 * k;
            const double dir = wrap(q[0], 0, 2 * M_PI), turn = dir + wrap(q[1], 0, 2 * M_PI);
            const double freq = q[2], phase = wrap(q[4], 0, 1);
            const double d = x * std::cos(dir) + y * std::sin(dir);
            const double arg = d * freq * 2 * M_PI + 2 * M_PI * phase / zeps(freq);
            if (std::fabs(arg) > 2e3) ok = false;  // a sine of a huge argument
            amplification += std::fabs(q[3]) * (1 + std::fabs(arg));
            want += q[3] * std::sin(arg) * cd(std::cos(turn), std::sin(turn));
        }
        if (!ok) continue;
        // The sines' arguments carry float rounding, times the amplitude.
        wrong += !near(apply("vibration", fx, fy, float(w), p, rng), w * want, 4 + amplification);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 15000);
}

TEST_CASE("fractorium blurs2: vibration's phases wrap into [0, 1] as Fractorium stores them") {
    fj::Rng rng = fj::make_rng(218, 0);
    // Each phase moves by a whole number while phase/freq does not move by
    // one: only a wrapped phase gives the reference's sines. The angles move
    // by 2π too, but they enter only through sines and cosines, so their
    // wrap has no visible effect.
    std::vector<float> p = {0.3f, 1.2f, 0.7f, 0.4f, 0.25f, 2.0f, 0.7f, 0.6f, 0.3f, 0.6f};
    p[0] += 2 * float(M_PI);
    p[6] -= 2 * float(M_PI);
    p[4] += 1;
    p[9] -= 2;
    // The definition's two waves, with the phase wrapped or left as given.
    const auto waves = [&](double x, double y, bool wrapped) {
        cd sum(x, y);
        for (int k = 0; k < 2; ++k) {
            const float* q = p.data() + 5 * k;
            const double dir = q[0], turn = dir + q[1], freq = q[2];
            const double phase = wrapped ? wrap(q[4], 0, 1) : q[4];
            const double arg = (x * std::cos(dir) + y * std::sin(dir)) * freq * 2 * M_PI + 2 * M_PI * phase / freq;
            sum += q[3] * std::sin(arg) * cd(std::cos(turn), std::sin(turn));
        }
        return 0.8 * sum;
    };
    for (const auto& [x, y] : std::vector<std::pair<float, float>>{{0.4f, -0.7f}, {1.3f, 0.2f}, {-0.9f, -1.1f}}) {
        CHECK(near(apply("vibration", x, y, 0.8f, p, rng), waves(x, y, true), 10));
        CHECK(!near(waves(x, y, false), waves(x, y, true), 1000));  // the unwrapped phases would show
    }
}

TEST_CASE("fractorium blurs2: Voron pulls the point towards its nearest hashed seed") {
    PointSampler s(219);
    fj::Rng rng = fj::make_rng(219, 0);
    int wrong = 0, checked = 0, origin_seeds = 0;
    for (int i = 0; i < 6000; ++i) {
        // A third with large squares of one or two seeds, which often leave
        // none within 20.
        const bool sparse = i % 3 == 0;
        auto [fx, fy] = s.point();
        if (sparse) {
            fx = s.uni(-300, 300);
            fy = s.uni(-300, 300);
        }
        if (std::fabs(fx) > 50 && !sparse) fx = std::fmod(fx, 50.0f);
        if (std::fabs(fy) > 50 && !sparse) fy = std::fmod(fy, 50.0f);
        const double x = fx, y = fy, w = s.uni(-2, 2);
        const double step = sparse ? s.uni(40, 120) : s.uni(-1.5, 1.5);
        const float count = sparse ? 1.0f : float(int(s.uni(-3, 30)));
        const std::vector<float> p = {s.uni(-2, 2), float(step), count, float(int(s.uni(-20, 20))),
                                      float(int(s.uni(-20, 20)))};
        const double st = p[1], num = std::clamp<double>(p[2], 1, 25);
        const int64_t xs = int64_t(p[3]), ys = int64_t(p[4]);
        // The square the float quotient picks.
        if (off_whole(x / st) < 1e-5 * (1 + std::fabs(x / st)) && std::fabs(x / st) > 1e-30) continue;
        if (off_whole(y / st) < 1e-5 * (1 + std::fabs(y / st)) && std::fabs(y / st) > 1e-30) continue;
        const int64_t m = int64_t(std::floor(x / st)), n = int64_t(std::floor(y / st));
        // The cut-off at 20 acts as one more candidate, at the origin.
        double best = 20, second = 1e300, sx = 0, sy = 0;
        bool edge = false;
        for (int64_t i1 = -1; i1 <= 1; ++i1) {
            for (int64_t j1 = -1; j1 <= 1; ++j1) {
                const int64_t m1 = m + i1, n1 = n + j1;
                const double c = num * voron_noise(19 * m1 + 257 * n1 + xs);
                if (off_whole(c) < 1e-5 * num) edge = true;  // the count's floor
                const int64_t count = 1 + int64_t(std::floor(c));
                for (int64_t l = 0; l < count; ++l) {
                    const double px = (voron_noise(l + 64 * m1 + 15 * n1 + xs) + m1) * st;
                    const double py = (voron_noise(l + 21 * m1 + 33 * n1 + ys) + n1) * st;
                    const double d = std::hypot(x - px, y - py);
                    if (d < best) {
                        second = std::min(second, best);
                        best = d;
                        sx = px;
                        sy = py;
                    } else {
                        second = std::min(second, d);
                    }
                }
            }
        }
        // Two candidates at nearly the same distance.
        if (edge || second - best < 1e-4 * (1 + best)) continue;
        if (sx == 0 && sy == 0) ++origin_seeds;
        const cd want = w * (double(p[0]) * cd(x - sx, y - sy) + cd(sx, sy));
        wrong += !near(apply("Voron", fx, fy, float(w), p, rng), want, 10);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 5000);
    CHECK(origin_seeds > 100);  // large steps leave no seed within 20
}

namespace {

// nBlur worked in double from its definition, in Fractorium's layout: its
// precalc, then draws of (X, Y) by its loops (the angle brought into a
// side's sector by subtraction, the stripes counted step by step, negative
// stripes reading the ratio's and speed's swapped partners), redrawn while an exact draw
// misses the ring; the draws replayed from a copy of the stream.
struct NblurRef {
    const std::vector<float>& p;
    bool fragile = false;  // a branch float and double may take differently

    double edges, stripes_n, ratio, hole, highlight, mid, ang_stripes = 0, ang_start = 0, complement = 0, tan90m2,
        sina, cosa, weight, speed1, speed2, max_stripes, arc1, arc2;
    bool circum, adjust, equal, exact, has_stripes, negative;

    static double whole(double v) { return std::floor(v + 0.5); }
    static bool flag(double v) { return std::clamp(whole(v), 0.0, 1.0) == 1; }

    NblurRef(const std::vector<float>& params, double w) : p(params) {
        edges = std::max(whole(p[0]), 3.0);
        stripes_n = whole(p[1]);
        ratio = std::clamp(double(p[2]), 0.0, 2.0);
        hole = std::clamp(double(p[3]), 0.0, 1.0);
        circum = flag(p[4]), adjust = flag(p[5]), equal = flag(p[6]), exact = flag(p[7]);
        highlight = p[8];
        has_stripes = stripes_n != 0, negative = stripes_n < 0;
        const double abs_stripes = std::fabs(stripes_n);
        mid = 2 * M_PI / edges;
        if (has_stripes) {
            ang_stripes = mid / (2 * abs_stripes);
            ang_start = ang_stripes / 2;
            complement = 2 - ratio;
        }
        if (hole > 0.95 && exact && !circum) hole = 0.95;
        tan90m2 = std::tan(M_PI / 2 + mid / 2);
        sina = std::sin(mid / 2), cosa = std::cos(mid / 2);
        if (highlight <= 0.1) highlight = 0.1;
        weight = w;
        if (adjust) {
            const double turns = int(edges) % 4 == 0 ? edges / 2 - 1 : std::floor(edges / 2);
            weight = w / zeps(std::sqrt(2 - 2 * std::cos(mid * turns)) / 2);
        }
        if (circum) exact = false, highlight = 0.1;
        speed1 = complement * ang_start;
        speed2 = ratio * ang_start;
        max_stripes = 2 * abs_stripes;
        arc1 = (negative ? 7.5 : 13) / std::pow(edges, 1.3) * highlight;
        arc2 = 2 * std::atan(arc1 / -2);
    }

    // A comparison of a against b that float may decide the other way.
    void near_edge(double a, double b) { fragile |= std::fabs(a - b) < 1e-4 * (1 + std::fabs(b)); }

    // One draw: (X, Y), |(X, Y)| and the ring's edges along its angle.
    void draw(fj::Rng& draws, double& X, double& Y, double& len, double& inner, double& outer) {
        double ang;
        if (exact) {
            ang = fj::rand01(draws) * 2 * M_PI;
        } else {
            const double u = fj::rand01(draws);
            const float ef = float(edges), side = std::min(std::floor(fj::rand01(draws) * ef), ef - 1);
            ang = (std::atan(arc1 * (u - 0.5)) / arc2 + 0.5 + side) * mid;
        }
        double mem = ang, shown = ang;
        near_edge(std::fmod(ang, mid), 0);
        near_edge(std::fmod(ang, mid), mid);
        while (ang > mid) ang -= mid;
        if (has_stripes) {
            int count = 0;
            double tmp = ang_start;
            while (ang > tmp) {
                near_edge(ang, tmp + ang_stripes);
                tmp += ang_stripes;
                if (tmp > mid) tmp = mid;
                ++count;
            }
            near_edge(ang, ang_start);
            if (tmp != mid) tmp -= ang_start;
            // Negative stripes swap the ratio and its complement, and the
            // two speeds, while they move the angle.
            const double rs = negative ? complement : ratio, s2 = negative ? speed1 : speed2;
            // The definition's two branches in one: positive stripes move
            // odd counts, negative ones even counts.
            const int moved = negative ? 0 : 1;
            if ((count & 1) == moved) {
                near_edge(ang, tmp);
                if (ang > tmp && (!negative || count != max_stripes)) {
                    ang += ang_start, mem += ang_start, shown = mem, tmp += ang_stripes, ++count;
                } else {
                    ang -= ang_start, mem -= ang_start, shown = mem, tmp -= ang_stripes, --count;
                }
            }
            if ((count & 1) != moved && rs > 1) {
                if (ang > tmp && count != max_stripes) {
                    mem = mem - ang + tmp + (ang - tmp) / ang_start * rs * ang_start;
                } else {
                    mem = mem - ang + tmp - (tmp - ang) / ang_start * rs * ang_start;
                }
                ang = tmp + (ang - tmp) / ang_start * rs * ang_start;
                shown = mem;
            }
            if ((count & 1) != moved && rs < 1) {
                near_edge(std::fabs(ang - tmp), s2);
                if (std::fabs(ang - tmp) > s2 && count != max_stripes) {
                    if (ang - tmp > s2) {
                        const double q = (ang - (tmp + s2)) * s2 / (ang_start - s2);
                        shown = mem - ang + tmp + q;
                        ang = tmp + q;
                    }
                    near_edge(tmp - ang, s2);
                    if (tmp - ang > s2) {
                        const double q = (tmp - s2 - ang) * s2 / (ang_start - s2);
                        shown = mem - ang + tmp - q;
                        ang = tmp - q;
                    }
                }
                if (count == max_stripes) {
                    if (negative) tmp = mid;
                    near_edge(tmp - ang, s2);
                    if (tmp - ang > s2) {
                        const double q = (tmp - s2 - ang) * s2 / (ang_start - s2);
                        shown = mem - ang + tmp - q;
                        ang = tmp - q;
                    }
                }
            }
        }
        const double xt = tan90m2 / (tan90m2 - std::tan(ang)), yt = xt * std::tan(ang);
        outer = std::sqrt(xt * xt + yt * yt);
        const double u = fj::rand01(draws);
        double ran = equal ? std::sqrt(u) : u;
        if (!exact && !circum) ran *= outer;
        inner = hole * outer;
        if (!exact) {
            near_edge(ran, inner);
            if (ran < inner) {
                const double v = fj::rand01(draws), f = equal ? std::sqrt(v) : v;
                ran = inner + f * (circum ? 1 - inner + kEps : outer - inner);
            }
        }
        X = std::sin(shown) * ran, Y = std::cos(shown) * ran;
        len = std::hypot(X, Y);
    }

    cd operator()(fj::Rng& draws) {
        double X, Y, len, inner, outer;
        for (int tries = 0; tries < 1000; ++tries) {
            draw(draws, X, Y, len, inner, outer);
            if (!exact) break;
            near_edge(len, inner);
            near_edge(len, outer);
            if (!(len < inner || len > outer)) break;
        }
        return weight * cd(cosa * X - sina * Y, sina * X + cosa * Y);
    }
};

}  // namespace

TEST_CASE("fractorium blurs2: nBlur draws its polygon, stripes and hole at the replayed draws") {
    PointSampler s(1245);
    fj::Rng rng = fj::make_rng(1245, 0);
    int wrong = 0, checked = 0, striped = 0, exact = 0;
    for (int i = 0; i < 20000; ++i) {
        // numEdges, numStripes, ratioStripes, ratioHole, circumCircle,
        // adjustToLinear, equalBlur, exactCalc, highlightEdges; whole numbers
        // a little off, bounded ones at times beyond their bounds.
        const std::vector<float> p = {s.uni(1.6, 12.4),  s.uni(-4.4, 4.4), s.uni(-0.3, 2.3), s.uni(-0.2, 1.2),
                                      s.uni(-0.4, 1.4), s.uni(-0.4, 1.4), s.uni(-0.4, 1.4), s.uni(-0.4, 1.4),
                                      s.uni(-0.5, 3)};
        const float w = s.uni(-2, 2);
        NblurRef ref(p, w);
        fj::Rng replay = rng;
        const cd want = ref(replay);
        const cd got = apply("nBlur", s.uni(-2, 2), s.uni(-2, 2), w, p, rng);
        if (ref.fragile) continue;
        wrong += !near(got, want, 50);
        wrong += rng.state != replay.state;  // as many draws
        ++checked;
        striped += ref.has_stripes;
        exact += ref.exact;
    }
    CHECK(wrong == 0);
    CHECK(checked > 15000);
    CHECK(striped > 10000);
    CHECK(exact > 3000);
}

TEST_CASE("fractorium blurs2: nBlur keeps to its polygon or circle, outside its hole, and scales to linear") {
    // Unstriped, unadjusted, weight 1, the half-side turn undone: a point at
    // angle a from the y axis (a within a side's sector after whole sides are
    // taken off) lies within cos(mid/2)/cos(a − mid/2) of 0, the inscribed
    // polygon's edge, and beyond hole times that; in the unit disc with
    // circumCircle 1.
    fj::Rng rng = fj::make_rng(1246, 0);
    int wrong = 0;
    for (int edges = 3; edges <= 9; ++edges) {
        const double mid = 2 * M_PI / edges;
        for (int circum = 0; circum < 2; ++circum) {
            for (int exact = 0; exact < 2; ++exact) {
                const float hole = 0.4f;
                double widest = 0;
                for (int i = 0; i < 3000; ++i) {
                    const std::vector<float> p = {float(edges), 0, 1, hole, float(circum), 0, 1, float(exact), 1};
                    const cd q = apply("nBlur", 0, 0, 1, p, rng) * std::polar(1.0, -mid / 2);
                    const double len = std::abs(q), a = std::fmod(std::atan2(q.real(), q.imag()) + 4 * M_PI, mid);
                    const double edge = std::cos(mid / 2) / std::cos(a - mid / 2);
                    wrong += len > (circum ? 1 : edge) * (1 + 1e-5);
                    wrong += len < hole * edge * (1 - 1e-5);
                    widest = std::max(widest, len);
                }
                wrong += widest < 0.95;  // the corners (or the circle) are reached
            }
        }
    }
    CHECK(wrong == 0);
    // adjustToLinear: the polygon's widest chord, at the weight 1, is 2.
    for (int edges : {3, 4, 5, 6, 8}) {
        const double mid = 2 * M_PI / edges, turns = edges % 4 == 0 ? edges / 2.0 - 1 : std::floor(edges / 2.0);
        const double chord = std::sqrt(2 - 2 * std::cos(mid * turns));
        double widest = 0;
        for (int i = 0; i < 4000; ++i)
            widest = std::max(widest, std::abs(apply("nBlur", 0, 0, 1, {float(edges), 0, 1, 0, 0, 1, 1, 0, 1}, rng)));
        CHECK(widest <= 2 / chord * (1 + 1e-5));
        CHECK(widest > 0.95 * 2 / chord);
    }
}

TEST_CASE("fractorium blurs2: nBlur with absurd side and stripe counts returns for every point") {
    // Fractorium's loops would run for as many steps as these counts make
    // (or forever, where a step no longer changes the float): the snippet's
    // closed forms with their two steps at most must come back at once, in
    // both angle modes. (A regression hangs here until ctest's timeout.)
    fj::Rng rng = fj::make_rng(1247, 0);
    int finite = 0, calls = 0;
    for (float edges : {3.0f, 7.0f, 1e9f, 1e30f, 3.4e38f})
        for (float stripes : {7.0f, -7.0f, 1e9f, -1e9f, 1e30f, -1e30f, 3.4e38f})
            for (float exact : {0.0f, 1.0f})
                for (int i = 0; i < 50; ++i, ++calls) {
                    const cd q = apply("nBlur", 0.3f, 0.2f, 1, {edges, stripes, 0.5f, 0.3f, 0, 1, 1, exact, 1}, rng);
                    finite += std::isfinite(q.real()) && std::isfinite(q.imag());
                }
    CHECK(calls == 3500);
    MESSAGE(finite << " of " << calls << " points finite");
}
