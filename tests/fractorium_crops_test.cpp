// flamejit — Fractorium's crops (circlecrop, circlecrop2, hexcrop, octapol,
// crop, cropn, hypercrop, vignette), against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// No Fractorium is at hand, so each crop is checked in double precision
// against its definition, with the region it keeps found another way where
// there is one: the hexagon, the octagon's corner triangles and cropn's
// polygon by half-plane tests, hypercrop's discs by distance to every disc
// centre, not only the one of the point's sector. Points within a small
// distance of a region's edge are skipped: there the float input's rounding
// may put the point on either side. Random draws are replayed from a copy
// of the stream, and the stream is checked to move on by exactly the draws
// the definition makes. hexcrop and octapol, which drop or keep the sum of
// the variations before them, start from a sum that is not 0.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <random>
#include <tuple>
#include <vector>

#include "cpu/variation_table.h"
#include "test_support.h"

namespace {

using cd = std::complex<double>;
using fj::test::near;
const auto apply = &fj::test::host_variation;

// The host build of `name` at (x, y), added to the sum `sum`.
cd apply_to(const char* name, float x, float y, float w, const std::vector<float>& p, fj::Rng& rng, cd sum) {
    const fj::cpu::VariationEntry* v = fj::cpu::find_variation(name);
    REQUIRE_MESSAGE(v, name);
    static const fj::Affine identity{1, 0, 0, 0, 1, 0};
    float ox = float(sum.real()), oy = float(sum.imag()), c = 0.5f;
    v->fn(fj::make_var_in(x, y, &identity), p.data(), w, rng, ox, oy, c);
    return {ox, oy};
}

// Whether two streams stand at the same place.
bool same_place(const fj::Rng& a, const fj::Rng& b) { return a.state == b.state; }

// Signed distance of q from the line through a and b, positive on its left.
double side(cd a, cd b, cd q) {
    const cd d = b - a, e = q - a;
    return (d.real() * e.imag() - d.imag() * e.real()) / std::abs(d);
}

// For a convex polygon (either orientation): +1 strictly inside, −1 outside,
// 0 within `margin` of an edge's line while not clearly outside.
int convex_inside(const std::vector<cd>& poly, cd q, double margin) {
    double lo = 1e300, hi = -1e300;
    for (size_t i = 0; i < poly.size(); ++i) {
        const double s = side(poly[i], poly[(i + 1) % poly.size()], q);
        lo = std::min(lo, s);
        hi = std::max(hi, s);
    }
    if (lo > margin || hi < -margin) return 1;
    if (lo < -margin && hi > margin) return -1;
    return 0;
}

float clampf(float v, float lo, float hi) { return std::min(std::max(v, lo), hi); }

}  // namespace

TEST_CASE("fractorium crops: circlecrop keeps its disc and sends the rest to 0 or onto its circle, one draw each") {
    std::mt19937 gen(71);
    std::uniform_real_distribution<float> coord(-3, 3), centre(-1, 1), radius(0.2f, 2), scatter(-1.5f, 1.5f);
    const float zeros[] = {0, 0.5f, 1, 2, -1};
    fj::Rng rng = fj::make_rng(71, 0);
    int wrong = 0, inside = 0, cropped = 0, circled = 0;
    for (int i = 0; i < 8000; ++i) {
        const float x = coord(gen), y = coord(gen), cx = centre(gen), cy = centre(gen), R = radius(gen);
        const float sc = scatter(gen), zero = zeros[i % 5], w = 0.7f;
        const cd c(cx, cy), d = cd(x, y) - c;
        if (std::fabs(std::abs(d) - R) < 1e-5) continue;  // on the circle: either side
        fj::Rng replay = rng;
        const double u = fj::rand01(replay);
        const cd got = apply("circlecrop", x, y, w, {R, cx, cy, sc, zero}, rng);
        wrong += !same_place(rng, replay);
        cd want;
        if (std::abs(d) < R) {
            want = c + double(w) * d;  // the centre is not weighted
            ++inside;
        } else if (zero >= 1) {
            want = 0;  // only a zero of 1 (after clamping) crops
            ++cropped;
        } else {
            want = c + w * (R + u * 0.5 * clampf(sc, -1, 1)) * d / std::abs(d);
            ++circled;
        }
        wrong += !near(got, want, 4);
    }
    CHECK(wrong == 0);
    CHECK(inside > 500);
    CHECK(cropped > 500);
    CHECK(circled > 1000);
    // A negative radius puts every point outside; the centre has no
    // direction and goes along +x.
    fj::Rng replay = rng;
    const double u = fj::rand01(replay);
    CHECK(near(apply("circlecrop", 0.5f, -0.25f, 2, {-1, 0.5f, -0.25f, 0.5f, 0}, rng),
               cd(0.5, -0.25) + 2 * (-1 + u * 0.25) * cd(1, 0)));
}

