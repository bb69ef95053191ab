// flamejit — tests of JPEG and PPM output (and input, for compare).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// References: flam3-render's own JPEG and PPM files of one seeded render
// (their bytes, comments and layout), the PNG writer's samples for the
// pixels, libjpeg's decoder, and the file system for how files are written.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "image/jpeg_io.h"
#include "image/png_io.h"
#include "image/ppm_io.h"
#include "pipeline/frame_batch.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;

// A smooth image in flam3's output scale, some of it beyond 0..255, alpha
// varying; `detail` adds a diagonal line and noise.
fj::ImageF make_image(int width, int height, bool detail = false) {
    fj::ImageF image;
    image.width = width;
    image.height = height;
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            image.rgba.push_back(255.0f * x / (width - 1));
            image.rgba.push_back(127.5f + 127.0f * std::sin(0.3f * y));
            const float blue = 100.0f + 130.0f * std::cos(0.15f * (x + y));
            image.rgba.push_back(!detail ? blue : x == y ? 300.0f : 0.5f * static_cast<float>((x * y) % 500));
            image.rgba.push_back(static_cast<float>(x) / width);
        }
    return image;
}

// The COM markers of a JPEG file, in order, up to the first scan.
std::vector<std::string> comment_markers(const std::string& bytes) {
    std::vector<std::string> comments;
    size_t at = 2;
    while (at + 4 <= bytes.size() && static_cast<unsigned char>(bytes[at]) == 0xff) {
        const unsigned char marker = static_cast<unsigned char>(bytes[at + 1]);
        if (marker == 0xda) break;  // SOS
        const size_t length = static_cast<size_t>(static_cast<unsigned char>(bytes[at + 2])) << 8 |
                              static_cast<unsigned char>(bytes[at + 3]);
        if (marker == 0xfe) comments.push_back(bytes.substr(at + 4, length - 2));
        at += 2 + length;
    }
    return comments;
}

// The file without its COM markers.
std::string without_comments(const std::string& bytes) {
    std::string out = bytes.substr(0, 2);
    size_t at = 2;
    while (at + 4 <= bytes.size() && static_cast<unsigned char>(bytes[at]) == 0xff) {
        const unsigned char marker = static_cast<unsigned char>(bytes[at + 1]);
        if (marker == 0xda) break;
        const size_t length = static_cast<size_t>(static_cast<unsigned char>(bytes[at + 2])) << 8 |
                              static_cast<unsigned char>(bytes[at + 3]);
        if (marker != 0xfe) out += bytes.substr(at, 2 + length);
        at += 2 + length;
    }
    return out + bytes.substr(at);
}

double mean_rgb_difference(const fj::PngImage& a, const fj::PngImage& b) {
    double sum = 0;
    for (size_t i = 0; i < a.rgba.size(); ++i)
        if (i % 4 != 3) sum += std::fabs(double(a.rgba[i]) - double(b.rgba[i]));
    return sum / (a.rgba.size() * 3 / 4);
}

size_t files_in(const std::string& dir) {
    size_t n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
    return n;
}

}  // namespace

TEST_CASE("jpeg: the PNG's RGB within the compression's loss, less at a higher quality; alpha dropped") {
    const std::string dir = fj::test::scratch_dir("jpeg-pixels");
    const fj::ImageF image = make_image(96, 64);
    fj::ImageOptions options;
    options.transparent = true;  // the PNG keeps alpha; JPEG has none to keep
    fj::write_image(dir + "/a.png", image, options, false);
    fj::write_image(dir + "/q75.jpg", image, options, false);
    options.jpeg_quality = 97;
    fj::write_image(dir + "/q97.jpeg", image, options, false);
    const fj::PngImage png = fj::read_png(dir + "/a.png");
    const fj::PngImage q75 = fj::read_image(dir + "/q75.jpg");
    const fj::PngImage q97 = fj::read_image(dir + "/q97.jpeg");
    REQUIRE(q75.width == 96);
    REQUIRE(q75.height == 64);
    CHECK(q75.bits == 8);
    const double d75 = mean_rgb_difference(png, q75), d97 = mean_rgb_difference(png, q97);
    // libjpeg's defaults, as flam3's: colour at half resolution, whatever
    // the quality.
    CHECK(d75 < 5.0);
    CHECK(d97 < 0.75 * d75);
    CHECK(d97 > 0.0);  // compressed, not stored
    CHECK(fs::file_size(dir + "/q97.jpeg") > fs::file_size(dir + "/q75.jpg"));
    int not_opaque = 0;
    for (size_t i = 3; i < q75.rgba.size(); i += 4) not_opaque += q75.rgba[i] != 255;
    CHECK(not_opaque == 0);
    CHECK(files_in(dir) == 3);  // no temporaries left

    options.jpeg_quality = 0;
    CHECK_THROWS_AS(fj::write_image(dir + "/bad.jpg", image, options, false), std::runtime_error);
    options.jpeg_quality = 75;
    options.bits = 16;
    CHECK_THROWS_AS(fj::write_image(dir + "/bad.jpg", image, options, false), std::runtime_error);
    CHECK(files_in(dir) == 3);
}

