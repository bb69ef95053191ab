// flamejit — tests of frame planning and the post-pass against libflam3 and hand-worked values.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <initializer_list>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

extern "C" {
#include <flam3.h>

// Exported by libflam3 but declared only in its private headers (filters.h,
// palettes.h of flam3 3.1.1).
typedef struct {
    int max_filtered_counts;
    int max_filter_index;
    int kernel_size;
    double* filter_widths;
    double* filter_coefs;
} flam3_de_helper;
flam3_de_helper flam3_create_de_filters(double max_rad, double min_rad, double curve, int ss);
int flam3_create_spatial_filter(flam3_frame* spec, int field, double** filter);
double flam3_calc_alpha(double density, double gamma, double linrange);
void flam3_calc_newrgb(double* cbuf, double ls, double highpow, double* newrgb);
void rgb2hsv(double* rgb, double* hsv);
void hsv2rgb(double* hsv, double* rgb);
}

#include "pipeline/frame_plan.h"
#include "post/color_curves.h"
#include "post/post_cpu.h"
#include "post/post_plan.h"
#include "post/tone.h"
#include "huge_pages.h"
#include "post_fixtures.h"

using fj::test::bent_curves;
using fj::test::close;
using fj::test::curve_plan;
using fj::test::random_accumulator;
using fj::test::small_frame;

namespace {

// The first flame of /usr/share/flam3/test.flam3, attributes read by hand.
fj::Flame test0() {
    fj::Flame f;
    f.width = 640;
    f.height = 480;
    f.center_x = f.center_y = 0;
    f.scale = 240;
    f.zoom = 0;
    f.supersample = 1;
    f.filter_radius = 1;
    f.quality = 10;
    f.brightness = 4;
    f.gamma = 4;
    f.vibrancy = 1;
    return f;
}

// flam3's spatial filter of a shape, radius and supersample, from a frame
// of one zeroed genome; width 0 (and no taps) where flam3 refuses it.
struct Flam3Filter {
    int width = 0;
    std::vector<double> taps;
};

Flam3Filter flam3_spatial_filter(int shape, double radius, int supersample, double pixel_aspect = 1,
                                 int field = flam3_field_both) {
    auto genome = std::unique_ptr<flam3_genome, decltype(&std::free)>(
        static_cast<flam3_genome*>(std::calloc(1, sizeof(flam3_genome))), &std::free);
    flam3_frame frame;
    std::memset(&frame, 0, sizeof frame);
    frame.pixel_aspect_ratio = pixel_aspect;
    frame.genomes = genome.get();
    frame.ngenomes = 1;
    genome->spatial_filter_select = shape;
    genome->spatial_filter_radius = radius;
    genome->spatial_oversample = supersample;
    double* ref = nullptr;
    Flam3Filter out;
    const int width = flam3_create_spatial_filter(&frame, field, &ref);
    if (width > 0) {
        out.width = width;
        out.taps.assign(ref, ref + width * width);
    }
    free(ref);
    return out;
}

}  // namespace

TEST_CASE("post: density-estimation bank matches flam3_create_de_filters") {
    struct Setting { double radius, minimum, curve; int os; };
    const Setting settings[] = {{9, 0, 0.4, 1}, {9, 0, 0.4, 2}, {5, 1, 0.6, 1}, {3, 0.5, 0.3, 3},
                                {20, 0, 0.4, 1}, {4, 0, 1.0, 2}, {2, 2, 0.4, 1}, {12, 3, 0.25, 1}};
    for (const Setting& s : settings) {
        CAPTURE(s.radius);
        CAPTURE(s.minimum);
        CAPTURE(s.curve);
        CAPTURE(s.os);
        flam3_de_helper ref = flam3_create_de_filters(s.radius, s.minimum, s.curve, s.os);
        REQUIRE(ref.kernel_size > 0);
        fj::DensityBank bank = fj::make_density_bank(s.radius, s.minimum, s.curve, s.os);
        CHECK(bank.kernel_count == ref.max_filter_index + 1);
        CHECK(bank.max_filtered_counts == doctest::Approx(ref.max_filtered_counts));
        CHECK((bank.half_width + 1) * (bank.half_width + 2) / 2 == ref.kernel_size);
        const int half = bank.half_width, row = 2 * half + 1;
        int width_bad = 0, coef_bad = 0;
        for (int k = 0; k < bank.kernel_count && k <= ref.max_filter_index; ++k) {
            if (!close(bank.widths[k], ref.filter_widths[k], 1e-12)) ++width_bad;
            // flam3 keeps the wedge 0 ≤ dx ≤ dy; we keep the full square.
            int idx = k * ref.kernel_size;
            for (int dy = 0; dy <= half; ++dy)
                for (int dx = 0; dx <= dy; ++dx, ++idx) {
                    double want = ref.filter_coefs[idx];
                    const float* c = &bank.coefs[size_t(k) * row * row];
                    double got[4] = {c[(half + dy) * row + half + dx], c[(half - dy) * row + half - dx],
                                     c[(half + dx) * row + half + dy], c[(half - dx) * row + half + dy]};
                    for (double g : got)
                        if (!close(g, want, 1e-6, 1e-9)) ++coef_bad;
                }
        }
        CHECK(width_bad == 0);
        CHECK(coef_bad == 0);
        free(ref.filter_widths);
        free(ref.filter_coefs);
    }
    // Defaults give the bank the reference describes (§3.8).
    fj::DensityBank d = fj::make_density_bank(9, 0, 0.4, 1);
    CHECK(d.kernel_count == 110);
    CHECK(d.max_filtered_counts == 416);
}