TEST_CASE("fractorium crops: circlecrop2 keeps its annulus and puts the rest at 0 or on the mirrored outer circle") {
    std::mt19937 gen(72);
    std::uniform_real_distribution<float> coord(-2.5f, 2.5f), radius(-0.5f, 2);
    const float zeros[] = {0, -1, 0.3f, 1, 5};
    fj::Rng rng = fj::make_rng(72, 0);
    int wrong = 0, kept = 0, mirrored = 0, cropped = 0;
    for (int i = 0; i < 8000; ++i) {
        const float x = coord(gen), y = coord(gen), a = radius(gen), b = radius(gen), zero = zeros[i % 5];
        const double w = -0.9, r = std::hypot(double(x), double(y));
        const double lo = std::min(a, b), hi = std::max(a, b);
        if (std::fabs(r - lo) < 1e-5 || std::fabs(r - hi) < 1e-5) continue;
        const cd got = apply("circlecrop2", x, y, float(w), {a, b, zero}, rng);
        cd want = 0;
        if (r >= lo && r <= hi) {
            want = w * cd(x, y);
            ++kept;
        } else if (zero <= 0) {  // zero clamps to [0, 1]; only 0 keeps the point
            want = w * hi * cd(y / r, x / r);  // (sin φ, cos φ): the direction mirrored in y = x
            ++mirrored;
        } else {
            ++cropped;
        }
        wrong += !near(got, want, 4);
    }
    CHECK(wrong == 0);
    CHECK(kept > 500);
    CHECK(mirrored > 500);
    CHECK(cropped > 500);
    // The origin (inside the hole) lands on +y.
    CHECK(near(apply("circlecrop2", 0, 0, 2, {0.5f, 1.5f, 0}, rng), cd(0, 3)));
}

TEST_CASE("fractorium crops: hexcrop keeps the sum and adds the shifted point inside its hexagon, else sets the drop-off") {
    std::mt19937 gen(73);
    std::uniform_real_distribution<float> coord(-3, 3), scale(-2, 2), shift(-1, 1), sum(-5, 5);
    fj::Rng rng = fj::make_rng(73, 0);
    int wrong = 0, in = 0, out = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), sx = scale(gen), sy = scale(gen), cx = shift(gen), cy = shift(gen);
        const float drop = i % 2 ? 1e10f : sum(gen), w = 0.8f;
        if (std::fabs(sx) < 0.05f || std::fabs(sy) < 0.05f) continue;
        const cd s(sum(gen), sum(gen)), q = cd(x, y) + cd(cx, cy);
        // The hexagon with corners (±1/2, ±3/(2√2)) and (±√2, 0), scaled.
        const double hy = 3 / (2 * std::sqrt(2.0));
        std::vector<cd> hex{{-0.5, hy}, {0.5, hy}, {std::sqrt(2.0), 0}, {0.5, -hy}, {-0.5, -hy}, {-std::sqrt(2.0), 0}};
        for (cd& v : hex) v = cd(v.real() * sx, v.imag() * sy);
        const int where = convex_inside(hex, q, 1e-4);
        if (where == 0) continue;
        const cd got = apply_to("hexcrop", x, y, w, {sx, sy, cx, cy, drop}, rng, s);
        const cd want = where > 0 ? s + double(w) * q : cd(drop, drop);
        wrong += !near(got, want, 4);
        (where > 0 ? in : out)++;
    }
    CHECK(wrong == 0);
    CHECK(in > 1000);
    CHECK(out > 1000);
    // scale_y 0 flattens the hexagon: nothing is inside.
    CHECK(apply_to("hexcrop", 0.1f, 0, 1, {1, 0, 0, 0, 7}, rng, cd(1, 1)) == cd(7, 7));
}

