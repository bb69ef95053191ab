// flamejit — Fractorium's hexagonal Truchets and tile-like maps
// (Truchet_hex_fill, Truchet_hex_crop, loonie2, unicorngaloshen,
// interference2, dragonfire, xtrb), against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each variation is checked in double
// precision against its definition, written out here, at random points and
// parameters. Points are skipped where a float input's rounding could
// decide a branch (a floor's step, a comparison's tie, a hexagon's edge) or
// where the formula magnifies float's rounding beyond the tolerance (a
// sine of a large argument, a pole); each skip says which. The shader hash
// of the two hexagonal Truchets magnifies its argument's last bits 43758
// times, so its argument is formed in float as the snippets form it and
// the hash taken from fj::test::shader_hash; what follows from it is
// checked in double. The random ones replay their draws from a copy of the
// random stream.
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
using fj::test::shader_hash;

const double kEps = FJ_FLT_EPSILON;
const double kSqrt3 = std::sqrt(3.0);

double zeps(double v) { return v != 0 ? v : kEps; }
double off_whole(double v) { return std::fabs(v - std::round(v)); }
// A whole-number parameter as Fractorium stores it, held to [lo, hi].
double whole(double v, double lo, double hi) { return std::clamp(std::floor(v + 0.5), lo, hi); }
bool is_odd(double v) { return std::fmod(std::fabs(v), 2.0) == 1; }

struct Sampler {
    std::mt19937 gen;
    explicit Sampler(unsigned seed) : gen(seed) {}
    float uni(double lo, double hi) { return float(std::uniform_real_distribution<double>(lo, hi)(gen)); }
};

// The centre of the hexagon (X, Z) of the hexagonal Truchets in float, in
// the order the snippets form it, for the shader hash.
float hex_centre_x(double X, double Z) { return float(1.7320508f * float(X)) + float(0.8660254f * float(Z)); }

}  // namespace

