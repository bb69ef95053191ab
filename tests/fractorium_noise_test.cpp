// flamejit — the noise behind crackle, and Fractorium's crackle, crackle2 and
// dc_perlin, against what their definitions say.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// fj::simplex_noise is checked against a double evaluation written here
// another way (the simplex found by sorting the offsets, the gradients from a
// table) and for the properties the variations rely on: zero at the lattice,
// bounded, smooth. crackle, crackle2 and dc_perlin are checked by replaying
// their draws from a copy of the random stream and rebuilding their cells or
// tries in double: crackle's sites and dc_perlin's octaves from the noise
// above, crackle2's offsets from the shader hash (fj::test::shader_hash).
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <complex>
#include <random>
#include <vector>

#include "cpu/variation_table.h"
#include "shared/hashes.h"
#include "shared/noise.h"
#include "test_support.h"

namespace {

using cd = std::complex<double>;

const auto apply = &fj::test::host_variation;
using fj::test::near;
using fj::test::frequency_ok;

// 3D simplex noise in double: skew to the cubic lattice, find the simplex by
// ranking the offsets, and add each corner's (0.6 − d²)⁴ · (gradient · d).
double simplex_reference(double x, double y, double z) {
    static const double kGrad[12][3] = {{1, 1, 0},  {-1, 1, 0},  {1, -1, 0},  {-1, -1, 0},
                                        {1, 0, 1},  {-1, 0, 1},  {1, 0, -1},  {-1, 0, -1},
                                        {0, 1, 1},  {0, -1, 1},  {0, 1, -1},  {0, -1, -1}};
    const double in[3] = {x, y, z};
    const double skew = (x + y + z) / 3;
    std::array<long, 3> base;
    for (int a = 0; a < 3; ++a) base[a] = static_cast<long>(std::floor(in[a] + skew));
    const double unskew = double(base[0] + base[1] + base[2]) / 6;
    std::array<double, 3> off;
    for (int a = 0; a < 3; ++a) off[a] = in[a] - (double(base[a]) - unskew);
    // Axes by decreasing offset; ties keep x before y before z, as the
    // first corner's >= comparisons do.
    std::array<int, 3> order = {0, 1, 2};
    // (Ties have measure zero: random points do not meet them.)
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return off[a] > off[b]; });
    std::array<long, 3> corner = base;
    double n = 0;
    for (int step = 0; step <= 3; ++step) {
        if (step > 0) ++corner[order[step - 1]];
        double d[3], d2 = 0;
        for (int a = 0; a < 3; ++a) {
            d[a] = off[a] - double(corner[a] - base[a]) + step / 6.0;
            d2 += d[a] * d[a];
        }
        const double t = 0.6 - d2;
        if (t <= 0) continue;
        const unsigned h = fj::lattice_hash(int(corner[0]), int(corner[1]), int(corner[2])) % 12u;
        const double dot = (kGrad[h][0] * d[0] + kGrad[h][1] * d[1] + kGrad[h][2] * d[2]) / std::sqrt(2.0);
        n += t * t * t * t * dot;
    }
    return 32 * n;
}

// crackle's site of grid cell (col, row), in double from the noise.
cd crackle_site(long col, long row, double z, double s, double d) {
    // The noise's arguments as the definition spells them in float.
    const float c = 2.5f * float(col), r = 2.5f * float(row), zz = 2.5f * float(z);
    return cd((double(col) + d * fj::simplex_noise(c, r, zz)) * s,
              (double(row) + d * fj::simplex_noise(r + 30.2f, c - 12.1f, zz + 19.8f)) * s);
}

// What crackle's definition gives for the drawn point u: the nearest of the
// 3×3 sites around u's cell, then the 3×3 around that site's cell; l the
// largest ratio of u's place between the site and each neighbour's wall.
struct CrackleCell {
    cd site;
    double l;
    double second_gap;  // how much nearer the chosen site is than the next (relative)
};