TEST_CASE("fractorium crops: octapol blends in its disc, doubles in its corner triangles and drops the sum elsewhere") {
    std::mt19937 gen(74);
    std::uniform_real_distribution<float> coord(-6, 6), par(-1.5f, 1.5f), sum(-3, 3);
    fj::Rng rng = fj::make_rng(74, 0);
    int wrong = 0, disc = 0, corner = 0, cropped = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), pw = par(gen), rad = i % 3 ? par(gen) : 0.0f;
        const float s = par(gen), t = par(gen), w = 0.6f;
        const cd sm(sum(gen), sum(gen));
        const cd q = 0.15 * cd(x, y);
        const double as = std::fabs(s), at = std::fabs(t), h = as / 2, R = 0.707106781 * as * std::fabs(rad);
        const double r = std::abs(q);
        if (R > 0 && std::fabs(r - R) < 1e-5) continue;
        cd want;
        if (R > 0 && r < R) {
            // log((r/R)²) drives the blend of q towards (angle, radius).
            const double k = std::log(r * r / (R * R)) * pw;
            if (std::fabs(k) > 50) continue;  // near the origin the blend is log-singular
            want = sm + double(w) * (cd(q.real() + (std::arg(q) - q.real()) * k, q.imag() + (r - q.imag()) * k) + q);
            ++disc;
        } else {
            // The four corner triangles, between the central square's
            // corners and the octagon's diagonal sides; the side rectangles
            // Fractorium names are empty for s, t ≠ 0.
            const std::vector<std::vector<cd>> tris{{{-h, h}, {-h, h + at}, {-at, h}},
                                                    {{h, h}, {h, h + at}, {at, h}},
                                                    {{h, -h}, {at, -h}, {h, -h - at}},
                                                    {{-h, -h}, {-h, -h - at}, {-at, -h}}};
            int in = -1;
            for (const auto& tri : tris) {
                const int c = convex_inside(tri, q, 1e-4);
                if (c == 0) in = 0;
                if (c > 0 && in != 0) in = 1;
            }
            if (in == 0 || std::fabs(std::fabs(t) - std::fabs(s) / 2) < 1e-3) continue;  // edge, or a degenerate triangle
            if (in > 0) {
                want = sm + 2.0 * w * q;
                ++corner;
            } else {
                want = double(w) * q;  // the sum before it is dropped
                ++cropped;
            }
        }
        wrong += !near(apply_to("octapol", x, y, w, {pw, rad, s, t}, rng, sm), want, 20);
    }
    CHECK(wrong == 0);
    CHECK(disc > 1000);
    CHECK(corner > 300);
    CHECK(cropped > 3000);
    // The side rectangles: with t > 0 the middle of the top side (s/2 < qy
    // < s/2 + t) is cropped, dropping the sum; with t = 0 the top edge of
    // the square is a segment that keeps it (radius 0: no disc).
    const cd sm(1, -2);
    const float ym = 0.35f / 0.15f;
    CHECK(near(apply_to("octapol", 0, ym, 1, {0, 0, 0.5f, 0.4f}, rng, sm), cd(0, 0.15 * ym)));
    float yt = 0.25f / 0.15f;  // 0.15·yt exactly 0.25 = s/2
    while (0.15f * yt < 0.25f) yt = std::nextafter(yt, 10.0f);
    while (0.15f * yt > 0.25f) yt = std::nextafter(yt, 0.0f);
    REQUIRE(0.15f * yt == 0.25f);
    CHECK(near(apply_to("octapol", 0.5f, yt, 1, {0, 0, 0.5f, 0}, rng, sm), sm + 2.0 * cd(0.15 * 0.5f, 0.25)));
    // The origin in the disc: the log is −∞ and the blend is taken as 0.
    CHECK(apply_to("octapol", 0, 0, 1, {0.7f, 1, 0.5f, 0.5f}, rng, sm) == sm);
}

