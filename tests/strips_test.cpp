// SPDX-License-Identifier: GPL-3.0-or-later
// Frames rendered in strips (pipeline/strips.h): the strips' geometry, how
// many a memory budget asks for, that their rows are the whole frame's bit
// for bit on the CPU backend, and the PNG written a strip at a time.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "errors.h"
#include "genome/flam3_reader.h"
#include "image/png_io.h"
#include "pipeline/renderer.h"
#include "pipeline/strips.h"
#include "test_support.h"

namespace {

// The bundled genome (density estimation, rotation) made harder for strips:
// an odd height, supersample 2, a wide filter, two passes.
fj::Flame strip_flame(int width, int height) {
    fj::Flame f = fj::read_flam3_file(fj::test::source_path("genomes/default.flam3")).at(0);
    f.scale *= static_cast<double>(width) / f.width;
    f.width = width;
    f.height = height;
    f.supersample = 2;
    f.filter_radius = 1.3;
    f.estimator_radius = 4;
    f.estimator_minimum = 0.5;
    f.passes = 2;
    f.quality = 12;
    return f;
}

// Cells, 16 bytes each: a stand-in for Backend::frame_bytes.
double sixteen_per_cell(const fj::FramePlan& plan) { return 16 * fj::histogram_cells(plan); }

}  // namespace

TEST_CASE("strips: a strip's histogram holds its filter windows and a gutter each side, cut at the frame's edges") {
    const fj::FramePlan frame = fj::plan_frame(strip_flame(90, 67));
    REQUIRE(frame.gutter > 0);
    REQUIRE(frame.de_offset > 0);  // the estimator's reach is wider than the filter's
    const int os = frame.supersample;
    for (int first : {0, 1, 20, 60}) {
        for (int rows : {1, 7}) {
            CAPTURE(first);
            CAPTURE(rows);
            const fj::FramePlan band = fj::band_plan(frame, first, rows);
            // What the filter of the band's rows reads, in the frame's rows.
            const int read_lo = frame.de_offset + first * os;
            const int read_hi = frame.de_offset + (first + rows - 1) * os + frame.filter_width;
            CHECK(band.hist_row0 == std::max(0, read_lo - frame.gutter));
            CHECK(band.hist_row0 + band.hist_height == std::min(frame.hist_height, read_hi + frame.gutter));
            CHECK(band.first_row == first);
            CHECK(band.height == rows);
            CHECK(band.frame_height == frame.height);
            // The camera and the samples stay the whole frame's.
            CHECK(band.samples == frame.samples);
            CHECK(std::memcmp(band.world_to_cell, frame.world_to_cell, sizeof frame.world_to_cell) == 0);
            CHECK(band.hist_width == frame.hist_width);
        }
    }
    CHECK_THROWS_AS(fj::band_plan(frame, 60, 8), std::logic_error);
    CHECK_THROWS_AS(fj::band_plan(fj::band_plan(frame, 0, 5), 0, 1), std::logic_error);
}

TEST_CASE("strips: the fewest strips that fit the budget, or as many as asked") {
    const fj::FramePlan frame = fj::plan_frame(strip_flame(90, 67));
    const double whole = sixteen_per_cell(frame);
    fj::StripPlan one = fj::plan_strips(frame, 0, whole, sixteen_per_cell);
    CHECK(one.count == 1);
    CHECK(one.bytes == whole);
    CHECK(fj::plan_strips(frame, 0, 0, sixteen_per_cell).count == 1);  // no budget

    const fj::StripPlan half = fj::plan_strips(frame, 0, whole / 2, sixteen_per_cell);
    CHECK(half.count > 2);  // each strip also holds its margins
    CHECK(half.bytes <= whole / 2);
    // The rows shared evenly, in order, none left out.
    int next = 0;
    for (int i = 0; i < half.count; ++i) {
        CHECK(half.first_row(i) == next);
        CHECK((half.rows_of(i) == half.rows || half.rows_of(i) == half.rows - 1));
        next += half.rows_of(i);
    }
    CHECK(next == frame.height);
    // One strip fewer would not have fitted.
    const fj::StripPlan fewer = fj::plan_strips(frame, half.count - 1, 0, sixteen_per_cell);
    CHECK(fewer.bytes > whole / 2);
    // Every strip, the shorter ones too, within the estimate.
    for (int i = 0; i < half.count; ++i)
        CHECK(sixteen_per_cell(fj::band_plan(frame, half.first_row(i), half.rows_of(i))) <= half.bytes);

    // As many as asked, whatever the budget: 67 rows in 4 strips, starting at
    // rows 0, 16, 33 and 50 (67 · i / 4, rounded down).
    const fj::StripPlan asked = fj::plan_strips(frame, 4, 1, sixteen_per_cell);
    CHECK(asked.count == 4);
    CHECK(asked.rows == 17);
    CHECK(asked.rows_of(0) == 16);
    CHECK(asked.first_row(2) == 33);
    CHECK(asked.first_row(3) == 50);
    CHECK(asked.rows_of(3) == 17);
    // 67 rows in 6 strips: 6, not the 5 that strips of 12 rows would make.
    const fj::StripPlan six = fj::plan_strips(frame, 6, 0, sixteen_per_cell);
    CHECK(six.count == 6);
    CHECK(six.first_row(5) + six.rows_of(5) == frame.height);
    CHECK(fj::plan_strips(frame, frame.height, 0, sixteen_per_cell).rows == 1);
    // More strips than rows: refused, as flam3 refuses them.
    try {
        fj::plan_strips(frame, frame.height + 1, 0, sixteen_per_cell);
        FAIL("no error");
    } catch (const fj::InputError& e) {
        CHECK(std::string(e.what()) == "image 90x67 has 67 rows, too few for 68 strips");
    }

    // Not even strips of one row fit: an input error naming the need.
    try {
        fj::plan_strips(frame, 0, 1000, sixteen_per_cell);
        FAIL("no error");
    } catch (const fj::InputError& e) {
        CHECK(std::string(e.what()).find("even in strips of one row") != std::string::npos);
    }
}

