// SPDX-License-Identifier: GPL-3.0-or-later
// OpenEXR output (image/exr_io.h) read back by the OpenEXR library, the
// oracle: halves as Imath rounds them, premultiplied RGBA of half and float
// files, the text as string attributes; and the linear post-pass, which
// with gamma 1 and vibrancy 1 is the tone-mapped image premultiplied (but
// for flam3's 256/255); and flamejit's own reader of its files (verify's,
// compare's), which must read what OpenEXR reads.
#include <doctest/doctest.h>

#include <ImfFrameBuffer.h>
#include <ImfHeader.h>
#include <ImfInputFile.h>
#include <ImfStringAttribute.h>
#include <half.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <limits>
#include <random>
#include <vector>

#include "genome/flam3_reader.h"
#include "image/exr_io.h"
#include "image/png_io.h"
#include "pipeline/renderer.h"
#include "test_support.h"

namespace {

struct ExrPixels {
    int width = 0, height = 0;
    std::vector<float> rgba;
    std::string genome;
};

ExrPixels read_with_openexr(const std::string& path) {
    Imf::InputFile file(path.c_str());
    const Imath::Box2i window = file.header().dataWindow();
    ExrPixels out;
    out.width = window.max.x - window.min.x + 1;
    out.height = window.max.y - window.min.y + 1;
    out.rgba.assign(size_t(4) * out.width * out.height, -1.0f);
    Imf::FrameBuffer frame;
    const char* names[4] = {"R", "G", "B", "A"};
    for (int c = 0; c < 4; ++c)
        frame.insert(names[c], Imf::Slice(Imf::FLOAT, reinterpret_cast<char*>(out.rgba.data() + c), 4 * sizeof(float),
                                          4 * sizeof(float) * out.width));
    file.setFrameBuffer(frame);
    file.readPixels(window.min.y, window.max.y);
    if (const auto* genome = file.header().findTypedAttribute<Imf::StringAttribute>("flam3_genome"))
        out.genome = genome->value();
    return out;
}

}  // namespace

TEST_CASE("exr: floats become halves as Imath rounds them") {
    std::mt19937 rng(5);
    std::uniform_int_distribution<uint32_t> bits;
    std::vector<float> values = {0.0f, -0.0f, 1.0f, 0.5f, 65504.0f, 65519.0f, 65520.0f, 1e6f, -1e6f, 5.96e-8f,
                                 2.98e-8f, 2.99e-8f, 6.1e-5f, std::numeric_limits<float>::infinity()};
    for (int i = 0; i < 200000; ++i) {
        uint32_t b = bits(rng);
        float f;
        std::memcpy(&f, &b, sizeof f);
        if (!std::isnan(f)) values.push_back(f);
    }
    for (float f : values) {
        CAPTURE(f);
        CHECK(fj::half_of(f) == half(f).bits());
    }
    half nan;
    nan.setBits(fj::half_of(std::numeric_limits<float>::quiet_NaN()));
    CHECK(nan.isNan());
}