CrackleCell crackle_cell(cd u, double z, double s, double d) {
    long col = long(std::floor(u.real() / s)), row = long(std::floor(u.imag() / s));
    double best = 1e300, next = 1e300;
    long bc = 0, br = 0;
    for (long dc = -1; dc <= 1; ++dc)
        for (long dr = -1; dr <= 1; ++dr) {
            const double d2 = std::norm(crackle_site(col + dc, row + dr, z, s, d) - u);
            if (d2 < best) {
                next = best;
                best = d2;
                bc = dc;
                br = dr;
            } else {
                next = std::min(next, d2);
            }
        }
    col += bc;
    row += br;
    const cd c = crackle_site(col, row, z, s, d);
    double l = -1e300;
    for (long dc = -1; dc <= 1; ++dc)
        for (long dr = -1; dr <= 1; ++dr) {
            if (dc == 0 && dr == 0) continue;
            const cd e = crackle_site(col + dc, row + dr, z, s, d) - c;
            l = std::max(l, 2 * ((u.real() - c.real()) * e.real() + (u.imag() - c.imag()) * e.imag()) / std::norm(e));
        }
    return {c, l, (next - best) / std::max(best, 1e-30)};
}

// crackle's drawn point, replayed from a copy of the stream.
cd crackle_point(fj::Rng replay) {
    const double a = fj::rand01(replay), b = fj::rand01(replay), c = fj::rand01(replay), t = fj::rand01(replay);
    const float blur = 0.5f * (float(a) + float(b)) + 0.25f * (float(c) - 0.5f);
    const float angle = FJ_2PI * float(t);
    return cd(double(blur) * std::sin(double(angle)), double(blur) * std::cos(double(angle)));
}

}  // namespace

TEST_CASE("fractorium noise: simplex_noise equals a double evaluation that finds the simplex by sorting") {
    std::mt19937 gen(80);
    std::uniform_real_distribution<float> coord(-40, 40);
    int wrong = 0;
    for (int i = 0; i < 20000; ++i) {
        const float x = coord(gen), y = coord(gen), z = coord(gen);
        const double want = simplex_reference(x, y, z), got = fj::simplex_noise(x, y, z);
        // The float's offsets carry the rounding of coordinates up to 40.
        if (std::fabs(got - want) > 2e-4) {
            ++wrong;
            if (wrong <= 5) MESSAGE("(" << x << ", " << y << ", " << z << "): " << got << " vs " << want);
        }
    }
    CHECK(wrong == 0);
}

TEST_CASE("fractorium noise: simplex_noise is zero at the lattice, within ±1, centred and smooth") {
    std::mt19937 gen(81);
    std::uniform_int_distribution<int> lattice(-50, 50);
    for (int i = 0; i < 1000; ++i) {
        const int a = lattice(gen), b = lattice(gen), c = lattice(gen);
        // The lattice point (a, b, c) of the skewed grid, in input space
        // (rounded to float: the slope below times its rounding is ~1e-5).
        const double u = double(a + b + c) / 6;
        CHECK(std::fabs(fj::simplex_noise(float(a - u), float(b - u), float(c - u))) < 1e-4);
    }
    std::uniform_real_distribution<float> coord(-100, 100), step(-1e-3f, 1e-3f);
    double sum = 0, sum_abs = 0, max_abs = 0, max_slope = 0;
    const int n = 100000;
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), z = coord(gen);
        const double v = fj::simplex_noise(x, y, z);
        sum += v;
        sum_abs += std::fabs(v);
        max_abs = std::max(max_abs, std::fabs(v));
        const float dx = step(gen), dy = step(gen), dz = step(gen);
        const double moved = std::sqrt(double(dx) * dx + double(dy) * dy + double(dz) * dz);
        max_slope = std::max(max_slope, std::fabs(fj::simplex_noise(x + dx, y + dy, z + dz) - v) / moved);
    }
    MESSAGE("mean " << sum / n << ", mean |v| " << sum_abs / n << ", max |v| " << max_abs << ", max slope "
                    << max_slope);
    CHECK(max_abs <= 1.0);
    CHECK(max_abs > 0.5);  // the range is used, not a sliver of it
    CHECK(std::fabs(sum / n) < 0.01);
    CHECK(sum_abs / n > 0.1);
    // Smooth: no jumps between neighbouring points (the slope of this noise
    // stays below about 5; a jump of 0.01 over 1e-3 would read 10 and more).
    CHECK(max_slope < 8);
}