TEST_CASE("post: a density-estimation bank past 1 GiB is refused before it is built") {
    // 112 at supersample 4: 400-odd kernels of 897² floats, 1.7 GB (radius
    // 1000 at 64 would be terabytes). 80 at 4 (661 MB) is still built.
    CHECK_THROWS_WITH_AS(fj::make_density_bank(112, 0, 0.6, 4),
                         doctest::Contains("estimator_radius 112 at supersample 4 needs 1685.07 MiB of kernels"),
                         std::runtime_error);
    CHECK_THROWS_AS(fj::make_density_bank(700, 0, 0.6, 64), std::runtime_error);
    CHECK(fj::make_density_bank(80, 0, 0.4, 4).kernel_count == 422);
}

TEST_CASE("post: spatial filter matches flam3_create_spatial_filter for all 14 names") {
    for (int id = 0; id < 14; ++id)
        for (double r : {0.5, 1.0, 1.7, 2.5})
            for (int os : {1, 2, 3}) {
                CAPTURE(id);
                CAPTURE(r);
                CAPTURE(os);
                const Flam3Filter ref = flam3_spatial_filter(id, r, os);
                CHECK(ref.width > 0);
                if (ref.width <= 0) continue;
                fj::Flame flame;
                flame.filter_shape = static_cast<fj::FilterShape>(id);
                flame.filter_radius = r;
                flame.supersample = os;
                CHECK(fj::spatial_filter_width(flame) == ref.width);
                fj::SpatialFilter f = fj::make_spatial_filter(flame.filter_shape, r, os);
                CHECK(f.width == ref.width);
                int bad = 0;
                if (f.width == ref.width)
                    for (int n = 0; n < ref.width * ref.width; ++n)
                        if (!close(f.coefs[n], ref.taps[n], 1e-5, 1e-7)) ++bad;
                CHECK(bad == 0);
            }
}

namespace {

// make_spatial_filter against flam3_create_spatial_filter at `aspects`, for
// a whole frame or a field, over five shapes, three radii and two
// supersamples; the taps compared.
int compare_filters_with_flam3(std::initializer_list<double> aspects, bool field) {
    int compared = 0;
    for (double aspect : aspects)
        for (int id : {0, 2, 6, 11, 13})
            for (double r : {0.5, 1.0, 1.7})
                for (int os : {1, 2}) {
                    CAPTURE(aspect);
                    CAPTURE(id);
                    CAPTURE(r);
                    CAPTURE(os);
                    const Flam3Filter ref =
                        flam3_spatial_filter(id, r, os, aspect, field ? flam3_field_odd : flam3_field_both);
                    fj::Flame flame;
                    flame.filter_shape = static_cast<fj::FilterShape>(id);
                    flame.filter_radius = r;
                    flame.supersample = os;
                    if (ref.width == 0) {
                        CHECK_THROWS(fj::make_spatial_filter(flame.filter_shape, r, os, aspect, field));
                        continue;
                    }
                    CHECK(fj::spatial_filter_width(flame, aspect) == ref.width);
                    const fj::SpatialFilter f = fj::make_spatial_filter(flame.filter_shape, r, os, aspect, field);
                    CHECK(f.width == ref.width);
                    if (f.width != ref.width) continue;
                    int bad = 0;
                    for (int n = 0; n < ref.width * ref.width; ++n, ++compared)
                        if (!close(f.coefs[n], ref.taps[n], 1e-12, 1e-15)) ++bad;
                    CHECK(bad == 0);
                }
    return compared;
}

}  // namespace