TEST_CASE("fractorium tiles2: Truchet_hex_fill puts its ring's corner bands into the replayed random hexagon") {
    Sampler s(301);
    fj::Rng rng = fj::make_rng(301, 0);
    int wrong = 0, checked = 0, turned = 0, flipped = 0, far_cells = 0;
    for (int i = 0; i < 30000; ++i) {
        const float fx = s.uni(-4, 4), fy = s.uni(-4, 4), w = s.uni(-2, 2);
        // Off-integer values to test the rounding, flips beyond [0, 1] to test the hold.
        const std::vector<float> p = {s.uni(0.6, 6.4) * (i % 4 == 0 ? -1 : 1), s.uni(-1.4, 2.4), s.uni(-1.4, 2.4),
                                      s.uni(-3, 3), s.uni(-3, 3), i % 3 == 0 ? s.uni(0.6, 1.4) : s.uni(-3, 60)};
        const double n = whole(p[0], -1e9, 1e9), seed = whole(p[5], -1e9, 1e9);
        const bool flipx = whole(p[1], 0, 1) != 0, flipy = whole(p[2], 0, 1) != 0;
        fj::Rng replay = rng;
        double u[6];
        for (double& v : u) v = fj::rand01(replay);
        const double lx = std::log(1 - u[0]) * (u[1] < 0.5 ? p[3] : -p[3]);
        const double lz = std::log(1 - u[2]) * (u[3] < 0.5 ? p[4] : -p[4]);
        const double n3 = 3 * n;
        // A floor's step: which cell, which copy of the ring.
        const bool edge = off_whole(lx) < 1e-5 * (1 + std::fabs(lx)) || off_whole(lz) < 1e-5 * (1 + std::fabs(lz)) ||
                          off_whole(u[5] * n3) < 1e-5 * (1 + std::fabs(n3));
        const double X = std::floor(lx), Z = std::floor(lz), zs = u[4] < 0.5 ? Z : -Z;
        bool add = true;
        if (seed == 1) add = is_odd(X) || is_odd(Z);
        if (seed >= 2) add = !(shader_hash(hex_centre_x(X, zs), float(1.5 * Z), float(seed)) < 0.5);
        const double turn = std::floor(u[5] * n3) * 2 * M_PI / n3;
        const double yy = (flipy && !add ? -fy : fy) / n3, xx = (flipx && !add ? -fx : fx) / n3;
        const double rad = 1 + xx * M_PI, ang = yy * M_PI + turn;
        const double cx = rad * std::cos(ang), cy = rad * std::sin(ang);
        double a = std::atan2(cy, cx);
        if (a < 0) a += 2 * M_PI;
        // Which third of the ring: a step at its edges, and no angle at all near the centre.
        if (edge || off_whole(1.5 * a / M_PI) < 1e-4 || std::fabs(rad) < 1e-3) {
            apply("Truchet_hex_fill", fx, fy, w, p, rng);
            continue;
        }
        const double third = std::floor(1.5 * a / M_PI);
        const double corner = (M_PI + 2 * M_PI * third) / 3;
        const double dx = cx - 2 * std::cos(corner), dy = cy - 2 * std::sin(corner);
        const double c = std::cos(M_PI / 6), sn = add ? 0.5 : -0.5;
        const cd want = double(w) * cd(0.5 * (c * dx - sn * dy) + kSqrt3 * X + kSqrt3 / 2 * zs,
                                       0.5 * (sn * dx + c * dy) + 1.5 * Z);
        wrong += !near(apply("Truchet_hex_fill", fx, fy, w, p, rng), want, 8);
        ++checked;
        turned += !add;
        flipped += !add && (flipx || flipy);
        far_cells += std::fabs(X) >= 2;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(turned > 3000);
    CHECK(flipped > 1000);
    CHECK(far_cells > 3000);
}

TEST_CASE("fractorium tiles2: Truchet_hex_fill with n = 0 and large spreads stays finite") {
    Sampler s(302);
    fj::Rng rng = fj::make_rng(302, 0);
    int bad = 0;
    for (int i = 0; i < 5000; ++i) {
        const std::vector<float> p = {i % 2 ? 0.0f : 3.0f, 1, 1, s.uni(-1e6, 1e6), s.uni(-1e6, 1e6), s.uni(0, 9)};
        const cd got = apply("Truchet_hex_fill", s.uni(-3, 3), s.uni(-3, 3), 1, p, rng);
        bad += !std::isfinite(got.real()) || !std::isfinite(got.imag());
    }
    CHECK(bad == 0);
}

TEST_CASE("fractorium tiles2: Truchet_hex_crop moves the band points (or, inverted, the others) by mode, and keeps the rest") {
    Sampler s(303);
    fj::Rng rng = fj::make_rng(303, 0);
    int wrong = 0, checked = 0, moved[3] = {0, 0, 0}, kept = 0, turned = 0, to_outer = 0, to_inner = 0;
    for (int i = 0; i < 40000; ++i) {
        const float fx = s.uni(-8, 8), fy = s.uni(-8, 8), w = s.uni(-2, 2);
        const std::vector<float> p = {i % 5 == 0 ? s.uni(-1, 6) : s.uni(0, 0.5), s.uni(-0.6, 2.6), s.uni(-0.6, 1.6),
                                      i % 3 == 0 ? s.uni(0.6, 1.4) : s.uni(-3, 60)};
        const double wd = std::clamp<double>(p[0], 0, 5), mode = whole(p[1], 0, 2), seed = whole(p[3], -1e9, 1e9);
        const bool inv = whole(p[2], 0, 1) != 0;
        const double x = fx, y = fy;
        const double cx = x / kSqrt3 - y / 3, cz = 2 * y / 3, cy = -cx - cz;
        double rx = std::round(cx), ry = std::round(cy), rz = std::round(cz);
        double diff[3] = {std::fabs(rx - cx), std::fabs(ry - cy), std::fabs(rz - cz)};
        if (diff[0] > diff[1] && diff[0] > diff[2]) {
            rx = -ry - rz;
        } else if (diff[1] > diff[2]) {
            ry = -rx - rz;
        } else {
            rz = -rx - ry;
        }
        std::sort(diff, diff + 3);
        const double hx = kSqrt3 * rx + kSqrt3 / 2 * rz, hy = 1.5 * rz;
        const double dx = x - hx, dy = y - hy;
        bool turn = false;
        if (seed == 1) turn = !is_odd(rx) && !is_odd(rz);
        if (seed >= 2) turn = shader_hash(hex_centre_x(rx, rz), float(hy), float(seed)) < 0.5;
        const double add = turn ? M_PI / 3 : 0;
        const double k = (std::atan2(dy, dx) + M_PI / 6 - add) * 1.5 / M_PI;
        const double corner = std::floor(k) / 1.5 * M_PI + M_PI / 6 + add;
        const double x0 = std::cos(corner), y0 = std::sin(corner);
        const double dist = std::hypot(dx - x0, dy - y0), outer = 0.5 + wd, inner = 0.5 - wd;
        fj::Rng replay = rng;
        const double u = fj::rand01(replay);
        // A hexagon's edge (a rounding at a half or a tie between two of them), the
        // edge between two corners' sectors, a band's edge, and no direction at its corner.
        if (off_whole(cx + 0.5) < 1e-5 || off_whole(cy + 0.5) < 1e-5 || off_whole(cz + 0.5) < 1e-5 ||
            diff[2] - diff[1] < 1e-5 || off_whole(k) < 1e-5 || std::fabs(dist - outer) < 1e-5 ||
            std::fabs(dist - inner) < 1e-5 || dist < 1e-4) {
            apply("Truchet_hex_crop", fx, fy, w, p, rng);
            continue;
        }
        const bool crop = inv ? (dist > outer || dist < inner) : (dist < outer && dist > inner);
        cd local(dx, dy);
        if (crop) {
            ++moved[int(mode)];
            if (mode == 0) local = 0;
            if (mode == 1) local = cd(x0, y0);
            if (mode == 2) {
                const double d = u < 0.5 ? outer : inner;
                (u < 0.5 ? to_outer : to_inner)++;
                local = cd(x0, y0) + d * cd(dx - x0, dy - y0) / dist;
            }
        } else {
            ++kept;
        }
        turned += turn;
        const cd want = double(w) * (local + cd(hx, hy));
        const cd got = apply("Truchet_hex_crop", fx, fy, w, p, rng);
        wrong += !near(got, want, 4);
        // What stays is the input point itself.
        if (!crop) wrong += !near(got, double(w) * cd(x, y), 4);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 38000);
    CHECK(kept > 5000);
    for (int m = 0; m < 3; ++m) CHECK(moved[m] > 2000);
    CHECK(turned > 5000);
    CHECK(fj::test::frequency_ok(to_outer, to_outer + to_inner, 0.5));
}

TEST_CASE("fractorium tiles2: loonie2 inverts inside the unit circle and makes circles regular polygons") {
    Sampler s(304);
    fj::Rng rng = fj::make_rng(304, 0);
    int wrong = 0, checked = 0, inside = 0;
    for (int i = 0; i < 30000; ++i) {
        const double range = i % 4 == 0 ? 0.05 : i % 4 == 1 ? 30 : 2;
        const float fx = s.uni(-range, range), fy = s.uni(-range, range), w = s.uni(-2, 2);
        // sides, star and circle are read but unused outside flam3 compatibility mode.
        const std::vector<float> p = {s.uni(1, 50), s.uni(-1, 1), s.uni(-1, 1),
                                      i % 2 ? float(int(s.uni(3, 12))) : s.uni(-9, 9)};
        const double x = fx, y = fy, r2 = x * x + y * y, power = p[3];
        const double alpha = 2 * M_PI / zeps(power);
        const double k = r2 < 1 ? std::sqrt(1 / r2 - 1) : 1;
        const double nx = x * k, ny = y * k, rad = std::hypot(nx, ny);
        const double sector = (std::atan2(ny, nx) + M_PI) / alpha;
        const double frac = sector - std::floor(sector);
        const bool upper = frac > 0.5;
        const double part = upper ? 1 - frac : frac;
        const double tilt = std::atan(part * 2 * std::tan(alpha / 2)) / alpha;
        const double c = std::cos(tilt * alpha);
        // The unit circle (√(1/r² − 1) loses its digits there), the branch cut
        // of atan2 (a fractional power has a seam there), tan(α/2) at its pole,
        // and 1/cos at its pole.
        if (std::fabs(r2 - 1) < 1e-3 || std::fabs(std::fabs(std::atan2(y, x)) - M_PI) < 1e-4 ||
            std::fabs(std::cos(alpha / 2)) < 1e-3 || std::fabs(c) < 1e-2 || std::fabs(power) < 0.2) {
            continue;
        }
        const double side = upper ? std::floor(sector) + 1 : std::floor(sector);
        const double ang = (side + (upper ? -tilt : tilt)) * alpha - M_PI;
        const cd want = std::polar(w * rad / c, ang);
        wrong += !near(apply("loonie2", fx, fy, w, p, rng), want, 20);
        ++checked;
        inside += r2 < 1;
    }
    CHECK(wrong == 0);
    CHECK(checked > 25000);
    CHECK(inside > 8000);
}

TEST_CASE("fractorium tiles2: loonie2 maps a circle onto the regular polygon of that inradius") {
    fj::Rng rng = fj::make_rng(305, 0);
    // Outside the unit circle the loonie step keeps the point: a circle of
    // radius 3 must land on the hexagon (power 6) whose sides' midpoints lie
    // at distance 3 in the directions −π + k·π/3.
    int off = 0;
    double most = 0, least = 1e9;
    for (int i = 0; i < 3600; ++i) {
        const double t = (i + 0.5) * 2 * M_PI / 3600;
        const cd got = apply("loonie2", float(3 * std::cos(t)), float(3 * std::sin(t)), 1, {4, 0, 0, 6}, rng);
        double apothem = 0;
        for (int k = 0; k < 6; ++k) {
            apothem = std::max(apothem, std::real(got * std::polar(1.0, -(-M_PI + k * M_PI / 3))));
        }
        off += std::fabs(apothem - 3) > 1e-4;
        most = std::max(most, std::abs(got));
        least = std::min(least, std::abs(got));
    }
    CHECK(off == 0);
    CHECK(least == doctest::Approx(3).epsilon(1e-3));
    CHECK(most == doctest::Approx(3 / std::cos(M_PI / 6)).epsilon(1e-3));
}

TEST_CASE("fractorium tiles2: unicorngaloshen is its cubic over the elliptic radius, with the factors of each mode") {
    Sampler s(306);
    fj::Rng rng = fj::make_rng(306, 0);
    int wrong = 0, checked = 0, per_mode[6] = {0, 0, 0, 0, 0, 0};
    for (int i = 0; i < 40000; ++i) {
        const double range = i % 3 == 0 ? 0.3 : 3;
        const float fx = s.uni(-range, range), fy = s.uni(-range, range), w = s.uni(-2, 2);
        // Whole modes hit the ≤ comparisons exactly; others fall between.
        const float mode = i % 2 ? float(int(s.uni(-1, 6))) : s.uni(-1, 5);
        const std::vector<float> p = {i % 4 ? s.uni(0.2, 2) : s.uni(-2, 2), i % 4 ? s.uni(0.2, 2) : s.uni(-2, 2),
                                      s.uni(-1, 1), s.uni(-2, 2), s.uni(-1, 1), s.uni(-2, 2), s.uni(-1, 1), mode};
        const double x = fx, y = fy, mx = p[0], my = p[1];
        const double q = y * y * my + mx * x * x;
        double ax = p[3], ay = p[5];
        int branch = 5;
        double u = 0, v = 0;
        if (p[2] > 0) {
            const double m = std::clamp<double>(mode, 0, 4);
            if (m <= 0) {
                branch = 0, u = x, v = y;
            } else if (m <= 1) {
                branch = 1, u = std::exp(-x), v = std::exp(-y);
            } else if (m <= 2) {
                branch = 2, u = 1 / x, v = 1 / y;
            } else if (m <= 3) {
                branch = 3, u = std::log(std::fabs(x)), v = p[5] * std::log(std::fabs(y));
            } else {
                branch = 4, u = std::atan2(x, y), v = std::atan2(y, x);
            }
            ax = 1 + p[3] * std::sin(u * M_PI * p[4]);
            ay = 2 + p[5] * std::sin(v * M_PI * p[6]);
        }
        // A radius near 0 from multipliers of opposite signs, a sine of a large
        // argument, and the seams of the two atan2s.
        if (std::fabs(q) < 1e-3 * (x * x + y * y) || std::fabs(u * p[4]) > 30 || std::fabs(v * p[6]) > 30 ||
            (branch == 4 && ((std::fabs(x) < 1e-4 && y < 0) || (std::fabs(y) < 1e-4 && x < 0)))) {
            continue;
        }
        const double r = w / std::sqrt(std::fabs(q));
        const cd want(ax * (x - y) * (x + my * y) * r, ay * x * y * r);
        wrong += !near(apply("unicorngaloshen", fx, fy, w, p, rng), want, 8);
        ++checked;
        ++per_mode[branch];
    }
    CHECK(wrong == 0);
    CHECK(checked > 30000);
    for (int b = 0; b < 6; ++b) CHECK(per_mode[b] > 1500);
}

TEST_CASE("fractorium tiles2: unicorngaloshen stays finite on the axes, at the origin and far out") {
    Sampler s(307);
    fj::Rng rng = fj::make_rng(307, 0);
    int bad = 0;
    const float points[][2] = {{0, 0}, {0, 1}, {1, 0}, {-200, 3}, {3, -200}, {0, -1}, {-1, 0}};
    for (int mode = 0; mode <= 4; ++mode) {
        for (const auto& pt : points) {
            const cd got = apply("unicorngaloshen", pt[0], pt[1], 1, {1, -1, 1, 1, 0.1f, 2, 0.2f, float(mode)}, rng);
            bad += !std::isfinite(got.real()) || !std::isfinite(got.imag());
        }
    }
    CHECK(bad == 0);
    // At the origin nothing moves.
    CHECK(apply("unicorngaloshen", 0, 0, 1, {1, 1, 0, 1, 0.1f, 2, 0.2f, 0}, rng) == cd(0, 0));
}

TEST_CASE("fractorium tiles2: interference2 adds its two waves of the chosen types in x and in y") {
    Sampler s(308);
    fj::Rng rng = fj::make_rng(308, 0);
    int wrong = 0, checked = 0, types[3] = {0, 0, 0};
    auto wave = [](double a, double b, double c, double p, double t, double v, bool& shaky) {
        const double sv = std::sin(b * v + c);
        if (t == 2) {
            shaky = shaky || std::fabs(sv) < 1e-4;  // the square's step
            return a * std::pow(sv < 0 ? kEps : 1.0, p);
        }
        const double base = t == 1 ? std::fabs(std::asin(std::cos(b * v + c - M_PI / 2))) / M_PI : std::fabs(sv);
        // The triangle's peak (asin's slope is infinite there) and a base near
        // 0 under a power below 1 (whose slope is infinite there).
        shaky = shaky || (t == 1 && std::fabs(sv) > 0.995) || (p < 0 && base < 1e-2) || (p < 1 && base < 1e-3);
        return (t == 1 ? 2 * a : a) * std::pow(p < 0 ? std::max(base, kEps) : base, p);
    };
    for (int i = 0; i < 30000; ++i) {
        const float fx = s.uni(-4, 4), fy = s.uni(-4, 4), w = s.uni(-2, 2);
        std::vector<float> p;
        for (int k = 0; k < 2; ++k) {
            p.insert(p.end(), {s.uni(-2, 2), s.uni(-3, 3), s.uni(-3, 3), i % 3 ? s.uni(0.2, 3) : s.uni(-1.5, 3),
                               s.uni(-0.6, 3.4)});
        }
        const double t1 = whole(p[4], 0, 2), t2 = whole(p[9], 0, 2);
        bool shaky = false;
        const double x = wave(p[0], p[1], p[2], p[3], t1, fx, shaky) + wave(p[5], p[6], p[7], p[8], t2, fx, shaky);
        const double y = wave(p[0], p[1], p[2], p[3], t1, fy, shaky) + wave(p[5], p[6], p[7], p[8], t2, fy, shaky);
        if (shaky) continue;
        wrong += !near(apply("interference2", fx, fy, w, p, rng), double(w) * cd(x, y), 8);
        ++checked;
        ++types[int(t1)];
    }
    CHECK(wrong == 0);
    CHECK(checked > 20000);
    for (int t = 0; t < 3; ++t) CHECK(types[t] > 4000);
}

TEST_CASE("fractorium tiles2: interference2's default is the sum of two |sin|, and a negative power stays finite") {
    fj::Rng rng = fj::make_rng(309, 0);
    const std::vector<float> defaults = {1, 1, 0, 1, 0, 1, 1, 0, 1, 0};
    CHECK(near(apply("interference2", 0.7f, -2.1f, 1, defaults, rng),
               cd(2 * std::fabs(std::sin(0.7f)), 2 * std::fabs(std::sin(-2.1f)))));
    int bad = 0;
    for (float t : {0.0f, 1.0f}) {
        const cd got = apply("interference2", 0, 0, 1, {1, 1, 0, -2, t, 1, 1, 0, -1, t}, rng);
        bad += !std::isfinite(got.real()) || !std::isfinite(got.imag());
    }
    CHECK(bad == 0);
}

TEST_CASE("fractorium tiles2: dragonfire maps by (E − F, sin y)/(E + F − cos y) and fuzzes and blends by mode") {
    Sampler s(310);
    fj::Rng rng = fj::make_rng(310, 0);
    int wrong = 0, checked = 0, modes[8] = {}, blends[7] = {};
    for (int i = 0; i < 40000; ++i) {
        const float fx = s.uni(-5, 5), fy = s.uni(-5, 5), w = s.uni(-2, 2);
        const float mode = i % 2 ? float(int(s.uni(-1, 9))) : s.uni(-1, 8);
        const float blend = i % 2 ? float(int(s.uni(-1, 8))) : s.uni(-1, 7);
        const std::vector<float> p = {s.uni(0.1, 2) * (i % 5 ? 1 : -1), s.uni(-1, 1), mode, s.uni(-2, 2), blend,
                                      s.uni(-1, 2), s.uni(-2, 2), s.uni(-2, 2)};
        const double x = fx, y = fy, e = std::exp(x) * p[0], f = p[1] / e;
        const double den = e + f - std::cos(y);
        const double mx = (e - f) * w / den, my = std::sin(y) * w / den;
        const double m = std::clamp<double>(mode, 0, 7), b = std::clamp<double>(blend, 0, 6);
        // The pole of the map.
        if (std::fabs(den) < 1e-2 * (std::fabs(e) + std::fabs(f) + 1)) continue;
        cd want(mx, my);
        if (m >= 1) {
            const double ax = p[6] / std::log(std::fabs(mx)), ay = p[6] / std::log(std::fabs(my));
            // The fuzz's cosine of L/ln|v| magnifies ln's rounding by (L/ln|v|)²/L
            // (large near ln|v| = 0); its sign decides modes 4 on.
            const double zx = std::cos(ax), zy = std::cos(ay), l = std::fabs(double(p[6])) + 1e-30;
            if (ax * ax / l > 2 || ay * ay / l > 2 || std::fabs(zx) < 1e-3 || std::fabs(zy) < 1e-3) continue;
            const double rx = zx < 0 ? -p[3] : p[3], ry = zy < 0 ? -p[3] : p[3];
            cd g;
            if (m < 2) {
                g = cd(mx + zx, my + zy);
            } else if (m < 3) {
                g = cd(mx * std::sin(zx), my * std::sin(zy));
            } else if (m < 4) {
                g = cd(mx * std::exp(std::sin(zx)), my * std::exp(std::sin(zy)));
            } else if (m < 5) {
                g = cd(mx + rx, my + ry);
            } else if (m < 6) {
                g = cd(mx + std::exp(rx), my + std::exp(ry));
            } else {
                g = cd(mx + std::exp(std::sin(rx)), my + std::exp(std::cos(ry)));
            }
            want = g;
            if (b >= 1) {
                const double pos = p[5], a = pos * M_PI;
                double v = pos;
                if (b >= 2) {
                    if (b < 4 && std::fabs(std::cos(a)) < 0.05) continue;  // tan's pole
                    const double trig = b < 3   ? std::cos(a)
                                        : b < 4 ? std::tan(a)
                                        : b < 5 ? std::sinh(a)
                                                : std::asinh(a);
                    v = (1 - trig) * p[7];
                }
                want = cd(mx, my) * (1 - v) + g * v;
            }
            ++blends[int(b)];
        }
        wrong += !near(apply("dragonfire", fx, fy, w, p, rng), want, 20);
        ++checked;
        ++modes[int(m)];
    }
    CHECK(wrong == 0);
    CHECK(checked > 15000);
    for (int m = 0; m < 8; ++m) CHECK(modes[m] > 600);
    for (int b = 0; b < 7; ++b) CHECK(blends[b] > 600);
}

TEST_CASE("fractorium tiles2: dragonfire far out in x reaches its limits (±w, 0) instead of NaN") {
    Sampler s(311);
    fj::Rng rng = fj::make_rng(311, 0);
    int wrong = 0;
    for (int i = 0; i < 2000; ++i) {
        const float x = s.uni(90, 1e6) * (i % 2 ? 1 : -1), y = s.uni(-10, 10), w = s.uni(-2, 2);
        const cd got = apply("dragonfire", x, y, w, {0.5f, 0.25f, 0, 1, 0, 1, 6.2831853f, 0.5f}, rng);
        wrong += !near(got, cd(x > 0 ? w : -w, 0));
    }
    CHECK(wrong == 0);
}

namespace {

// xtrb's triangle, from its parameters.
struct XtrbTriangle {
    double radius, width, sin_c, cos_c, ha, hb, hc, ab, ac, ba, bc, ca, cb, s2a, s2b, s2c, s2ab, s2ac, s2bc;
};

XtrbTriangle xtrb_triangle(double radius, double width, double a, double b) {
    XtrbTriangle t;
    const double angle_b = 0.047 + a, angle_c = 0.047 + b, angle_a = M_PI - angle_b - angle_c;
    const double ta = std::tan(angle_a / 2), tb = std::tan(angle_b / 2), tc = std::tan(angle_c / 2);
    t.radius = radius;
    t.width = width;
    t.sin_c = std::sin(angle_c);
    t.cos_c = std::cos(angle_c);
    const double sa = radius * (tc + tb), sb = radius * (tc + ta), sc = radius * (tb + ta);
    const double s2 = radius * (sa + sb + sc);
    t.ha = s2 / sa / 6, t.hb = s2 / sb / 6, t.hc = s2 / sc / 6;
    t.ab = sa / sb, t.ac = sa / sc, t.ba = sb / sa, t.bc = sb / sc, t.ca = sc / sa, t.cb = sc / sb;
    t.s2a = 6 * t.ha, t.s2b = 6 * t.hb, t.s2c = 6 * t.hc;
    t.s2ab = s2 / (sa + sb) / 6, t.s2ac = s2 / (sa + sc) / 6, t.s2bc = s2 / (sb + sc) / 6;
    return t;
}

// The hexagon fill of one cell, case by case as the definition reads.
// `shaky` is set where float could take another case.
void xtrb_hex(const XtrbTriangle& t, double al, double be, double ga, double r, double& al1, double& be1, bool& shaky) {
    const double W = t.width, w1 = 1 - W, w2 = 2 * W;
    const double tol = 1e-5 * (t.s2a + t.s2b);
    // Each case divides by the middle distance: near 0 (a corner) the ratios
    // of two small distances lose float's digits.
    const double mid = std::max(std::min(al, be), std::min(std::max(al, be), ga));
    shaky = shaky || mid < 1e-3 * (t.s2a + t.s2b) || std::fabs(be - al) < tol || std::fabs(ga - be) < tol ||
            std::fabs(ga - al) < tol || std::fabs(r - (1 - W * W)) < 1e-6;
    const bool keep = r >= 1 - W * W;
    double de1, ga1;
    if (be < al) {
        if (ga < be) {
            de1 = keep ? W * be : w1 * be + w2 * t.s2ab * (3 - ga / be);
            ga1 = keep ? W * ga : w1 * ga + w2 * t.hc * ga / be;
            al1 = t.s2a - t.ba * de1 - t.ca * ga1;
            be1 = de1;
        } else if (ga < al) {
            de1 = keep ? W * be : w1 * be + w2 * t.hb * be / ga;
            ga1 = keep ? W * ga : w1 * ga + w2 * t.s2ac * (3 - be / ga);
            al1 = t.s2a - t.ba * de1 - t.ca * ga1;
            be1 = de1;
        } else {
            be1 = keep ? W * be : w1 * be + w2 * t.hb * be / al;
            al1 = keep ? W * al : w1 * al + w2 * t.s2ac * (3 - be / al);
        }
    } else {
        if (ga < al) {
            de1 = keep ? W * al : w1 * al + w2 * t.s2ab * (3 - ga / al);
            ga1 = keep ? W * ga : w1 * ga + w2 * t.hc * ga / al;
            be1 = t.s2b - t.ab * de1 - t.cb * ga1;
            al1 = de1;
        } else if (ga < be) {
            de1 = keep ? W * al : w1 * al + w2 * t.ha * al / ga;
            ga1 = keep ? W * ga : w1 * ga + w2 * t.s2bc * (3 - al / ga);
            be1 = t.s2b - t.ab * de1 - t.cb * ga1;
            al1 = de1;
        } else {
            al1 = keep ? W * al : w1 * al + w2 * t.ha * al / be;
            be1 = keep ? W * be : w1 * be + w2 * t.s2bc * (3 - al / be);
        }
    }
}

}  // namespace

TEST_CASE("fractorium tiles2: xtrb folds into its triangle cell, fills it as a hexagon and takes the replayed julian root") {
    Sampler s(312);
    fj::Rng rng = fj::make_rng(312, 0);
    int wrong = 0, checked = 0, folded = 0, kept = 0, roots_above_0 = 0;
    for (int i = 0; i < 40000; ++i) {
        const float fx = s.uni(-6, 6), fy = s.uni(-6, 6), w = s.uni(-2, 2);
        float power = s.uni(-4.4, 4.4);
        if (i % 7 == 0) power = s.uni(-0.45, 0.45);  // reads as ±1
        const std::vector<float> p = {power, s.uni(0.3, 2), i % 4 ? s.uni(0, 1) : s.uni(-0.5, 1.5), s.uni(-1, 2),
                                      s.uni(0.1, 1.4), s.uni(0.1, 1.4)};
        double n = std::floor(double(power) + 0.5);
        if (n == 0) n = power < 0 ? -1 : 1;
        const XtrbTriangle t = xtrb_triangle(p[1], p[2], p[4], p[5]);
        fj::Rng replay = rng;
        const double u1 = fj::rand01(replay), u2 = fj::rand01(replay);
        const double x = fx, y = fy;
        const double al = y + t.radius, be = x * t.sin_c - y * t.cos_c + t.radius;
        const double m = std::floor(al / t.s2a), k = std::floor(be / t.s2b);
        const double oa = al - m * t.s2a, ob = be - k * t.s2b, og = t.s2c - t.ac * oa - t.bc * ob;
        // A cell's edge: the floors' steps and the fold's.
        bool shaky = off_whole(al / t.s2a) < 1e-5 * (1 + std::fabs(al / t.s2a)) ||
                     off_whole(be / t.s2b) < 1e-5 * (1 + std::fabs(be / t.s2b)) || std::fabs(og) < 1e-5 * t.s2c;
        double al1, be1;
        if (og > 0) {
            xtrb_hex(t, oa, ob, og, u1, al1, be1, shaky);
        } else {
            xtrb_hex(t, t.s2a - oa, t.s2b - ob, -og, u1, al1, be1, shaky);
            al1 = t.s2a - al1;
            be1 = t.s2b - be1;
        }
        al1 += m * t.s2a;
        be1 += k * t.s2b;
        const double ix = (be1 - t.radius + (al1 - t.radius) * t.cos_c) / t.sin_c, iy = al1 - t.radius;
        const double copies = std::fabs(n), root = std::min(std::floor(u2 * copies), copies - 1);
        // The julian's seam (atan2's cut) and its centre (a negative exponent, or no angle).
        shaky = shaky || (std::fabs(iy) < 1e-4 && ix < 0) || ix * ix + iy * iy < 1e-4;
        if (shaky) {
            apply("xtrb", fx, fy, w, p, rng);
            continue;
        }
        const cd want =
            std::polar(w * std::pow(ix * ix + iy * iy, p[3] / n / 2), (std::atan2(iy, ix) + 2 * M_PI * root) / n);
        wrong += !near(apply("xtrb", fx, fy, w, p, rng), want, 10);
        ++checked;
        folded += og <= 0;
        kept += u1 >= 1 - t.width * t.width;
        roots_above_0 += root > 0;
    }
    CHECK(wrong == 0);
    CHECK(checked > 30000);
    CHECK(folded > 10000);
    CHECK(kept > 5000);
    CHECK(roots_above_0 > 10000);
}

TEST_CASE("fractorium tiles2: xtrb's fill keeps the point in its cell and, in width² of the fills, scales its two "
          "least distances by width") {
    // Power 1 and dist 1 make the julian the identity times the weight, so
    // the output is the filled point. Its distances from the input cell's
    // sides are read back from it: the fill's cases are not consulted.
    Sampler s(314);
    fj::Rng rng = fj::make_rng(314, 0);
    const double widths[3] = {0.3, 0.6, 0.85};
    int outside = 0, checked[3] = {0, 0, 0}, kept[3] = {0, 0, 0};
    for (int i = 0; i < 30000; ++i) {
        const float fx = s.uni(-6, 6), fy = s.uni(-6, 6), w = s.uni(0.5, 2);
        const std::vector<float> p = {1, s.uni(0.3, 2), float(widths[i % 3]), 1, s.uni(0.1, 1.4), s.uni(0.1, 1.4)};
        const XtrbTriangle t = xtrb_triangle(p[1], p[2], p[4], p[5]);
        const double al = fy + t.radius, be = fx * t.sin_c - fy * t.cos_c + t.radius;
        const double m = std::floor(al / t.s2a), k = std::floor(be / t.s2b);
        const bool flip = t.s2c - t.ac * (al - m * t.s2a) - t.bc * (be - k * t.s2b) <= 0;
        // A point's three distances from the sides of the input's cell (of
        // the triangle, or of its point reflection where the input is in it).
        const auto distances = [&](double x, double y, double d[3]) {
            const double oa = y + t.radius - m * t.s2a, ob = x * t.sin_c - y * t.cos_c + t.radius - k * t.s2b;
            d[0] = flip ? t.s2a - oa : oa;
            d[1] = flip ? t.s2b - ob : ob;
            d[2] = t.s2c - t.ac * d[0] - t.bc * d[1];
        };
        double in[3], out[3];
        distances(fx, fy, in);
        const cd got = apply("xtrb", fx, fy, w, p, rng) / double(w);
        distances(got.real(), got.imag(), out);
        const double tol = 1e-5 * (1 + std::abs(cd(fx, fy)) + t.s2a + t.s2b);
        int order[3] = {0, 1, 2};
        std::sort(order, order + 3, [&](int a, int b) { return in[a] < in[b]; });
        // The cell's edges, where the input's rounding picks the cell, and
        // near ties of two distances, where it picks the case.
        if (in[order[0]] < tol || in[order[1]] - in[order[0]] < tol || in[order[2]] - in[order[1]] < tol) continue;
        const int c = i % 3;
        ++checked[c];
        outside += *std::min_element(out, out + 3) < -tol;
        kept[c] += std::fabs(out[order[0]] - widths[c] * in[order[0]]) < tol &&
                   std::fabs(out[order[1]] - widths[c] * in[order[1]]) < tol;
    }
    CHECK(outside == 0);
    for (int c = 0; c < 3; ++c) {
        CHECK(checked[c] > 9000);
        CHECK(fj::test::frequency_ok(kept[c], checked[c], widths[c] * widths[c]));
    }
}

TEST_CASE("fractorium tiles2: xtrb with radius 0 (NaN in Fractorium) is julian of the input point, its limit") {
    Sampler s(313);
    fj::Rng rng = fj::make_rng(313, 0);
    int wrong = 0, checked = 0;
    for (int i = 0; i < 5000; ++i) {
        const float fx = s.uni(-900, 900), fy = s.uni(-900, 900), w = s.uni(-2, 2);
        const double n = int(s.uni(1, 5)) * (i % 2 ? 1 : -1);
        const std::vector<float> p = {float(n), 0, s.uni(0, 1), s.uni(-1, 2), s.uni(0.1, 1.4), s.uni(0.1, 1.4)};
        fj::Rng replay = rng;
        fj::rand01(replay);  // the fill's draw, made all the same
        const double root = std::min(std::floor(fj::rand01(replay) * std::fabs(n)), std::fabs(n) - 1);
        const double x = fx, y = fy;
        const cd got = apply("xtrb", fx, fy, w, p, rng);
        if (std::fabs(y) < 1e-3 && x < 0) continue;  // the julian's seam
        const cd want = std::polar(w * std::pow(x * x + y * y, p[3] / n / 2), (std::atan2(y, x) + 2 * M_PI * root) / n);
        wrong += !near(got, want, 8);
        ++checked;
    }
    CHECK(wrong == 0);
    CHECK(checked > 4900);
}