TEST_CASE("exr: half and float files read back premultiplied, with the genome as an attribute") {
    const std::string dir = fj::test::scratch_dir("exr");
    fj::ImageF image;
    image.width = 37;
    image.height = 5;
    std::mt19937 rng(9);
    std::uniform_real_distribution<float> colour(-20.0f, 300.0f), alpha(-0.2f, 1.2f);
    for (int i = 0; i < 37 * 5; ++i) {
        for (int c = 0; c < 3; ++c) image.rgba.push_back(colour(rng));
        image.rgba.push_back(alpha(rng));
    }
    for (int bits : {16, 32}) {
        for (bool transparent : {false, true}) {
            CAPTURE(bits);
            CAPTURE(transparent);
            fj::ImageOptions options;
            options.bits = bits;
            options.transparent = transparent;
            options.text = {{"flam3_samples", "42"}};
            options.genome_xml = "<flame name=\"x\"/>";
            const std::string path = dir + "/i" + std::to_string(bits) + (transparent ? "t" : "o") + ".exr";
            fj::write_image(path, image, options, false);
            const ExrPixels read = read_with_openexr(path);
            REQUIRE(read.width == 37);
            REQUIRE(read.height == 5);
            CHECK(read.genome == options.genome_xml);
            for (size_t p = 0; p < read.rgba.size(); p += 4) {
                const float a = transparent ? std::clamp(image.rgba[p + 3], 0.0f, 1.0f) : 1.0f;
                for (int c = 0; c < 4; ++c) {
                    const float want = c == 3 ? a : std::clamp(image.rgba[p + c], 0.0f, 255.0f) / 255.0f * a;
                    const float stored = bits == 16 ? float(half(want)) : want;
                    CHECK(read.rgba[p + c] == stored);
                }
            }
        }
    }
    // Linear images keep their values, unclamped.
    fj::ImageOptions options;
    options.bits = 32;
    fj::write_image(dir + "/linear.exr", image, options, true);
    const ExrPixels linear = read_with_openexr(dir + "/linear.exr");
    for (size_t p = 0; p < linear.rgba.size(); p += 4)
        for (int c = 0; c < 4; ++c)
            CHECK(linear.rgba[p + c] == (c == 3 ? image.rgba[p + 3] : image.rgba[p + c] / 255.0f));
    // Written in bands: the same file; given up: no file, no temporaries.
    {
        fj::ImageOptions text;
        text.bits = 32;
        text.genome_xml = "<flame/>";
        fj::write_image(dir + "/whole.exr", image, text, true);
        fj::ExrStream stream(dir + "/bands.exr", 37, 5, text, true);
        for (int first : {0, 2}) {
            fj::ImageF rows;
            rows.width = 37;
            rows.height = first == 0 ? 2 : 3;
            rows.rgba.assign(image.rgba.begin() + first * 37 * 4, image.rgba.begin() + (first + rows.height) * 37 * 4);
            stream.write_rows(rows);
        }
        stream.finish(text);
        CHECK(fj::test::read_file(dir + "/bands.exr") == fj::test::read_file(dir + "/whole.exr"));
        // Lines compressed on several threads: the same file.
        text.threads = 4;
        fj::write_image(dir + "/threads.exr", image, text, true);
        CHECK(fj::test::read_file(dir + "/threads.exr") == fj::test::read_file(dir + "/whole.exr"));
    }
    {
        fj::ExrStream stream(dir + "/unfinished.exr", 37, 5, options, false);
        fj::ImageF rows = image;
        rows.height = 1;
        rows.rgba.resize(37 * 4);
        stream.write_rows(rows);
        CHECK_THROWS_AS(stream.finish({}), std::logic_error);
    }
    int entries = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) entries += entry.is_regular_file();
    CHECK(entries == 8);  // four tone-mapped, linear, whole, bands, threads
    CHECK(fj::image_format_of("a/B.EXR") == fj::ImageFormat::Exr);
    CHECK(fj::image_format_of("b.png") == fj::ImageFormat::Png);
    CHECK_THROWS_AS(fj::write_image(dir + "/bad.exr", image, fj::ImageOptions{}, false), std::runtime_error);  // 8 bits
}