TEST_CASE("post: with a pixel aspect, the spatial filter is flam3's: wider, and narrower across rows") {
    CHECK(compare_filters_with_flam3({0.5, 0.9, 1.25, 2.0}, false) > 1000);
    // A table past 1 GiB is refused by name, before it is built.
    CHECK_THROWS_WITH_AS(fj::make_spatial_filter(fj::FilterShape::Gaussian, 1000, 64),
                         doctest::Contains("needs 192001 taps a side"), std::runtime_error);
    CHECK_THROWS_WITH_AS(fj::make_spatial_filter(fj::FilterShape::Gaussian, 50, 1, 0.01),
                         doctest::Contains("and pixel aspect 0.01"), std::runtime_error);
    CHECK(fj::make_spatial_filter(fj::FilterShape::Gaussian, 1000, 1).width == 3001);
    // Not symmetric: rows (the first index) narrower than columns.
    const fj::SpatialFilter f = fj::make_spatial_filter(fj::FilterShape::Gaussian, 1.0, 1, 0.5);
    CHECK(f.coefs[f.width / 2] < f.coefs[(f.width / 2) * f.width]);
}

TEST_CASE("post: an interlaced field's spatial filter is flam3's: rows' taps twice as far apart") {
    CHECK(compare_filters_with_flam3({1.0, 0.9, 2.0}, true) > 500);
    // A gaussian's rows fall off twice as fast: not the whole frame's filter.
    CHECK(fj::make_spatial_filter(fj::FilterShape::Gaussian, 1, 1, 1, true).coefs !=
          fj::make_spatial_filter(fj::FilterShape::Gaussian, 1, 1, 1).coefs);
}

TEST_CASE("post: every spatial tap has flam3's sign and value (edge residues included)") {
    // The outermost taps of several kernels are ±1e-17..1e-60 residues
    // (sin(kπ) and the like) whose sign decides which far pixels flam3 draws
    // white; they follow from flam3's order of operations, not its formulas.
    int compared = 0, sign_bad = 0, value_bad = 0;
    for (int id = 0; id < 14; ++id)
        for (double r : {0.3, 0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0})
            for (int os : {1, 2, 3}) {
                CAPTURE(id);
                CAPTURE(r);
                CAPTURE(os);
                const Flam3Filter ref = flam3_spatial_filter(id, r, os);
                if (ref.width == 0) {  // a kernel with no weight: flam3 refuses it, and so do we
                    CHECK_THROWS(fj::make_spatial_filter(static_cast<fj::FilterShape>(id), r, os));
                    continue;
                }
                const fj::SpatialFilter f = fj::make_spatial_filter(static_cast<fj::FilterShape>(id), r, os);
                CHECK(f.width == ref.width);
                if (f.width != ref.width) continue;
                for (int n = 0; n < ref.width * ref.width; ++n, ++compared) {
                    const double t = ref.taps[n];
                    if ((f.coefs[n] > 0) != (t > 0) || (f.coefs[n] < 0) != (t < 0)) ++sign_bad;
                    if (!close(f.coefs[n], t, 1e-12, 0)) ++value_bad;
                }
            }
    CHECK(compared > 10000);
    CHECK(sign_bad == 0);
    CHECK(value_bad == 0);
}

TEST_CASE("post: tone snippets match flam3_calc_alpha and flam3_calc_newrgb") {
    const double densities[] = {0, 1e-5, 0.003, 0.0099, 0.01, 0.02, 0.3, 1, 4.5};
    const double gammas[] = {1.0, 2.2, 4.0};
    const double lins[] = {0.0, 0.01, 0.2};
    int alpha_bad = 0;
    for (double d : densities)
        for (double g : gammas)
            for (double lin : lins) {
                double want = flam3_calc_alpha(d, 1 / g, lin);
                double got = fj::tone_alpha(float(d), float(1 / g), float(lin));
                if (!close(got, want, 2e-6, 1e-9)) ++alpha_bad;
            }
    CHECK(alpha_bad == 0);

    const double colours[][3] = {{0, 0, 0}, {10, 20, 30}, {255, 0, 0}, {200, 180, 3},
                                 {90, 90, 90}, {0.5, 2, 1}, {30, 250, 120}};
    const double scales[] = {0, 0.5, 3, 40, 400, 3000};
    const double powers[] = {-1, -0.5, 0, 0.5, 1, 3};
    int rgb_bad = 0, tried = 0;
    for (auto& c : colours)
        for (double ls : scales)
            for (double hp : powers) {
                double cbuf[4] = {c[0], c[1], c[2], 0}, want[3];
                flam3_calc_newrgb(cbuf, ls, hp, want);
                float cf[3] = {float(c[0]), float(c[1]), float(c[2])}, got[3];
                fj::tone_scale_rgb(cf, float(ls), float(hp), got);
                for (int i = 0; i < 3; ++i, ++tried)
                    if (!close(got[i], want[i], 2e-5, 1e-4)) ++rgb_bad;
            }
    CHECK(tried == 7 * 6 * 6 * 3);
    CHECK(rgb_bad == 0);
}