TEST_CASE("jpeg: comments in flam3's form and order, empty and oversize values left out") {
    const std::string dir = fj::test::scratch_dir("jpeg-text");
    const fj::ImageF image = make_image(16, 16);
    fj::ImageOptions options;
    options.text = {{"flam3_version", "flamejit-x"}, {"flam3_nickname", ""}, {"flam3_samples", "42"},
                    {"flamejit_seed", "7"}, {"flamejit_huge", std::string(70000, 'h')}};
    options.genome_xml = "<flame name=\"x\"/>";
    fj::write_image(dir + "/t.jpg", image, options, false);
    CHECK(comment_markers(fj::test::read_file(dir + "/t.jpg")) ==
          std::vector<std::string>{"flam3_version: flamejit-x", "flam3_samples: 42", "flamejit_seed: 7",
                                   "flam3_genome: <flame name=\"x\"/>"});
    const auto text = fj::read_jpeg_text(dir + "/t.jpg");
    CHECK(text.at("flam3_genome") == options.genome_xml);
    CHECK(text.at("flam3_samples") == "42");
    CHECK(text.count("flam3_nickname") == 0);

    CHECK(fj::jpeg_comment_fits("flam3_genome", std::string(65533 - 14, 'g')));
    CHECK_FALSE(fj::jpeg_comment_fits("flam3_genome", std::string(65533 - 13, 'g')));
    options.genome_xml = std::string(65533 - 14, 'g');
    fj::write_image(dir + "/longest.jpg", image, options, false);
    CHECK(fj::read_jpeg_text(dir + "/longest.jpg").at("flam3_genome") == options.genome_xml);
    options.genome_xml += 'g';
    fj::write_image(dir + "/too-long.jpg", image, options, false);
    CHECK(fj::read_jpeg_text(dir + "/too-long.jpg").count("flam3_genome") == 0);
    CHECK(fj::jpeg_complete(dir + "/too-long.jpg", 16, 16));
}

TEST_CASE("jpeg and ppm: written in bands, the bytes of the whole; unfinished, nothing; cut short, not complete") {
    const std::string dir = fj::test::scratch_dir("jpeg-ppm-bands");
    const fj::ImageF image = make_image(40, 30, true);
    fj::ImageOptions options;
    options.text = {{"flam3_samples", "5"}};
    options.genome_xml = "<flame/>";
    for (const std::string ext : {".jpg", ".ppm"}) {
        CAPTURE(ext);
        fj::write_image(dir + "/whole" + ext, image, options, false);
        {
            const auto stream = fj::open_image_stream(dir + "/bands" + ext, 40, 30, options, false);
            for (int first : {0, 7, 8, 29}) {
                const int next = first == 0 ? 7 : first == 7 ? 8 : first == 8 ? 29 : 30;
                fj::ImageF rows;
                rows.width = 40;
                rows.height = next - first;
                rows.rgba.assign(image.rgba.begin() + first * 40 * 4, image.rgba.begin() + next * 40 * 4);
                stream->write_rows(rows);
            }
            stream->finish(options);
        }
        const std::string whole = fj::test::read_file(dir + "/whole" + ext);
        CHECK(fj::test::read_file(dir + "/bands" + ext) == whole);
        {
            const auto stream = fj::open_image_stream(dir + "/unfinished" + ext, 40, 30, options, false);
            fj::ImageF rows = image;
            rows.height = 1;
            rows.rgba.resize(40 * 4);
            stream->write_rows(rows);
        }
        CHECK_FALSE(fs::exists(dir + "/unfinished" + ext));

        CHECK(fj::image_complete(dir + "/whole" + ext, 40, 30));
        CHECK_FALSE(fj::image_complete(dir + "/whole" + ext, 40, 31));
        CHECK_FALSE(fj::image_complete(dir + "/whole" + ext, 41, 30));
        for (size_t cut : {whole.size() - 2, whole.size() / 2, size_t(20)}) {
            CAPTURE(cut);
            fj::test::write_file(dir + "/cut" + ext, whole.substr(0, cut));
            CHECK_FALSE(fj::image_complete(dir + "/cut" + ext, 40, 30));
        }
        fj::test::write_file(dir + "/junk" + ext, "not an image at all");
        CHECK_FALSE(fj::image_complete(dir + "/junk" + ext, 40, 30));
        CHECK_THROWS_AS(fj::read_image(dir + "/junk" + ext), std::runtime_error);
    }
    // The PPM holds exactly the PNG's colour samples.
    fj::write_image(dir + "/whole.png", image, options, false);
    const fj::PngImage png = fj::read_png(dir + "/whole.png"), ppm = fj::read_image(dir + "/whole.ppm");
    CHECK(ppm.rgba == png.rgba);
    CHECK(fj::test::read_file(dir + "/whole.ppm").rfind("P6\n40 30\n255\n", 0) == 0);
    CHECK(fs::file_size(dir + "/whole.ppm") == 13 + 40 * 30 * 3);
}