TEST_CASE("fractorium noise: crackle with distort 0 pushes the drawn point from its square cell's centre") {
    std::mt19937 gen(82);
    std::uniform_real_distribution<float> cells(0.05f, 1.5f), powers(0.2f, 2), scales(-2, 2), coord(-3, 3);
    fj::Rng rng = fj::make_rng(82, 0);
    int wrong = 0, wrong_sites = 0, checked = 0;
    for (int i = 0; i < 6000; ++i) {
        const float cellsize = cells(gen), power = powers(gen), scale = scales(gen);
        const double s = cellsize / 2.0, w = 0.7;
        const cd u = crackle_point(rng);
        const CrackleCell cell = crackle_cell(u, 0, s, 0);
        // With no jitter the nearest site is the grid point u rounds to.
        const cd rounded(std::round(u.real() / s) * s, std::round(u.imag() / s) * s);
        // scale 0 leaves the site itself, from the same draws.
        fj::Rng same = rng;
        const cd site = apply("crackle", 0, 0, 1, {cellsize, power, 0, 0, 0}, same);
        const cd got = apply("crackle", coord(gen), coord(gen), float(w), {cellsize, power, 0, scale, 0}, rng);
        // Near a wall (a tie between sites) or near l = 0 (|l|^power/l
        // steep) a float's rounding moves the result: not judged.
        if (cell.second_gap < 1e-3 || std::fabs(cell.l) < 1e-2) continue;
        ++checked;
        wrong_sites += !near(site, rounded, 10);
        const double f = std::pow(std::fabs(cell.l), power) * scale / cell.l;
        const cd want = w * (cell.site + f * (u - cell.site));
        wrong += !near(got, want, 10);
    }
    CHECK(wrong == 0);
    CHECK(wrong_sites == 0);
    CHECK(checked > 5000);
    // power 1, scale 1: the drawn point itself, a soft disc of radius 1.
    double rmax = 0, rsum = 0;
    for (int i = 0; i < 4000; ++i) {
        const cd want = crackle_point(rng);
        const cd got = apply("crackle", 0, 0, 1, {0.3f, 1, 0, 1, 0}, rng);
        wrong += !near(got, want, 10);
        rmax = std::max(rmax, std::abs(got));
        rsum += std::abs(got);
    }
    CHECK(wrong == 0);
    CHECK(rmax <= 1.125 + 1e-6);
    CHECK(rmax > 1.05);
    CHECK(rsum / 4000 == doctest::Approx(0.5).epsilon(0.05));
}