TEST_CASE("post: in double, colour scaling and HSV are bit-identical to libflam3's") {
    // The CPU tone-maps in double in flam3's order of operations, so that
    // truncation meets the same 254.999… flam3 produces where highlight
    // power pins a channel at 255 (two thirds of such pixels read 254).
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> unit(0, 1);
    int rgb_bad = 0, hsv_bad = 0, pinned = 0, pinned_254 = 0;
    for (int n = 0; n < 20000; ++n) {
        double c[3] = {unit(rng) * 3000, unit(rng) * 3000, unit(rng) * 3000};
        if (n % 5 == 0) c[n % 3] = 0;
        const double ls = n % 7 == 0 ? 0.0 : unit(rng) * 50;
        const double hp = std::vector<double>{-1, -0.6, 0, 0.5, 1, 2.5}[n % 6];
        double cbuf[4] = {c[0], c[1], c[2], 0}, want[3], got[3];
        flam3_calc_newrgb(cbuf, ls, hp, want);
        fj::tone_scale_rgb(c, ls, hp, got);
        for (int i = 0; i < 3; ++i)
            if (std::memcmp(&got[i], &want[i], sizeof(double)) != 0) ++rgb_bad;
        if (hp >= 0 && std::max({c[0], c[1], c[2]}) * ls / 255 > 255) {
            ++pinned;
            pinned_254 += std::max({want[0], want[1], want[2]}) < 255.0;
        }
        double rgb[3] = {unit(rng), unit(rng), unit(rng)}, h_want[3], h_got[3], back_want[3], back_got[3];
        if (n % 4 == 0) rgb[1] = rgb[0];
        rgb2hsv(rgb, h_want);
        fj::tone_rgb_to_hsv(rgb, h_got);
        hsv2rgb(h_want, back_want);
        fj::tone_hsv_to_rgb(h_want, back_got);
        for (int i = 0; i < 3; ++i)
            if (std::memcmp(&h_got[i], &h_want[i], sizeof(double)) || std::memcmp(&back_got[i], &back_want[i], sizeof(double)))
                ++hsv_bad;
    }
    CHECK(rgb_bad == 0);
    CHECK(hsv_bad == 0);
    MESSAGE("highlight-pinned colours: " << pinned << ", of which flam3 leaves " << pinned_254 << " below 255");
    CHECK(pinned > 1000);
    CHECK(pinned_254 > pinned / 4);  // the effect this reproduces is real
}

TEST_CASE("post: a double result truncates to the level flam3 truncates it to, through the float image") {
    CHECK(static_cast<int>(fj::toward_zero_float(254.99999999999997)) == 254);
    CHECK(static_cast<int>(fj::toward_zero_float(255.0)) == 255);
    CHECK(static_cast<int>(fj::toward_zero_float(17.0000001)) == 17);
    CHECK(static_cast<unsigned>(fj::toward_zero_float(254.99999999999997) * 256.0f) == 65279u);
    CHECK(fj::toward_zero_float(0.0) == 0.0f);
    CHECK(fj::toward_zero_float(-1e-300) <= 0.0f);
}

TEST_CASE("post: k1 and k2 of test.flam3's first flame match flam3's dump") {
    fj::Flame f = test0();
    fj::FramePlan plan = fj::plan_frame(f);
    fj::PostPlan post = fj::make_post_plan(f, plan);
    CHECK(post.k1 == doctest::Approx(1067.8125).epsilon(1e-12));
    CHECK(post.k2 == doctest::Approx(7.3529e-5).epsilon(1e-4));
    // A quality override changes k2 in inverse proportion (k2 ∝ 1/density).
    fj::FramePlan plan40 = fj::plan_frame(f, 40);
    CHECK(fj::make_post_plan(f, plan40).k2 == doctest::Approx(post.k2 / 4).epsilon(1e-12));
}

TEST_CASE("frame plan: gutter, de_offset, sizes and samples follow flam3 render_rectangle") {
    fj::Flame f = test0();
    fj::FramePlan p = fj::plan_frame(f);
    // Gaussian r=1, os=1: 5 taps → gutter 2; DE radius 9 needs 9 → de_offset 7.
    CHECK(p.gutter == 9);
    CHECK(p.de_offset == 7);
    CHECK(p.hist_width == 640 + 18);
    CHECK(p.hist_height == 480 + 18);
    CHECK(p.sample_density == doctest::Approx(10));
    CHECK(p.samples == uint64_t(10) * 640 * 480);

    f.supersample = 2;
    f.zoom = 1;
    f.estimator_radius = 0;
    p = fj::plan_frame(f);
    // os=2, r=1: fw=6 → 7 → 8 taps (even parity) → gutter 3, no DE.
    CHECK(p.gutter == 3);
    CHECK(p.de_offset == 0);
    CHECK(p.hist_width == 1280 + 6);
    CHECK(p.sample_density == doctest::Approx(40));   // quality · 4^zoom
    CHECK(p.samples == uint64_t(40) * 640 * 480);     // supersample adds none

    f.width = 200000;
    f.height = 200000;
    CHECK_THROWS_AS(fj::plan_frame(f), std::runtime_error);
    f = test0();
    f.quality = -1;
    CHECK_THROWS_AS(fj::plan_frame(f), std::runtime_error);
    f = test0();
    f.width = 0;
    CHECK_THROWS_AS(fj::plan_frame(f), std::runtime_error);
}