TEST_CASE("fractorium crops: crop zeroes or redraws coordinates beyond its rectangle, one draw per coordinate redrawn") {
    std::mt19937 gen(75);
    std::uniform_real_distribution<float> coord(-3, 3), edge(-2, 2), scatter(-1, 1);
    const float zeros[] = {0, 0.4f, 0.6f, 1, 3, -2};
    fj::Rng rng = fj::make_rng(75, 0);
    int wrong = 0, redrawn = 0, zeroed = 0;
    for (int i = 0; i < 8000; ++i) {
        const float x = coord(gen), y = coord(gen), l = edge(gen), t = edge(gen), r = edge(gen), b = edge(gen);
        const float sc = scatter(gen), zero = zeros[i % 6], w = -1.2f;
        const double x0 = std::min(l, r), x1 = std::max(l, r), y0 = std::min(t, b), y1 = std::max(t, b);
        const bool out = x < x0 || x > x1 || y < y0 || y > y1;
        const bool crops = zero >= 0.5f;  // rounded, clamped to [0, 1]
        fj::Rng replay = rng;
        const cd got = apply("crop", x, y, w, {l, t, r, b, sc, zero}, rng);
        double wx = x, wy = y;
        int draws = 0;
        if (out && crops) {
            wx = wy = 0;
            ++zeroed;
        } else {
            if (x < x0 || x > x1) {
                const double u = fj::rand01(replay);
                wx = x < x0 ? x0 + u * (x1 - x0) / 2 * sc : x1 - u * (x1 - x0) / 2 * sc;
                ++draws;
            }
            if (y < y0 || y > y1) {
                const double u = fj::rand01(replay);
                wy = y < y0 ? y0 + u * (y1 - y0) / 2 * sc : y1 - u * (y1 - y0) / 2 * sc;
                ++draws;
            }
            redrawn += draws > 0;
        }
        wrong += !near(got, double(w) * cd(wx, wy), 4);
        wrong += !same_place(rng, replay);
    }
    CHECK(wrong == 0);
    CHECK(redrawn > 1000);
    CHECK(zeroed > 1000);
}

TEST_CASE("fractorium crops: cropn keeps (or, with a negative power, crops) the inside of its regular polygon") {
    std::mt19937 gen(76);
    std::uniform_real_distribution<float> coord(-3, 3), radius(0.3f, 2), scatter(-1, 1), weight(-1.5f, 1.5f);
    fj::Rng rng = fj::make_rng(76, 0);
    int wrong = 0, kept = 0, zeroed = 0, pushed = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), R = radius(gen), sd = scatter(gen), w = weight(gen);
        // Whole sides from 2 to 8, either sign; 0 and ±1 act as 2.
        const int n = int(gen() % 19) - 9;
        const float zero = i % 2 ? 0.0f : 0.5f;
        const int sides = std::max(2, std::abs(n));
        // Inside iff on the inner side of every edge line: edge k's normal
        // points at angle −π + 2πk/sides.
        std::vector<cd> normals;
        for (int k = 0; k < sides; ++k) normals.push_back(std::polar(1.0, -M_PI + 2 * M_PI * k / sides));
        double reach = -1e300;
        for (const cd& nk : normals) reach = std::max(reach, nk.real() * x + nk.imag() * y - R);
        if (std::fabs(reach) < 1e-4) continue;
        const bool inside = reach < 0;
        fj::Rng replay = rng;
        const cd got = apply("cropn", x, y, w, {float(n), R, sd, zero}, rng);
        const cd z(x, y);
        cd want;
        if (inside == (n > 0)) {
            want = double(w) * z;
            ++kept;
        } else if (zero == 0) {
            want = 0;
            ++zeroed;
        } else {
            // Along its ray to the boundary, pushed on by scatterdist·u.
            const double phi = std::arg(z);
            double boundary = 1e300, facing = 0;
            for (const cd& nk : normals) {
                const double c = std::cos(phi - std::arg(nk));
                if (c > 1e-12 && R / c < boundary) {
                    boundary = R / c;
                    facing = c;
                }
            }
            // A ray nearly parallel to its edge meets it ill-conditioned.
            if (facing < 0.05) continue;
            want = w * (boundary + fj::rand01(replay) * sd) * z / std::abs(z);
            ++pushed;
        }
        wrong += !near(got, want, 10);
        wrong += !same_place(rng, replay);
    }
    CHECK(wrong == 0);
    CHECK(kept > 1000);
    CHECK(zeroed > 1000);
    CHECK(pushed > 1000);
}