TEST_CASE("fractorium noise: crackle with distort finds the nearest jittered site and its walls") {
    std::mt19937 gen(83);
    std::uniform_real_distribution<float> cells(0.05f, 1.5f), distort(-1, 1), powers(0.2f, 2), zs(-5, 5);
    fj::Rng rng = fj::make_rng(83, 0);
    int wrong = 0, checked = 0, sites = 0, global = 0, moved = 0;
    for (int i = 0; i < 4000; ++i) {
        const float cellsize = cells(gen), d = distort(gen), power = powers(gen), z = zs(gen);
        const float scale = i % 2 == 0 ? 0.0f : 1.0f;  // 0: the site itself
        const double s = cellsize / 2.0, w = -1.3;
        const cd u = crackle_point(rng);
        const CrackleCell cell = crackle_cell(u, z, s, d);
        const cd got = apply("crackle", 0, 0, float(w), {cellsize, power, d, scale, z}, rng);
        if (cell.second_gap < 1e-3 || std::fabs(cell.l) < 1e-2) continue;
        ++checked;
        const double f = scale == 0 ? 0 : std::pow(std::fabs(cell.l), power) / cell.l;
        wrong += !near(got, w * (cell.site + f * (u - cell.site)), 10);
        if (scale != 0) continue;
        // The variation's own site: whether it is the nearest of all sites
        // (a 7×7 search), as a Voronoi cell's is unless the jitter outruns
        // the 3×3 search, and whether the jitter moved it off the grid.
        const cd site = got / w;
        ++sites;
        const long col = long(std::floor(u.real() / s)), row = long(std::floor(u.imag() / s));
        double best = 1e300;
        cd nearest;
        for (long dc = -3; dc <= 3; ++dc)
            for (long dr = -3; dr <= 3; ++dr) {
                const cd c = crackle_site(col + dc, row + dr, z, s, d);
                if (std::norm(c - u) < best) {
                    best = std::norm(c - u);
                    nearest = c;
                }
            }
        global += near(site, nearest, 10);
        moved += std::abs(site - cd(std::round(u.real() / s) * s, std::round(u.imag() / s) * s)) > 1e-3 * s;
    }
    CHECK(wrong == 0);
    CHECK(checked > 3000);
    CHECK(sites > 1500);
    CHECK(global > sites * 95 / 100);
    CHECK(moved > sites / 2);  // the jitter does move the sites
}

namespace {

// crackle2's site of unit cell (a, b): its offset is the fraction of the
// shader hash, scaled by 1/cellsize.
cd crackle2_site(float a, float b, float inv) {
    return cd(a + double(inv) * fj::test::shader_hash(a, b, 34554.0f),
              b + double(inv) * fj::test::shader_hash(b, 3.0f * a, 34561.0f));
}

}  // namespace

TEST_CASE("fractorium noise: crackle2 lands between its cell's site and a random neighbour's, unweighted") {
    std::mt19937 gen(84);
    std::uniform_real_distribution<float> coord(-20, 20), sizes(0.3f, 3);
    fj::Rng rng = fj::make_rng(84, 0);
    const int n = 20000;
    int wrong = 0, classified = 0, reached[4] = {0, 0, 0, 0};
    const float steps[4][2] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    for (int i = 0; i < n; ++i) {
        const float x = coord(gen), y = coord(gen), size = sizes(gen), inv = 1.0f / size;
        fj::Rng replay = rng;
        const bool vertical = fj::rand01(replay) < 0.5f, plus = fj::rand01(replay) < 0.5f;
        const double t = fj::rand01(replay);
        const float cx = std::floor(x), cy = std::floor(y);
        const float nx = vertical ? cx : cx + (plus ? 1.0f : -1.0f), ny = vertical ? cy + (plus ? 1.0f : -1.0f) : cy;
        const cd a = crackle2_site(cx, cy, inv), b = crackle2_site(nx, ny, inv);
        // The weight (here 0.3) is not applied.
        const cd got = apply("crackle2", x, y, 0.3f, {size}, rng);
        wrong += !near(got, (a + (b - a) * t) * double(size), 10);
        // The neighbour whose segment the output lies on, where only one
        // is near (all four meet at the cell's site).
        double gap[4];
        for (int k = 0; k < 4; ++k) {
            const cd e = crackle2_site(cx + steps[k][0], cy + steps[k][1], inv) - a, v = got / double(size) - a;
            const double along = std::clamp((v * std::conj(e)).real() / std::norm(e), 0.0, 1.0);
            gap[k] = std::abs(v - along * e);
        }
        const int k = int(std::min_element(gap, gap + 4) - gap);
        const double tol = 1e-5 * (1 + std::abs(a));
        if (gap[k] > tol || std::count_if(gap, gap + 4, [&](double g) { return g < 10 * tol; }) > 1) continue;
        ++classified;
        ++reached[k];
    }
    CHECK(wrong == 0);
    CHECK(classified > n * 9 / 10);
    for (int count : reached) CHECK(frequency_ok(count, classified, 0.25));
    // Where the segment's parameter is near 0 the output is the cell's site,
    // which lies in its cell's corner square of side 1/cellsize.
    int outside = 0;
    for (int i = 0; i < 300; ++i) {
        const float x = coord(gen), y = coord(gen), size = sizes(gen), inv = 1.0f / size;
        // A place in the stream where the third draw, the parameter, is small.
        double t;
        for (;; fj::rand01(rng)) {
            fj::Rng replay = rng;
            fj::rand01(replay);
            fj::rand01(replay);
            if ((t = fj::rand01(replay)) < 1e-4) break;
        }
        const cd site = apply("crackle2", x, y, 1, {size}, rng) / double(size);
        const double cx = std::floor(x), cy = std::floor(y);
        // The neighbour's site is at most 1 + 1/cellsize away on each axis.
        const double tol = 2 * t * (1 + inv) + 1e-5 * (1 + std::abs(site));
        outside += site.real() < cx - tol || site.real() > cx + inv + tol || site.imag() < cy - tol ||
                   site.imag() > cy + inv + tol;
    }
    CHECK(outside == 0);
    // cellsize below Fractorium's bound of 0.0001 reads as 0.0001.
    fj::Rng r1 = rng, r2 = rng;
    CHECK(near(apply("crackle2", 0.5f, 0.5f, 1, {0}, r1), apply("crackle2", 0.5f, 0.5f, 1, {0.0001f}, r2)));
}