TEST_CASE("frame plan: camera maps centre, edge and rotation as flam3 does") {
    fj::Flame f = test0();
    f.center_x = 0.3;
    f.center_y = -0.2;
    f.supersample = 2;
    fj::FramePlan p = fj::plan_frame(f);
    auto map = [&](double x, double y, double& cx, double& cy) {
        const double* m = p.world_to_cell;
        cx = m[0] * x + m[1] * y + m[2];
        cy = m[3] * x + m[4] * y + m[5];
    };
    double cx, cy;
    map(0.3, -0.2, cx, cy);
    CHECK(std::floor(cx) == p.hist_width / 2);
    CHECK(std::floor(cy) == p.hist_height / 2);
    // Half the image width to the right: the first cell past the image.
    map(0.3 + 320.0 / p.ppux, -0.2, cx, cy);
    CHECK(cx == doctest::Approx(p.gutter + 2 * 640));
    CHECK(cy == doctest::Approx(p.gutter + 480));
    // A point just inside the right edge lands in the last image column.
    map(0.3 + 319.9 / p.ppux, -0.2, cx, cy);
    CHECK(int(std::floor(cx)) == p.gutter + 2 * 640 - 1);
    // +y is down: a point above the centre in world units has a larger row.
    map(0.3, -0.2 + 10 / p.ppuy, cx, cy);
    CHECK(cy == doctest::Approx(p.hist_height / 2.0 + 20));

    // rotate = 90: x' = x cos − y sin, y' = x sin + y cos, so +x goes to +y (down).
    f.rotate = 90;
    p = fj::plan_frame(f);
    map(0.3 + 10 / p.ppux, -0.2, cx, cy);
    CHECK(cx == doctest::Approx(p.hist_width / 2.0));
    CHECK(cy == doctest::Approx(p.hist_height / 2.0 + 20));
}

TEST_CASE("frame plan: the point grid is the float spacing at the picture's largest coordinate, in cells") {
    // The spacing of floats from the float next to a value (not a power of 2).
    auto spacing = [](double v) {
        const float f = static_cast<float>(v);
        return double(std::nextafter(f, 2 * f)) - double(f);
    };
    fj::Flame f = test0();
    f.width = 320;
    f.height = 240;
    f.center_x = 1.2857142857142858;
    f.center_y = 0;
    f.scale = 7e7;
    f.rotate = 25;
    fj::FramePlan p = fj::plan_frame(f);
    CHECK(fj::point_grid_cells(f, p) == doctest::Approx(spacing(1.2857142857142858) * 7e7));
    CHECK(fj::point_grid_cells(f, p) > 8);
    // Supersampling makes the cells smaller, and the grid as many cells wider.
    f.supersample = 3;
    CHECK(fj::point_grid_cells(f, fj::plan_frame(f)) == doctest::Approx(3 * spacing(1.2857142857142858) * 7e7));
    // A field: half the rows at half ppuy, the same picture, the same grid.
    f.supersample = 1;
    CHECK(fj::point_grid_cells(f, fj::plan_frame(f, 0, 1, fj::Field::Odd)) == doctest::Approx(fj::point_grid_cells(f, p)));
    // Centred on the origin the largest coordinate is the corners' reach:
    // 3 by 4 world units from the centre, 5 from it at a corner.
    f.center_x = 0;
    f.width = 600;
    f.height = 800;
    f.scale = 100;
    CHECK(fj::point_grid_cells(f, fj::plan_frame(f)) == doctest::Approx(spacing(5.1) * 100));
    CHECK(fj::point_grid_cells(f, fj::plan_frame(f)) < 1e-3);
}

