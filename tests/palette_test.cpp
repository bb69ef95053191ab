// flamejit — palette library, hue rotation and missing-entry interpolation against libflam3.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// genome_test compares whole genomes read by flam3_parse_xml2; these tests
// call the library functions behind it directly over many more inputs:
// flam3_get_palette (library palette by number, hue rotated in flam3's 0..6
// HSV) and flam3_interp_missing_colors (gaps filled linearly, wrapping).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <memory>
#include <random>

extern "C" {
#include <flam3.h>
// Exported by libflam3, declared only in its private parser.h.
int flam3_interp_missing_colors(flam3_genome* cp);
}

#include "genome/palette_library.h"

TEST_CASE("palette: library palettes by number and hue match flam3_get_palette") {
    const std::string file = fj::default_palette_file();
    const double hues[] = {0.0, 0.3, 0.5, 0.999, -0.25, 1.7, 1.0 / 6.0};
    int compared = 0, bad = 0;
    for (int number = 0; number <= 700; number += 7)
        for (double hue : hues) {
            flam3_palette ref;
            REQUIRE(flam3_get_palette(number, ref, hue) == number);
            const std::array<fj::RGBA, 256> ours = fj::library_palette(file, number, hue);
            for (int i = 0; i < 256; ++i) {
                const double got[4] = {ours[i].r, ours[i].g, ours[i].b, ours[i].a};
                for (int k = 0; k < 4; ++k, ++compared)
                    if (std::fabs(got[k] - ref[i].color[k]) > 1e-12) {
                        if (++bad <= 5) FAIL_CHECK("palette " << number << " hue " << hue << " entry " << i << "[" << k << "] " << got[k]
                                                              << " vs flam3 " << ref[i].color[k]);
                    }
            }
        }
    CHECK(compared == 101 * 7 * 256 * 4);
    CHECK(bad == 0);
    // The last palette of the file, and a number it does not have.
    flam3_palette ref;
    REQUIRE(flam3_get_palette(700, ref, 0.0) == 700);
    CHECK(fj::library_palette(file, 700, 0.0)[17].g == doctest::Approx(ref[17].color[1]).epsilon(1e-12));
    CHECK_THROWS(fj::library_palette(file, 701, 0.0));
}

TEST_CASE("palette: missing entries are filled as flam3_interp_missing_colors fills them") {
    std::mt19937 rng(11);
    auto genome = std::unique_ptr<flam3_genome, decltype(&std::free)>(
        static_cast<flam3_genome*>(std::calloc(1, sizeof(flam3_genome))), &std::free);
    int bad = 0;
    for (int trial = 0; trial < 300; ++trial) {
        // Patterns: a few scattered entries (gaps wrap around both ends),
        // a single entry, runs at the ends, and dense ones.
        std::array<bool, 256> present{};
        const int kind = trial % 4;
        const int count = kind == 0 ? 1 : kind == 1 ? 2 + int(rng() % 6) : kind == 2 ? 40 : 200;
        for (int n = 0; n < count; ++n) present[rng() % 256] = true;
        if (trial % 7 == 0) present[0] = true;
        if (trial % 11 == 0) present[255] = true;
        std::array<fj::RGBA, 256> ours{};
        for (int i = 0; i < 256; ++i) {
            genome->palette[i].index = present[i] ? i : -1;
            for (int k = 0; k < 4; ++k) genome->palette[i].color[k] = 0;
            if (present[i]) {
                std::uniform_real_distribution<double> u(0, 1);
                const double c[4] = {u(rng), u(rng), u(rng), u(rng)};
                for (int k = 0; k < 4; ++k) genome->palette[i].color[k] = c[k];
                ours[i] = {c[0], c[1], c[2], c[3]};
            }
        }
        flam3_interp_missing_colors(genome.get());
        fj::fill_missing_palette_entries(ours, present);
        for (int i = 0; i < 256; ++i) {
            const double got[4] = {ours[i].r, ours[i].g, ours[i].b, ours[i].a};
            for (int k = 0; k < 4; ++k)
                if (std::fabs(got[k] - genome->palette[i].color[k]) > 1e-12) {
                    if (++bad <= 5) FAIL_CHECK("trial " << trial << " entry " << i << "[" << k << "] " << got[k] << " vs flam3 "
                                                        << genome->palette[i].color[k]);
                }
        }
    }
    CHECK(bad == 0);
}

TEST_CASE("palette: flam3's HSV round-trips and rotates hue by sextants") {
    // Pure red rotated by a third of a turn is pure green (H 0 → 2 of 6).
    const fj::HSV red = fj::rgb_to_hsv(1, 0, 0);
    CHECK(red.h == 0);
    CHECK(red.s == 1);
    double r, g, b;
    fj::hsv_to_rgb({red.h + 2.0, red.s, red.v}, &r, &g, &b);
    CHECK(r == doctest::Approx(0));
    CHECK(g == doctest::Approx(1));
    CHECK(b == doctest::Approx(0));
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> u(0, 1);
    for (int i = 0; i < 1000; ++i) {
        const double c[3] = {u(rng), u(rng), u(rng)};
        fj::hsv_to_rgb(fj::rgb_to_hsv(c[0], c[1], c[2]), &r, &g, &b);
        CHECK(r == doctest::Approx(c[0]).epsilon(1e-12));
        CHECK(g == doctest::Approx(c[1]).epsilon(1e-12));
        CHECK(b == doctest::Approx(c[2]).epsilon(1e-12));
    }
}

TEST_CASE("palette: a hue any number of turns away converts at once") {
    // Stepping by 6 (flam3's way) never gets 1e300 into 0..6.
    double r, g, b;
    fj::hsv_to_rgb({6e6 + 2.0, 1, 1}, &r, &g, &b);  // whole turns and a third: green
    CHECK(r == 0);
    CHECK(g == 1);
    CHECK(b == 0);
    const double inf = std::numeric_limits<double>::infinity();
    for (double h : {1e300, -1e300, 1.7e308, -1.7e308, inf, -inf, std::numeric_limits<double>::quiet_NaN()}) {
        CAPTURE(h);
        fj::hsv_to_rgb({h, 0.5, 1}, &r, &g, &b);
        for (double c : {r, g, b}) {
            CHECK(c >= 0.5);
            CHECK(c <= 1);
        }
    }
}