TEST_CASE("exr: flamejit reads back its files as OpenEXR does; damaged ones are an error") {
    const std::string dir = fj::test::scratch_dir("exr-read");
    // Random values (lines stored raw, they do not shrink) and a smooth
    // image (lines deflated).
    fj::ImageF noisy, smooth;
    noisy.width = smooth.width = 41;
    noisy.height = smooth.height = 7;
    std::mt19937 rng(3);
    std::uniform_real_distribution<float> colour(-20.0f, 300.0f), alpha(-0.2f, 1.2f);
    for (int y = 0; y < 7; ++y)
        for (int x = 0; x < 41; ++x) {
            for (int c = 0; c < 3; ++c) noisy.rgba.push_back(colour(rng));
            noisy.rgba.push_back(alpha(rng));
            smooth.rgba.insert(smooth.rgba.end(), {4.0f * x, 30.0f * y, 100.0f, 1.0f - 0.02f * x});
        }
    int n = 0;
    for (const fj::ImageF* image : {&noisy, &smooth})
        for (int bits : {16, 32})
            for (bool linear : {false, true}) {
                CAPTURE(n);
                fj::ImageOptions options;
                options.bits = bits;
                options.transparent = n % 3 == 0;
                options.genome_xml = "<flame name=\"n" + std::to_string(n) + "\"/>";
                options.color_space = n % 2 ? fj::ColorSpace::Rec2020 : fj::ColorSpace::Srgb;
                const std::string path = dir + "/f" + std::to_string(n++) + ".exr";
                fj::write_image(path, *image, options, linear);
                const fj::ExrImage ours = fj::read_exr(path);
                const ExrPixels theirs = read_with_openexr(path);
                CHECK(ours.width == theirs.width);
                CHECK(ours.height == theirs.height);
                CHECK(ours.half == (bits == 16));
                CHECK(ours.linear == linear);
                CHECK(ours.rgba == theirs.rgba);
                CHECK(ours.text.at("flam3_genome") == theirs.genome);
                fj::ColorSpace space = fj::ColorSpace::Srgb;
                CHECK(ours.chromaticities.empty() == (options.color_space == fj::ColorSpace::Srgb));
                if (!ours.chromaticities.empty()) {
                    CHECK(fj::color_space_of_chromaticities(ours.chromaticities, &space));
                    CHECK(space == options.color_space);
                }
                // read_image: a PNG's range, and no linear values.
                if (linear) {
                    CHECK_THROWS_WITH(fj::read_image(path), doctest::Contains("--linear"));
                } else {
                    const fj::PngImage samples = fj::read_image(path);
                    CHECK(samples.bits == 16);
                    const double alpha = std::clamp(theirs.rgba[4 * 42 + 3], 0.0f, 1.0f);  // pixel (1, 1)
                    CHECK(samples.at8(1, 1, 3) == doctest::Approx(255.0 * alpha).epsilon(1e-3));
                }
            }
    // Cut short anywhere, or with a line's deflated bytes damaged: an error, not a crash.
    const std::string whole = fj::test::read_file(dir + "/f4.exr");  // smooth, half: deflated lines
    for (size_t cut : {size_t(3), size_t(20), whole.size() / 3, whole.size() / 2, whole.size() - 1}) {
        CAPTURE(cut);
        fj::test::write_file(dir + "/cut.exr", whole.substr(0, cut));
        CHECK_THROWS_AS(fj::read_exr(dir + "/cut.exr"), std::runtime_error);
    }
    std::string damaged = whole;
    damaged[damaged.size() - 5] ^= 0x5a;
    fj::test::write_file(dir + "/damaged.exr", damaged);
    CHECK_THROWS_AS(fj::read_exr(dir + "/damaged.exr"), std::runtime_error);
    // Bytes changed at random (header, offsets, lines): read or refused,
    // never a crash (the sanitizer build checks the reads stay in bounds).
    std::mt19937 mutate(11);
    int refused = 0;
    for (int i = 0; i < 2000; ++i) {
        std::string bytes = whole;
        for (int k = 0; k < 1 + i % 4; ++k)
            bytes[mutate() % bytes.size()] = static_cast<char>(mutate() & 0xff);
        fj::test::write_file(dir + "/mutated.exr", bytes);
        try {
            const fj::ExrImage image = fj::read_exr(dir + "/mutated.exr");
            CHECK(image.rgba.size() == static_cast<size_t>(image.width) * image.height * 4);
        } catch (const std::runtime_error&) {
            ++refused;
        }
    }
    CHECK(refused > 0);
}

TEST_CASE("exr: the linear post-pass is the tone-mapped image premultiplied when gamma and vibrancy are 1") {
    fj::Flame flame = fj::read_flam3_file(fj::test::source_path("genomes/default.flam3")).at(0);
    flame.scale *= 0.25;
    flame.width /= 4;
    flame.height /= 4;
    flame.quality = 20;
    flame.gamma = 1;
    flame.gamma_threshold = 0;
    flame.vibrancy = 1;
    flame.brightness = 1;
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Cpu;
    options.threads = 2;
    options.transparent = true;
    fj::Renderer toned(options);
    options.linear = true;
    fj::Renderer linear(options);
    const fj::ImageF a = toned.render(flame).image, b = linear.render(flame).image;
    REQUIRE(a.rgba.size() == b.rgba.size());
    int compared = 0;
    for (size_t p = 0; p < a.rgba.size(); p += 4) {
        const float alpha = a.rgba[p + 3];
        if (!(alpha > 0.01f && alpha < 0.99f) || a.rgba[p] >= 255 || a.rgba[p + 1] >= 255 || a.rgba[p + 2] >= 255)
            continue;
        ++compared;
        CHECK(b.rgba[p + 3] == doctest::Approx(alpha).epsilon(1e-5));
        // flam3 scales colour by 256 where the white level is 255.
        for (int c = 0; c < 3; ++c)
            CHECK(a.rgba[p + c] * alpha == doctest::Approx(b.rgba[p + c] * 256.0 / 255.0).epsilon(1e-4));
    }
    CHECK(compared > 100);
}