TEST_CASE("frame plan: an interlaced field is half the rows at half ppuy, moved as flam3's rect.c moves it") {
    for (double aspect : {1.0, 0.8})
        for (fj::Field field : {fj::Field::Even, fj::Field::Odd}) {
            CAPTURE(aspect);
            CAPTURE(field == fj::Field::Even);
            fj::Flame f = test0();
            f.center_x = 0.3;
            f.center_y = -0.2;
            f.rotate = 30;
            f.supersample = 2;
            const fj::FramePlan whole = fj::plan_frame(f, 0, aspect);
            const fj::FramePlan p = fj::plan_frame(f, 0, aspect, field);
            CHECK(p.field == field);
            CHECK(p.width == 640);
            CHECK(p.height == 240);
            CHECK(p.gutter == whole.gutter);
            CHECK(p.hist_height == 2 * 240 + 2 * p.gutter);
            CHECK(p.samples == whole.samples / 2);
            // The same k2: half the rows, each twice as tall in world units.
            CHECK(fj::make_post_plan(f, p).k2 == doctest::Approx(fj::make_post_plan(f, whole).k2).epsilon(1e-12));
            // flam3's bounds: ppuy = ppu/2 (before the aspect), shift ∓0.5/ppux.
            const double ppux = 240 / aspect, ppuy = 120, g = p.gutter, os = 2;
            const double shift = (field == fj::Field::Even ? -0.5 : 0.5) / ppux;
            const double corner1 = -0.2 - 240 / ppuy / 2;
            const double by0 = corner1 - g / (os * ppuy) + shift, by1 = corner1 + 240 / ppuy + g / (os * ppuy) + shift;
            const double theta = 30 * M_PI / 180;
            for (const auto& [x, y] : {std::pair{0.3, -0.2}, std::pair{1.1, 0.4}, std::pair{-0.7, -1.3}}) {
                // Rotated about the centre, then placed in the bounds (§3.5).
                const double ry = (x - 0.3) * std::sin(theta) + (y + 0.2) * std::cos(theta) - 0.2;
                const double row = p.hist_height * (ry - by0) / (by1 - by0);
                const double* m = p.world_to_cell;
                CHECK(m[3] * x + m[4] * y + m[5] == doctest::Approx(row).epsilon(1e-12));
                CHECK(m[0] * x + m[1] * y + m[2] == doctest::Approx(whole.world_to_cell[0] * x +
                                                                    whole.world_to_cell[1] * y +
                                                                    whole.world_to_cell[2]).epsilon(1e-12));
            }
        }
    fj::Flame odd = test0();
    odd.height = 481;
    CHECK_THROWS_WITH_AS(fj::plan_frame(odd, 0, 1, fj::Field::Even), doctest::Contains("even image height"),
                         std::runtime_error);
}

TEST_CASE("post cpu: one cell without DE gives the hand-worked pixel") {
    fj::Flame f;
    f.width = 4;
    f.height = 3;
    f.scale = 2;
    f.quality = 5;
    f.supersample = 1;
    f.filter_shape = fj::FilterShape::Box;   // radius 0.5, os 1: a single tap of weight 1
    f.filter_radius = 0.5;
    f.estimator_radius = 0;
    f.brightness = 3;
    f.gamma = 2.5;
    f.gamma_threshold = 0.01;
    f.vibrancy = 1;
    f.background[0] = 0.2;
    fj::FramePlan plan = fj::plan_frame(f);
    REQUIRE(plan.gutter == 0);
    REQUIRE(plan.hist_width == 4);
    fj::PostPlan post = fj::make_post_plan(f, plan);
    REQUIRE(post.filter.width == 1);
    CHECK(post.density.kernel_count == 0);

    // 7 hits of palette colour (0.5, 0.25, 0, 1) in cell (2, 1).
    std::vector<float> accum(4 * 4 * 3, 0.0f);
    const double hits = 7;
    float* cell = &accum[4 * (1 * 4 + 2)];
    cell[0] = float(255 * 0.5 * hits);
    cell[1] = float(255 * 0.25 * hits);
    cell[2] = 0;
    cell[3] = float(255 * hits);
    fj::PostStats stats;
    fj::ImageF img = fj::post_process_cpu(post, accum.data(), 2, &stats);
    REQUIRE(img.width == 4);
    REQUIRE(img.height == 3);
    CHECK(stats.nonempty_cells == 1);
    CHECK(stats.alpha_sum == doctest::Approx(255 * hits));
    CHECK_FALSE(stats.density_estimation);

    // By hand: k1 = 3·255·268/256; area = 4·3/(2·2) = 3 units²;
    // k2 = 1/(area·255·quality); log scaling keeps colour ratios.
    double k1 = 3 * 255 * 268 / 256.0, k2 = 1 / (3.0 * 255 * 5);
    double a = 255 * hits, scaled_a = k1 * std::log(1 + k2 * a), ls = scaled_a / a;
    double t[3] = {255 * 0.5 * hits * ls, 255 * 0.25 * hits * ls, 0};
    double d = scaled_a / 255;                       // above the 0.01 threshold
    double alpha = std::pow(d, 1 / 2.5);
    double s = 256 * alpha / d;                      // vibrancy 1
    REQUIRE(s * t[0] / 255 < 255);                   // no clipping in this example
    double want[4] = {s * t[0] / 255 + (1 - std::min(alpha, 1.0)) * 0.2 * 256, s * t[1] / 255, 0,
                      std::min(alpha, 1.0)};
    const float* px = &img.rgba[4 * (1 * 4 + 2)];
    for (int i = 0; i < 4; ++i) CHECK(px[i] == doctest::Approx(want[i]).epsilon(1e-5));
    // An empty pixel shows the background (0.2·256 in red) with alpha 0.
    const float* empty = &img.rgba[0];
    CHECK(empty[0] == doctest::Approx(0.2 * 256));
    CHECK(empty[1] == 0);
    CHECK(empty[3] == 0);
}