TEST_CASE("fractorium crops: hypercrop cuts its n discs orthogonal to the unit circle") {
    std::mt19937 gen(77);
    std::uniform_real_distribution<float> coord(-2.5f, 2.5f), rads(0.2f, 1);
    fj::Rng rng = fj::make_rng(77, 0);
    int wrong = 0, cut = 0, kept = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), rad = rads(gen), zero = float(i % 3), w = 0.9f;
        const int n = 3 + int(gen() % 6);
        const cd z(x, y);
        // The disc k is centred at 1/cos(π/n) on the ray at π/n + 2πk/n,
        // radius rad·tan(π/n); for rad ≤ 1 they do not overlap.
        const double len = 1 / std::cos(M_PI / n), d = rad * std::tan(M_PI / n);
        int in = -1;
        cd centre;
        bool edge = false;
        for (int k = 0; k < n; ++k) {
            const cd c = std::polar(len, M_PI / n + 2 * M_PI * k / n);
            const double dist = std::abs(z - c);
            edge = edge || std::fabs(dist - d) < 1e-5;
            if (dist < d) {
                in = k;
                centre = c;
            }
        }
        // Also skip the sector edge: a point on it may fall to either sector.
        const double sector = std::atan2(y, x) * n / (2 * M_PI);
        if (edge || std::fabs(sector - std::round(sector)) < 1e-5) continue;
        cd want = z;
        if (in >= 0) {
            want = zero > 1.5f ? centre : zero > 0.5f ? cd(0) : centre + d * (z - centre) / std::abs(z - centre);
            ++cut;
        } else {
            ++kept;
        }
        wrong += !near(apply("hypercrop", x, y, w, {float(n), rad, zero}, rng), double(w) * want, 10);
    }
    CHECK(wrong == 0);
    CHECK(cut > 1000);
    CHECK(kept > 1000);
}

TEST_CASE("fractorium crops: vignette keeps its inner disc and fades beyond it, as often as it should") {
    std::mt19937 gen(78);
    std::uniform_real_distribution<float> coord(-2, 2), par(-1.5f, 1.5f), power(0.3f, 5);
    fj::Rng rng = fj::make_rng(78, 0);
    int wrong = 0, inner = 0, dropped = 0, blurred = 0;
    for (int i = 0; i < 10000; ++i) {
        const float x = coord(gen), y = coord(gen), px = par(gen) / 2, py = par(gen) / 2, ir = par(gen);
        const float fr = par(gen), pw = (i % 2 ? 1 : -1) * power(gen), blur = par(gen), w = 0.8f;
        if (std::fabs(fr) < 0.05f) continue;
        const double dist = std::hypot(double(x) - px, double(y) - py);
        if (std::fabs(dist - std::fabs(ir)) < 1e-5) continue;
        fj::Rng replay = rng;
        const cd got = apply("vignette", x, y, w, {px, py, ir, fr, pw, blur}, rng);
        cd want(x, y);
        if (dist < std::fabs(ir)) {
            if (ir < 0) want = 0;
            ++inner;
        } else {
            const double d = (dist - std::fabs(ir)) / std::fabs(fr);
            const double f = 1 - std::pow(double(fj::rand01(replay)), 1 / std::fabs(double(pw)));
            const double br = blur * std::pow(d * fj::rand01(replay), 2), ba = 2 * M_PI * fj::rand01(replay);
            const bool drop = fr > 0 ? f < d : 1 - f > d;
            if (std::fabs(fr > 0 ? f - d : 1 - f - d) < 1e-5) continue;  // on the fade's edge
            if (drop) {
                want = 0;
                ++dropped;
            } else {
                want += std::polar(br, ba);
                ++blurred;
            }
        }
        wrong += !near(got, double(w) * want, 10);
        wrong += !same_place(rng, replay);
    }
    CHECK(wrong == 0);
    CHECK(inner > 500);
    CHECK(dropped > 1000);
    CHECK(blurred > 1000);
    // At d = 1/2 beyond the inner circle a power-2 vignette keeps (1 − d)² = 1/4
    // of the points, its inverse d² = 1/4 too; power 0.5 keeps √(1/2).
    const int n = 20000;
    for (const auto& [fr, pw, prob] : {std::tuple{1.0f, 2.0f, 0.25}, std::tuple{-1.0f, 2.0f, 0.25},
                                       std::tuple{1.0f, -0.5f, std::sqrt(0.5)}}) {
        int keep = 0;
        for (int i = 0; i < n; ++i) keep += apply("vignette", 1.5f, 0, 1, {0, 0, 1, fr, pw, 0}, rng) != cd(0, 0);
        const double sd = std::sqrt(n * prob * (1 - prob));
        CHECK(std::fabs(keep - n * prob) <= 5 * sd + 1);
    }
    // A zero fade radius or power is float epsilon (signed), not a division by 0.
    fj::Rng a = rng, b = rng;
    CHECK(apply("vignette", 1.5f, 0, 1, {0, 0, 1, 0, 0, 0.5f}, a) ==
          apply("vignette", 1.5f, 0, 1, {0, 0, 1, FJ_FLT_EPSILON, FJ_FLT_EPSILON, 0.5f}, b));
}