namespace {

// dc_perlin as its definition reads, in double but for the noise (float
// arguments, as the variation passes them): the accepted try's point, its
// noise, and whether some try's sharpened noise came within `margin` of the
// band's edges or an argument grew past 100 (then a float's rounding may
// decide differently: not judged).
struct PerlinTry {
    double x = 0, y = 0, noise = 0;
    int tries = 0;
    bool delicate = false;
};

PerlinTry dc_perlin_reference(const std::vector<float>& p, fj::Rng replay) {
    const int shape = int(std::clamp(std::floor(p[0] + 0.5), 0.0, 2.0));
    const int map = int(std::clamp(std::floor(p[1] + 0.5), 0.0, 5.0));
    const double sc = std::clamp(double(p[2]), -1.0, 1.0), sr = std::clamp(double(p[3]), 0.1, 2.0);
    const double edge = p[6], scale = p[7], amps = p[9], freqs = p[10], z = p[11];
    const int octaves = int(std::clamp(std::floor(p[8] + 0.5), 1.0, 5.0));
    const int bailout = int(std::clamp(std::floor(p[12] + 0.5), 2.0, 1000.0));
    double bottom = std::min(sc - sr, 0.75), top = std::max(sc + sr, -0.75);
    if (bottom < -2) bottom = -3;
    if (top > 3) top = 3;
    PerlinTry t;
    for (;;) {
        double r, e = 0;
        if (shape == 0) {
            t.x = (1 + edge) * (fj::rand01(replay) - 0.5);
            t.y = (1 + edge) * (fj::rand01(replay) - 0.5);
            r = std::max(std::fabs(t.x), std::fabs(t.y));
        } else {
            if (shape == 1) {
                const double a = fj::rand01(replay), b = fj::rand01(replay);
                r = a + b > 1 ? 2 - (a + b) : a + b;  // the tent: the sum folded at 1
            } else {
                r = fj::rand01(replay);
            }
            r *= 1 + edge;
            const double angle = 2 * M_PI * fj::rand01(replay);
            t.x = r / 2 * std::sin(angle);
            t.y = r / 2 * std::cos(angle);
        }
        if (r > 1 - edge) e = (r - 1 + edge) / (2 * edge);
        const double q = t.x * t.x + t.y * t.y;
        double v[3] = {scale * t.x, scale * t.y, scale * z};
        if (map >= 1 && map <= 3) {
            const double inv = 1 / (map == 1 ? q : q + (map == 2 ? 0.5 : 0.25));
            v[0] *= inv;
            v[1] *= inv;
        } else if (map >= 4) {
            v[2] = scale * ((map == 4 ? 1 : 2) * std::sqrt(std::fabs(0.25 - q)) + z);
        }
        t.noise = 0;
        double amp = 1;
        for (int o = 0; o < octaves; ++o) {
            for (double c : v) t.delicate = t.delicate || std::fabs(c) > 100;
            t.noise += fj::simplex_noise(float(v[0]), float(v[1]), float(v[2])) / amp;
            amp *= amps;
            v[0] *= freqs * freqs;  // x twice, z never: Fractorium's octave step
            v[1] *= freqs;
        }
        const double sharp = t.noise * (1 + 20 * e * e) + (t.noise > 0 ? 2 * e : -2 * e);
        const double margin = 1e-3 * std::max(1.0, std::fabs(sharp));
        t.delicate = t.delicate || std::fabs(sharp - bottom) < margin || std::fabs(sharp - top) < margin ||
                     std::fabs(t.noise) < 1e-4;
        const bool inside = sharp >= bottom && sharp <= top;
        if (inside || t.tries++ >= bailout) return t;
    }
}

}  // namespace