TEST_CASE("post cpu: density estimation spreads lone hits and is thread-count independent") {
    fj::Flame f;
    f.width = 40;
    f.height = 30;
    f.scale = 10;
    f.quality = 1;
    f.supersample = 2;
    f.estimator_radius = 5;
    f.estimator_minimum = 0;
    fj::FramePlan plan = fj::plan_frame(f);
    fj::PostPlan post = fj::make_post_plan(f, plan);
    REQUIRE(post.density.kernel_count > 1);
    std::vector<float> accum(size_t(4) * plan.hist_width * plan.hist_height, 0.0f);
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> cx(0, plan.hist_width - 1), cy(0, plan.hist_height - 1);
    for (int n = 0; n < 3000; ++n) {
        float* c = &accum[4 * (size_t(cy(rng)) * plan.hist_width + cx(rng))];
        c[0] += 255 * 0.9f;
        c[1] += 255 * 0.4f;
        c[2] += 255 * 0.1f;
        c[3] += 255;
    }
    fj::ImageF one = fj::post_process_cpu(post, accum.data(), 1);
    fj::ImageF three = fj::post_process_cpu(post, accum.data(), 3);
    CHECK(one.rgba == three.rgba);

    // A lone hit in the middle of an empty histogram: with DE its light
    // reaches pixels 2 away (kernel 0 has radius estimator·os + 1 cells);
    // without DE it stays in one pixel (gaussian r 0.5 barely blurs).
    std::fill(accum.begin(), accum.end(), 0.0f);
    int hx = plan.de_offset + 20 * 2 + 1, hy = plan.de_offset + 15 * 2 + 1;
    float* c = &accum[4 * (size_t(hy) * plan.hist_width + hx)];
    c[0] = c[1] = c[2] = c[3] = 255;
    fj::ImageF de = fj::post_process_cpu(post, accum.data(), 2);
    fj::PostPlan plain = post;
    plain.density = fj::DensityBank{};
    fj::ImageF no_de = fj::post_process_cpu(plain, accum.data(), 2);
    auto alpha_at = [&](const fj::ImageF& img, int x, int y) { return img.rgba[4 * (y * 40 + x) + 3]; };
    CHECK(alpha_at(de, 22, 15) > 0);
    CHECK(alpha_at(no_de, 22, 15) == 0);
    CHECK(alpha_at(no_de, 20, 15) > alpha_at(de, 20, 15));
}

TEST_CASE("post cpu: a ZeroedBuffer holds +0.0f everywhere, small or mapped, and moves") {
    // 1000 floats come from calloc, 3 M from fresh pages; both must read as
    // +0.0f (not just == 0) since the post-pass adds into them.
    for (size_t count : {size_t(0), size_t(1000), size_t(3) << 20}) {
        fj::ZeroedBuffer buffer(count);
        REQUIRE(buffer.size() == count);
        size_t nonzero = 0;
        for (size_t i = 0; i < count; ++i) {
            uint32_t bits;
            std::memcpy(&bits, buffer.data() + i, sizeof bits);
            nonzero += bits != 0;
        }
        CHECK(nonzero == 0);
        if (count == 0) continue;
        buffer.data()[count - 1] = 5.0f;
        fj::ZeroedBuffer moved = std::move(buffer);
        CHECK(buffer.data() == nullptr);
        CHECK(buffer.empty());
        CHECK(moved.size() == count);
        CHECK(moved.data()[count - 1] == 5.0f);
    }
}

TEST_CASE("post cpu: a ZeroedArray reads as zeros again after clear and reset, small or mapped") {
    for (size_t count : {size_t(100), size_t(1) << 20}) {
        CAPTURE(count);
        fj::ZeroedArray<fj::u64> words(count);
        for (size_t i = 0; i < count; i += 7) words[i] = ~fj::u64(0);
        words.clear();
        size_t nonzero = 0;
        for (size_t i = 0; i < count; ++i) nonzero += words[i] != 0;
        CHECK(nonzero == 0);
        words[count - 1] = 3;
        words.reset(count);  // the same size: cleared in place
        CHECK(words[count - 1] == 0);
        words.reset(count / 2);  // another size: new memory
        CHECK(words.size() == count / 2);
        for (size_t i = 0; i < count / 2; ++i) nonzero += words[i] != 0;
        CHECK(nonzero == 0);
    }
}