TEST_CASE("strips: a histogram past 2^31 cells is refused in one piece and planned in two strips") {
    fj::Flame f = strip_flame(60000, 60000);
    f.supersample = 1;
    const fj::FramePlan frame = fj::plan_frame(f);
    CHECK(fj::histogram_cells(frame) > fj::kMaxHistogramCells);
    CHECK_THROWS_AS(fj::plan_strips(frame, 1, 0, sixteen_per_cell), fj::InputError);
    const fj::StripPlan strips = fj::plan_strips(frame, 0, 0, sixteen_per_cell);
    CHECK(strips.count == 2);
    CHECK(strips.cells <= fj::kMaxHistogramCells);
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Cpu;
    fj::Renderer renderer(options);
    const fj::PreparedFrame prepared = fj::prepare_still(f, renderer.frame_options());
    CHECK_THROWS_AS(renderer.render(prepared, 1), fj::InputError);
}

TEST_CASE("strips: on the CPU backend the strips' rows are the whole frame's, bit for bit") {
    const fj::Flame flame = strip_flame(90, 67);
    for (bool earlyclip : {false, true}) {
        CAPTURE(earlyclip);
        fj::RenderOptions options;
        options.backend = fj::BackendChoice::Cpu;
        options.threads = 2;
        options.earlyclip = earlyclip;
        options.transparent = earlyclip;
        fj::Renderer renderer(options);
        const fj::PreparedFrame frame = fj::prepare_still(flame, renderer.frame_options());
        REQUIRE(frame.passes.size() == 2);
        const fj::RenderResult whole = renderer.render(frame, 5);
        REQUIRE(whole.image.height == 67);
        for (int count : {2, 5, 67}) {
            CAPTURE(count);
            const fj::StripPlan strips = renderer.plan_strips(frame, count, 0);
            REQUIRE(strips.count == count);
            std::vector<float> rows;
            for (int i = 0; i < strips.count; ++i) {
                const fj::RenderResult strip = renderer.render_strip(frame, 5, strips, i);
                CHECK(strip.image.height == strips.rows_of(i));
                CHECK(strip.stats.samples == whole.stats.samples);
                CHECK(strip.stats.bad_values == whole.stats.bad_values);
                rows.insert(rows.end(), strip.image.rgba.begin(), strip.image.rgba.end());
            }
            REQUIRE(rows.size() == whole.image.rgba.size());
            CHECK(std::memcmp(rows.data(), whole.image.rgba.data(), rows.size() * sizeof(float)) == 0);
        }
    }
}

TEST_CASE("strips: a PNG written a strip at a time has write_png's pixels, and its text after them") {
    const std::string dir = fj::test::scratch_dir("strips-png");
    fj::ImageF image;
    image.width = 7;
    image.height = 5;
    for (int i = 0; i < 7 * 5 * 4; ++i) image.rgba.push_back(static_cast<float>((i * 37) % 300) - 20.0f);
    for (int bits : {8, 16}) {
        CAPTURE(bits);
        fj::ImageOptions options;
        options.bits = bits;
        options.transparent = bits == 16;
        const std::string whole_png = dir + "/whole" + std::to_string(bits) + ".png";
        const std::string strips_png = dir + "/strips" + std::to_string(bits) + ".png";
        fj::write_png(whole_png, image, options);
        {
            fj::PngStream stream(strips_png, 7, 5, options);
            for (int first : {0, 2, 3}) {
                fj::ImageF rows;
                rows.width = 7;
                rows.height = first == 0 ? 2 : first == 2 ? 1 : 2;
                rows.rgba.assign(image.rgba.begin() + first * 28, image.rgba.begin() + (first + rows.height) * 28);
                stream.write_rows(rows);
            }
            CHECK_FALSE(fj::test::file_exists(strips_png));  // not before finish
            fj::ImageOptions text;
            text.text = {{"flam3_samples", "123"}};
            text.genome_xml = "<flame/>";
            stream.finish(text);
        }
        const fj::PngImage whole = fj::read_png(whole_png);
        const fj::PngImage strips = fj::read_png(strips_png);
        CHECK(strips.bits == bits);
        CHECK(strips.rgba == whole.rgba);
        const auto text = fj::read_png_text(strips_png);
        CHECK(text.at("flam3_samples") == "123");
        CHECK(text.at("flam3_genome") == "<flame/>");
    }
    {
        // Given up before its last row: no file, no temporary left.
        fj::PngStream stream(dir + "/unfinished.png", 7, 5, {});
        fj::ImageF rows = image;
        rows.height = 1;
        rows.rgba.resize(28);
        stream.write_rows(rows);
        CHECK_THROWS_AS(stream.finish({}), std::logic_error);
        rows.width = 6;
        CHECK_THROWS_AS(stream.write_rows(rows), std::logic_error);
    }
    CHECK_FALSE(fj::test::file_exists(dir + "/unfinished.png"));
    int entries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) entries += entry.is_regular_file();
    CHECK(entries == 4);
}