TEST_CASE("ppm: other maxvals and header comments read as the format has them") {
    const std::string dir = fj::test::scratch_dir("ppm-read");
    fj::test::write_file(dir + "/a.ppm", std::string("P6 # a comment\n2 1\n# another\n15\n") + '\x0f' + '\x00' + '\x05' +
                                             '\x0a' + '\x0f' + '\x00');
    const fj::PngImage a = fj::read_ppm(dir + "/a.ppm");
    CHECK(a.rgba == std::vector<uint16_t>{255, 0, 85, 255, 170, 255, 0, 255});
    fj::test::write_file(dir + "/b.ppm", std::string("P6\n1 1\n65535\n") + '\xff' + '\xff' + '\x80' + '\x00' + '\x00' +
                                             '\x01');
    const fj::PngImage b = fj::read_ppm(dir + "/b.ppm");
    CHECK(b.bits == 16);
    CHECK(b.rgba == std::vector<uint16_t>{65535, 32768, 1, 65535});
    fj::test::write_file(dir + "/short.ppm", "P6\n2 2\n255\nabc");
    CHECK_THROWS_AS(fj::read_ppm(dir + "/short.ppm"), std::runtime_error);
    CHECK_FALSE(fj::ppm_complete(dir + "/short.ppm", 2, 2));
}

TEST_CASE("jpeg and ppm: flam3-render's files, from the samples of its PNG, byte for byte") {
    if (!fj::test::flam3_render_present()) return;
    const std::string dir = fj::test::scratch_dir("jpeg-ppm-flam3");
    auto flam3 = [&](const std::string& out, const std::string& extra) {
        return fj::test::run_command("env in=" + fj::test::source_path("genomes/default.flam3") + " out=" + dir + "/" +
                                     out + " verbose=0 nthreads=1 ss=0.25 qs=0.2 isaac_seed=5 " + extra +
                                     " flam3-render");
    };
    for (const auto& [out, extra] : std::vector<std::pair<std::string, std::string>>{
             {"f16.png", "bpc=16"}, {"f.jpg", "format=jpg"}, {"f90.jpg", "format=jpg jpeg=90"}, {"f.ppm", "format=ppm"}}) {
        const auto r = flam3(out, extra);
        REQUIRE_MESSAGE(r.status == 0, r.output);
    }
    // flam3's 16-bit values as floats: the samples every format of one
    // seeded single-thread render quantises.
    const fj::PngImage f16 = fj::read_png(dir + "/f16.png");
    fj::ImageF image;
    image.width = f16.width;
    image.height = f16.height;
    for (size_t i = 0; i < f16.rgba.size(); ++i)
        image.rgba.push_back(i % 4 == 3 ? 1.0f : static_cast<float>(f16.rgba[i]) / 256.0f);
    fj::ImageOptions options;
    fj::write_image(dir + "/ours.ppm", image, options, false);
    CHECK(fj::test::read_file(dir + "/ours.ppm") == fj::test::read_file(dir + "/f.ppm"));
    // The same compressed image as flam3's (libjpeg's defaults, quality 75
    // or `jpeg`); the comments differ in what they say, not in where.
    options.text = {{"flam3_version", "x"}};
    options.genome_xml = "<flame/>";
    for (const auto& [theirs, quality] : std::vector<std::pair<std::string, int>>{{"f.jpg", 75}, {"f90.jpg", 90}}) {
        CAPTURE(theirs);
        options.jpeg_quality = quality;
        fj::write_image(dir + "/ours.jpg", image, options, false);
        const std::string ours = fj::test::read_file(dir + "/ours.jpg"), flam3s = fj::test::read_file(dir + "/" + theirs);
        CHECK(without_comments(ours) == without_comments(flam3s));
        // flam3's comments: its keys, "key: value", the genome last.
        const std::vector<std::string> comments = comment_markers(flam3s);
        REQUIRE(comments.size() >= 5);
        CHECK(comments.front().rfind("flam3_version: ", 0) == 0);
        CHECK(comments.back().rfind("flam3_genome: <flame", 0) == 0);
        const auto text = fj::read_jpeg_text(dir + "/" + theirs);
        for (const char* key : {"flam3_error_rate", "flam3_samples", "flam3_time"}) CHECK(text.count(key) == 1);
        // Where our markers stand in the file, flam3's stand in its.
        CHECK(ours.find("\xff\xfe") == flam3s.find("\xff\xfe"));
    }
}