TEST_CASE("fractorium noise: dc_perlin keeps the tries whose noise falls in the band, coloured by it") {
    const fj::cpu::VariationEntry* v = fj::cpu::find_variation("dc_perlin");
    REQUIRE(v != nullptr);
    std::mt19937 gen(85);
    std::uniform_real_distribution<float> unit(0, 1), sym(-1, 1);
    fj::Rng rng = fj::make_rng(85, 0);
    static const fj::Affine identity{1, 0, 0, 0, 1, 0};
    int wrong_point = 0, wrong_colour = 0, checked = 0, retried = 0, gave_up = 0;
    for (int i = 0; i < 6000; ++i) {
        // shape, map, select_centre, select_range, centre, range, edge,
        // scale, octaves, amps, freqs, z, bailout
        const std::vector<float> p = {3 * unit(gen) - 0.5f, 6 * unit(gen) - 0.5f, sym(gen), 0.05f + unit(gen),
                                      sym(gen), 2 * sym(gen), 0.3f * unit(gen), 0.5f + 1.5f * unit(gen),
                                      0.5f + 3 * unit(gen), 0.5f + 2 * unit(gen), 0.5f + 1.5f * unit(gen),
                                      sym(gen), 1 + 20 * unit(gen)};
        const PerlinTry want = dc_perlin_reference(p, rng);
        const double w = 0.9;
        float ox = 0, oy = 0, c = 0.5f;
        v->fn(fj::make_var_in(sym(gen), sym(gen), &identity), p.data(), float(w), rng, ox, oy, c);
        if (want.delicate) continue;
        ++checked;
        retried += want.tries > 0;
        gave_up += want.tries > int(std::clamp(std::floor(p[12] + 0.5), 2.0, 1000.0));
        wrong_point += !near(cd(ox, oy), w * cd(want.x, want.y), 10);
        const double col = p[4] + p[5] * want.noise;
        const double frac = col - std::floor(col);
        // A fraction near 0 or 1 may wrap either way.
        wrong_colour += std::fabs(c - frac) > 1e-4 && std::fabs(std::fabs(c - frac) - 1) > 1e-4;
    }
    MESSAGE(checked << " judged, " << retried << " drew again, " << gave_up << " gave up");
    CHECK(wrong_point == 0);
    CHECK(wrong_colour == 0);
    CHECK(checked > 4000);
    CHECK(retried > checked / 10);
    CHECK(gave_up > 0);
}