TEST_CASE("color curves: Fractorium's spline through hand-computed values, and the identity left out") {
    // Points (0, 0), (0.5, 0.8), (1, 1): widths 0.5, slopes 1.6 and 0.4,
    // second-derivative estimates 0, 3(0.4 - 1.6)/1 = -3.6, 0; on [0, 0.5]
    // y = -1.2 t^3 + 1.9 t, on [0.5, 1] y = 1.2 t^3 - 1.8 t^2 + t + 0.8.
    const std::vector<fj::ColorCurves::Point> bend = {{0, 0}, {0.5, 0.8}, {1, 1}};
    CHECK(fj::color_curve_value(bend, 0.25f) == doctest::Approx(-1.2 * 0.015625 + 1.9 * 0.25).epsilon(1e-6));
    CHECK(fj::color_curve_value(bend, 0.75f) ==
          doctest::Approx(1.2 * 0.015625 - 1.8 * 0.0625 + 0.25 + 0.8).epsilon(1e-6));
    for (float x : {0.0f, 0.5f, 1.0f}) CHECK(fj::color_curve_value(bend, x) == doctest::Approx(x == 0.5f ? 0.8 : x));
    // Inputs beyond the end points take the end points' values.
    const std::vector<fj::ColorCurves::Point> inner = {{0.2, 0.3}, {0.6, 0.5}};
    CHECK(fj::color_curve_value(inner, 0.0f) == doctest::Approx(0.3));
    CHECK(fj::color_curve_value(inner, 1.0f) == doctest::Approx(0.5));

    fj::ColorCurves curves;
    CHECK(fj::color_curve_table(curves).empty());
    curves.points[0] = {{0, 0}, {0.25, 0.25}, {1, 1}};
    CHECK(fj::color_curve_table(curves).empty());  // on the diagonal: no change
    curves.points[2] = bend;
    const std::vector<float> table = fj::color_curve_table(curves);
    REQUIRE(table.size() == 4u * fj::kCurveEntries);
    const int quarter = (fj::kCurveEntries - 1) / 4;
    CHECK(table[4 * quarter + 2] == doctest::Approx(fj::color_curve_value(bend, quarter / 65535.0f)));
    CHECK(table[4 * quarter + 1] == doctest::Approx(quarter / 65535.0));  // red: none given
}

TEST_CASE("color curves: every toned channel goes through the overall curve, then its own, once") {
    fj::Flame f = small_frame();
    const fj::FramePlan plan = fj::plan_frame(f);
    const std::vector<float> accum = random_accumulator(plan, 21);
    fj::Flame bent_flame = f;
    bent_flame.curves = bent_curves();
    // Under early clip the cells are toned before the filter and the
    // filtered pixels only clamped: the curves come once, at the end.
    for (bool earlyclip : {false, true}) {
        CAPTURE(earlyclip);
        const fj::ImageF plain = fj::post_process_cpu(curve_plan(f, plan, earlyclip), accum.data(), 2, nullptr);
        const fj::PostPlan post = curve_plan(bent_flame, plan, earlyclip);
        REQUIRE(post.curves.size() == 4u * fj::kCurveEntries);
        const fj::ImageF bent = fj::post_process_cpu(post, accum.data(), 2, nullptr);
        // The lookups as Fractorium makes them, on flam3's scale (256 = white).
        // The image holds each value rounded to float, which can move a lookup
        // to the next entry: a few hundredths of a level on these curves.
        const auto expect = [&](double v, int channel) {
            const auto entry = [](double u) { return static_cast<int>(std::clamp(u * 65535.0, 0.0, 65535.0)); };
            const int i = entry(v / 256.0), j = entry(post.curves[4 * i]);
            return std::min(255.0, 256.0 * post.curves[4 * j + 1 + channel]);
        };
        int checked = 0, changed = 0;
        for (size_t p = 0; p < plain.rgba.size(); p += 4)
            for (int c = 0; c < 3; ++c) {
                const double v = plain.rgba[p + c];
                if (!(v < 254.0)) continue;  // clamped without curves: its value is gone
                ++checked;
                changed += std::fabs(bent.rgba[p + c] - v) > 1.0;
                CHECK(std::fabs(bent.rgba[p + c] - expect(v, c)) < 0.05);
            }
        CHECK(checked > 1000);
        CHECK(changed > checked / 4);
        for (size_t p = 3; p < plain.rgba.size(); p += 4) CHECK(bent.rgba[p] == plain.rgba[p]);  // alpha untouched
    }
}
