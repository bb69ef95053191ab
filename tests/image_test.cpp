// flamejit — tests of PNG output/input and of the fidelity ratio.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// References: libpng's reader for our writer, the file system for how it
// writes, flam3-render's own PNGs for our reader and quantisation (its 8- and
// 16-bit outputs of one seeded render), analytic values for the ratio, and
// flam3 against itself for the ratio's end-to-end meaning.
#include <doctest/doctest.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <random>
#include <string>
#include <tuple>

#include <nlohmann/json.hpp>

#include "atomic_file.h"
#include "image/fidelity.h"
#include "image/level.h"
#include "image/png_bands.h"
#include "image/png_io.h"
#include "test_support.h"

namespace {

namespace fs = std::filesystem;
using fj::PngImage;

// A deterministic, non-constant test image in flam3's output scale.
fj::ImageF make_gradient(int width, int height) {
    fj::ImageF image;
    image.width = width;
    image.height = height;
    image.rgba.resize(static_cast<size_t>(width) * height * 4);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            float* p = &image.rgba[(static_cast<size_t>(y) * width + x) * 4];
            p[0] = 255.0f * x / (width - 1);
            p[1] = 255.0f * y / (height - 1);
            p[2] = static_cast<float>((x * 37 + y * 11) % 256) + 0.75f;
            p[3] = static_cast<float>(x + y) / static_cast<float>(width + height - 2);
        }
    return image;
}

// An 8-bit image whose RGB sample is f(x, y, channel).
template <typename F>
PngImage make_png_image(int width, int height, F f) {
    PngImage image;
    image.width = width;
    image.height = height;
    image.bits = 8;
    image.rgba.resize(static_cast<size_t>(width) * height * 4);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x)
            for (int c = 0; c < 4; ++c)
                image.rgba[(static_cast<size_t>(y) * width + x) * 4 + c] =
                    static_cast<uint16_t>(c == 3 ? 255 : f(x, y, c));
    return image;
}

int pattern(int x, int y, int c) { return 50 + (x * 7 + y * 13 + c * 29) % 100; }

size_t entries_in(const std::string& dir) {
    size_t n = 0;
    for ([[maybe_unused]] const auto& entry : fs::directory_iterator(dir)) ++n;
    return n;
}

// Renders genomes/default.flam3 with flam3-render; returns the command's result.
fj::test::CommandResult flam3_render(const std::string& out, int seed, const std::string& extra = "") {
    return fj::test::run_command("env in=" + fj::test::source_path("genomes/default.flam3") + " out=" + out +
                                 " verbose=0 nthreads=1 ss=0.25 qs=0.2 isaac_seed=" + std::to_string(seed) +
                                 " " + extra + " flam3-render");
}

}  // namespace

TEST_CASE("png: quantisation is flam3's truncation") {
    CHECK(fj::quantise_colour(254.99f, 8) == 254);
    CHECK(fj::quantise_colour(255.0f, 8) == 255);
    CHECK(fj::quantise_colour(300.0f, 8) == 255);
    CHECK(fj::quantise_colour(-3.0f, 8) == 0);
    CHECK(fj::quantise_colour(std::nanf(""), 8) == 0);
    CHECK(fj::quantise_colour(255.0f, 16) == 65280);
    CHECK(fj::quantise_colour(1.999f, 16) == 511);
    CHECK(fj::quantise_alpha(1.0f, 8) == 255);
    CHECK(fj::quantise_alpha(0.5f, 8) == 127);
    CHECK(fj::quantise_alpha(1.0f, 16) == 65535);
    CHECK(fj::quantise_alpha(2.0f, 16) == 65535);
}

TEST_CASE("png: 8-bit round trip truncates and keeps the layout") {
    const std::string dir = fj::test::scratch_dir("image-png8");
    const fj::ImageF image = make_gradient(37, 23);
    for (bool transparent : {false, true}) {
        CAPTURE(transparent);
        const std::string path = dir + "/out.png";
        fj::ImageOptions options;
        options.transparent = transparent;
        fj::write_png(path, image, options);
        const PngImage back = fj::read_png(path);
        REQUIRE(back.width == 37);
        REQUIRE(back.height == 23);
        CHECK(back.bits == 8);
        size_t mismatches = 0;
        for (size_t i = 0; i < image.rgba.size(); ++i) {
            const float v = image.rgba[i];
            const int expected = i % 4 == 3 ? (transparent ? static_cast<int>(v * 255.0f) : 255)
                                            : static_cast<int>(std::floor(v));
            mismatches += back.rgba[i] != expected;
        }
        CHECK(mismatches == 0);
        CHECK(entries_in(dir) == 1);  // no temporary file left beside it
    }
}

TEST_CASE("png: 16-bit round trip scales by 256 (white is 65280)") {
    const std::string dir = fj::test::scratch_dir("image-png16");
    fj::ImageF image = make_gradient(16, 9);
    image.rgba[0] = 255.0f;
    image.rgba[1] = 254.99f;
    const std::string path = dir + "/out16.png";
    fj::write_png(path, image, {.bits = 16});
    const PngImage back = fj::read_png(path);
    REQUIRE(back.rgba.size() == image.rgba.size());
    CHECK(back.bits == 16);
    CHECK(back.rgba[0] == 65280);
    CHECK(back.rgba[1] == static_cast<uint16_t>(254.99f * 256.0f));
    CHECK(back.rgba[3] == 65535);
    size_t mismatches = 0;
    for (size_t i = 0; i < image.rgba.size(); ++i)
        if (i % 4 != 3) mismatches += back.rgba[i] != static_cast<uint16_t>(std::fmin(image.rgba[i], 255.0f) * 256.0f);
    CHECK(mismatches == 0);
    CHECK(back.at8(0, 0, 0) == doctest::Approx(255.0));
}

namespace {

// The chunk types of a PNG file in order, and the payload of its IDAT
// chunks joined.
struct PngChunks {
    std::vector<std::string> types;
    std::string idat;
};

PngChunks png_chunks(const std::string& bytes) {
    PngChunks out;
    for (size_t at = 8; at + 12 <= bytes.size();) {
        const auto byte = [&](size_t i) { return static_cast<uint32_t>(static_cast<unsigned char>(bytes[i])); };
        const uint32_t size = byte(at) << 24 | byte(at + 1) << 16 | byte(at + 2) << 8 | byte(at + 3);
        out.types.push_back(bytes.substr(at + 4, 4));
        if (out.types.back() == "IDAT") out.idat += bytes.substr(at + 8, size);
        at += 12 + size;
    }
    return out;
}

}  // namespace

TEST_CASE("png: rows compressed in bands on several threads; any thread count and a stream give the same bytes") {
    const std::string dir = fj::test::scratch_dir("image-bands");
    // 300 RGBA pixels of 8 bits: 218 rows a band, so 500 rows make three
    // (the last of 64 rows), 436 exactly two; of 16 bits, 109 rows a band.
    CHECK(fj::png_band_rows(300 * 4) == 218);
    CHECK(fj::png_band_rows(300 * 8) == 109);
    CHECK(fj::png_band_count(500, 300 * 4) == 3);
    CHECK(fj::png_band_count(436, 300 * 4) == 2);
    for (const auto& [width, height, bits] : {std::tuple{300, 500, 8}, std::tuple{300, 436, 8},
                                              std::tuple{300, 500, 16}, std::tuple{1, 1, 8}, std::tuple{7, 3, 16}}) {
        CAPTURE(width);
        CAPTURE(height);
        CAPTURE(bits);
        fj::ImageF image = make_gradient(std::max(width, 2), std::max(height, 2));
        image.width = width;
        image.height = height;
        image.rgba.resize(static_cast<size_t>(width) * height * 4);
        fj::ImageOptions options{.bits = bits, .transparent = true};
        std::string first;
        for (int threads : {1, 3, 8}) {
            options.threads = threads;
            const std::string path = dir + "/t" + std::to_string(threads) + ".png";
            fj::write_png(path, image, options);
            const std::string bytes = fj::test::read_file(path);
            if (threads == 1) {
                first = bytes;
                // libpng's reader checks every CRC and the zlib stream's checksum.
                const PngImage back = fj::read_png(path);
                REQUIRE(back.rgba.size() == image.rgba.size());
                size_t mismatches = 0;
                for (size_t i = 0; i < image.rgba.size(); ++i)
                    mismatches += back.rgba[i] != (i % 4 == 3 ? fj::quantise_alpha(image.rgba[i], bits)
                                                              : fj::quantise_colour(image.rgba[i], bits));
                CHECK(mismatches == 0);
                const PngChunks chunks = png_chunks(bytes);
                CHECK(std::count(chunks.types.begin(), chunks.types.end(), "IDAT") ==
                      fj::png_band_count(height, size_t(width) * 4 * bits / 8));
                CHECK(chunks.types.front() == "IHDR");
                CHECK(chunks.types.back() == "IEND");
                // The IDATs joined are one zlib stream of every row and its filter byte.
                std::vector<unsigned char> raw(static_cast<size_t>(height) * (size_t(width) * 4 * bits / 8 + 1) + 1);
                uLongf size = raw.size();
                CHECK(uncompress(raw.data(), &size, reinterpret_cast<const Bytef*>(chunks.idat.data()),
                                 chunks.idat.size()) == Z_OK);
                CHECK(size == raw.size() - 1);
            } else {
                CHECK(bytes == first);
            }
        }
        // Rows in uneven batches through a stream: the same file.
        for (int threads : {1, 8}) {
            options.threads = threads;
            const std::string streamed = dir + "/stream.png";
            const auto stream = fj::open_image_stream(streamed, width, height, options, false);
            for (int y = 0, batch = 1; y < height; y += batch, batch = batch * 3 + 1) {
                fj::ImageF rows;
                rows.width = width;
                rows.height = std::min(batch, height - y);
                rows.rgba.assign(image.rgba.begin() + size_t(y) * width * 4,
                                 image.rgba.begin() + size_t(y + rows.height) * width * 4);
                stream->write_rows(rows);
            }
            stream->finish(options);
            CHECK(fj::test::read_file(streamed) == first);
        }
    }
}

TEST_CASE("png: text chunks and the zTXt genome round trip") {
    const std::string dir = fj::test::scratch_dir("image-text");
    const std::string path = dir + "/text.png";
    std::string genome = "<flame name=\"t\" size=\"4 4\">\n";
    for (int i = 0; i < 2000; ++i) genome += "   <color index=\"" + std::to_string(i % 256) + "\" rgb=\"1 2 3\"/>\n";
    genome += "</flame>\n";
    fj::ImageOptions options;
    options.text = {{"flam3_version", "flamejit 0.1"}, {"flam3_samples", "123456"}};
    options.genome_xml = genome;
    fj::write_png(path, make_gradient(4, 4), options);
    const auto text = fj::read_png_text(path);
    CHECK(text.size() == 3);
    CHECK(text.at("flam3_version") == "flamejit 0.1");
    CHECK(text.at("flam3_samples") == "123456");
    CHECK(text.at("flam3_genome") == genome);
    // Compressed: the 2000 repeated lines must not be stored verbatim.
    CHECK(fs::file_size(path) < genome.size() / 4);

    fj::ImageOptions bad;
    bad.text = {{"", "empty keyword"}};
    CHECK_THROWS_AS(fj::write_png(dir + "/bad.png", make_gradient(4, 4), bad), std::runtime_error);
    CHECK_FALSE(fj::test::file_exists(dir + "/bad.png"));
    CHECK(entries_in(dir) == 1);
}

TEST_CASE("png: a failed write leaves neither the file nor a temporary") {
    const std::string dir = fj::test::scratch_dir("image-fail");
    const fj::ImageF image = make_gradient(8, 8);

    const std::string missing = dir + "/no-such-folder/out.png";
    CHECK_THROWS_AS(fj::write_png(missing, image), std::runtime_error);
    CHECK_FALSE(fj::test::file_exists(missing));
    CHECK(entries_in(dir) == 0);

    const std::string folder = dir + "/taken.png";
    fs::create_directory(folder);
    CHECK_THROWS_AS(fj::write_png(folder, image), std::runtime_error);
    CHECK(fs::is_directory(folder));
    CHECK(entries_in(dir) == 1);
    CHECK(entries_in(folder) == 0);

    CHECK_THROWS_AS(fj::write_png(dir + "/bits.png", image, {.bits = 12}), std::runtime_error);
    fj::ImageF short_image = image;
    short_image.rgba.pop_back();
    CHECK_THROWS_AS(fj::write_png(dir + "/short.png", short_image), std::runtime_error);
    CHECK(entries_in(dir) == 1);

    // An existing file is replaced whole, never truncated in place by a failure.
    const std::string existing = dir + "/existing.png";
    fj::write_png(existing, image);
    const std::string before = fj::test::read_file(existing);
    CHECK_THROWS_AS(fj::write_png(existing, short_image), std::runtime_error);
    CHECK(fj::test::read_file(existing) == before);
}

TEST_CASE("atomic files: a device, a pipe or a folder is not written over; a symbolic link is written through") {
    const std::string dir = fj::test::scratch_dir("atomic-targets");
    const fj::ImageF image = make_gradient(8, 8);
    CHECK(fj::unwritable_reason(dir + "/new.png").empty());
    CHECK(fj::unwritable_reason("").find("no file name") != std::string::npos);
    CHECK(fj::unwritable_reason(dir + "/").find("no file name") != std::string::npos);
    CHECK(fj::unwritable_reason(dir + "/none/x.png").find("does not exist") != std::string::npos);
    fj::test::write_file(dir + "/file", "x");
    CHECK(fj::unwritable_reason(dir + "/file/x.png").find("is not a folder") != std::string::npos);
    CHECK(fj::unwritable_reason(dir).find("a folder of that name exists") != std::string::npos);
    CHECK(fj::unwritable_reason("/dev/null").find("not a regular file") != std::string::npos);

    const std::string fifo = dir + "/fifo.png";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(fj::unwritable_reason(fifo).find("not a regular file") != std::string::npos);
    CHECK_THROWS_WITH(fj::write_png(fifo, image), doctest::Contains("not a regular file"));
    CHECK(fs::is_fifo(fifo));

    // A link: the file it leads to gets the image, and the link stays.
    const std::string target = dir + "/target.png", link = dir + "/link.png";
    fs::create_symlink("target.png", link);
    CHECK(fj::unwritable_reason(link).empty());
    fj::write_png(link, image);
    CHECK(fs::is_symlink(link));
    CHECK(fj::read_png(target).width == 8);
    const std::string to_fifo = dir + "/to-fifo.png";
    fs::create_symlink("fifo.png", to_fifo);
    CHECK_THROWS_WITH(fj::write_png(to_fifo, image), doctest::Contains("not a regular file"));
    CHECK(fs::is_symlink(to_fifo));
    // Nothing left over: the files made above, and no temporary.
    CHECK(entries_in(dir) == 5);
}

TEST_CASE("atomic files: a process stopped by SIGTERM or SIGINT while writing removes its temporaries") {
    for (int signal_number : {SIGTERM, SIGINT}) {
        CAPTURE(signal_number);
        const std::string dir = fj::test::scratch_dir("atomic-signal");
        const pid_t child = fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            // A write under way: its temporary made, not yet committed.
            fj::remove_temporaries_on_signals();
            const std::string temporary = fj::temporary_name_for(dir + "/image.png");
            std::FILE* f = std::fopen(temporary.c_str(), "wb");
            if (f) std::fputs("half an image", f);
            if (f) std::fclose(f);
            std::raise(signal_number);
            _exit(0);  // not reached: the signal ends the process
        }
        int status = 0;
        REQUIRE(waitpid(child, &status, 0) == child);
        CHECK(WIFSIGNALED(status));
        CHECK(WTERMSIG(status) == signal_number);
        CHECK(entries_in(dir) == 0);
    }
}

TEST_CASE("png: reading what flam3-render writes (8 and 16 bit agree)") {
    if (!fj::test::flam3_render_present()) return;
    const std::string dir = fj::test::scratch_dir("image-flam3");
    const auto r8 = flam3_render(dir + "/a8.png", 7);
    const auto r16 = flam3_render(dir + "/a16.png", 7, "bpc=16");
    REQUIRE_MESSAGE(r8.status == 0, r8.output);
    REQUIRE_MESSAGE(r16.status == 0, r16.output);
    const PngImage a8 = fj::read_png(dir + "/a8.png");
    const PngImage a16 = fj::read_png(dir + "/a16.png");
    CHECK(a8.bits == 8);
    CHECK(a16.bits == 16);
    CHECK(a8.width == 160);
    CHECK(a8.height == 120);
    REQUIRE(a8.rgba.size() == a16.rgba.size());
    // One seeded single-thread render: flam3's 8-bit value is the 16-bit one
    // divided by 256, since both truncate the same clamped float.
    size_t mismatches = 0, lit = 0;
    for (size_t i = 0; i < a8.rgba.size(); ++i) {
        mismatches += a8.rgba[i] != (i % 4 == 3 ? 255 : a16.rgba[i] >> 8);
        lit += i % 4 != 3 && a8.rgba[i] > 0;
    }
    CHECK(mismatches == 0);
    CHECK(lit > a8.rgba.size() / 8);  // the default genome fills the frame
    CHECK(fj::downsampled_mean_abs_difference(a8, a16) < 0.5);

    // Our writer, fed flam3's 16-bit values as floats, reproduces both of flam3's files.
    fj::ImageF from16;
    from16.width = a16.width;
    from16.height = a16.height;
    for (size_t i = 0; i < a16.rgba.size(); ++i)
        from16.rgba.push_back(i % 4 == 3 ? 1.0f : static_cast<float>(a16.rgba[i]) / 256.0f);
    fj::write_png(dir + "/ours8.png", from16);
    fj::write_png(dir + "/ours16.png", from16, {.bits = 16});
    CHECK(fj::read_png(dir + "/ours8.png").rgba == a8.rgba);
    CHECK(fj::read_png(dir + "/ours16.png").rgba == a16.rgba);

    const auto text = fj::read_png_text(dir + "/a8.png");
    REQUIRE(text.count("flam3_genome") == 1);
    CHECK(text.at("flam3_genome").find("<flame") != std::string::npos);
    CHECK(text.count("flam3_version") == 1);
}

TEST_CASE("fidelity: identical references define R by whether C matches them") {
    const PngImage a = make_png_image(8, 6, pattern);
    const auto same = fj::fidelity_ratio(a, a, a);
    CHECK(same.ratio == 1.0);
    CHECK(same.error_ab == 0.0);
    const PngImage c = make_png_image(8, 6, [](int x, int y, int ch) { return pattern(x, y, ch) + 1; });
    const auto differs = fj::fidelity_ratio(a, a, c);
    CHECK(std::isinf(differs.ratio));
    CHECK(differs.error_ca == doctest::Approx(1.0));
}

TEST_CASE("fidelity: constant offsets give the analytic ratio") {
    auto shifted = [](int offset) {
        return make_png_image(10, 8, [offset](int x, int y, int c) { return pattern(x, y, c) + offset; });
    };
    const PngImage a = shifted(0), b = shifted(10);
    // C halfway: |C−A| = |C−B| = 5 against |A−B| = 10.
    const auto half = fj::fidelity_ratio(a, b, shifted(5));
    CHECK(half.ratio_a == doctest::Approx(0.5));
    CHECK(half.ratio_b == doctest::Approx(0.5));
    CHECK(half.ratio == doctest::Approx(0.5));
    CHECK(half.error_ab == doctest::Approx(10.0));
    CHECK(half.width == 5);
    CHECK(half.height == 4);
    // C beyond B: |C−A| = 20, |C−B| = 10 → (2 + 1) / 2.
    const auto beyond = fj::fidelity_ratio(a, b, shifted(20));
    CHECK(beyond.ratio_a == doctest::Approx(2.0));
    CHECK(beyond.ratio_b == doctest::Approx(1.0));
    CHECK(beyond.ratio == doctest::Approx(1.5));
    // C equal to A: (0 + 1) / 2.
    CHECK(fj::fidelity_ratio(a, b, a).ratio == doctest::Approx(0.5));
}

TEST_CASE("fidelity: swapping the references swaps R1 and R2 and keeps R") {
    const PngImage a = make_png_image(12, 10, pattern);
    const PngImage b = make_png_image(12, 10, [](int x, int y, int c) { return (x * y + c * 40) % 200; });
    const PngImage c = make_png_image(12, 10, [](int x, int y, int c) { return (x * 31 + y * 3 + c) % 256; });
    const auto ab = fj::fidelity_ratio(a, b, c);
    const auto ba = fj::fidelity_ratio(b, a, c);
    CHECK(ab.ratio == doctest::Approx(ba.ratio));
    CHECK(ab.ratio_a == doctest::Approx(ba.ratio_b));
    CHECK(ab.ratio_b == doctest::Approx(ba.ratio_a));
}

TEST_CASE("fidelity: compares 2x2 block means, and 16-bit images in the 8-bit range") {
    // Noise that cancels within each 2×2 block does not count.
    const PngImage checker = make_png_image(8, 8, [](int x, int y, int) { return (x + y) % 2 ? 100 : 0; });
    const PngImage flat = make_png_image(8, 8, [](int, int, int) { return 50; });
    CHECK(fj::downsampled_mean_abs_difference(checker, flat) == 0.0);
    // An odd last row and column are dropped from all images alike.
    const PngImage odd = make_png_image(9, 7, pattern);
    CHECK(fj::fidelity_ratio(odd, odd, odd).width == 4);

    PngImage wide = make_png_image(6, 4, pattern);
    wide.bits = 16;
    for (size_t i = 0; i < wide.rgba.size(); ++i) wide.rgba[i] = static_cast<uint16_t>(wide.rgba[i] * 256);
    CHECK(fj::downsampled_mean_abs_difference(wide, make_png_image(6, 4, pattern)) == 0.0);
}

TEST_CASE("fidelity: mismatched or tiny images are rejected") {
    const PngImage a = make_png_image(8, 6, pattern);
    const PngImage b = make_png_image(8, 8, pattern);
    CHECK_THROWS_AS(fj::fidelity_ratio(a, b, a), std::runtime_error);
    CHECK_THROWS_AS(fj::fidelity_ratio(a, a, b), std::runtime_error);
    CHECK_THROWS_WITH(fj::fidelity_ratio(b, a, a), doctest::Contains("differ in size"));
    const PngImage line = make_png_image(8, 1, pattern);
    CHECK_THROWS_AS(fj::fidelity_ratio(line, line, line), std::runtime_error);
}

TEST_CASE("level: channel means in the 8-bit range, the shift in the channel that moved most") {
    const PngImage a = make_png_image(4, 3, [](int x, int, int c) { return c == 0 ? 10 * x : 40; });
    const auto means = fj::channel_means(a);
    CHECK(means[0] == doctest::Approx(15.0));  // (0 + 10 + 20 + 30) / 4
    CHECK(means[1] == doctest::Approx(40.0));
    PngImage wide = a;
    wide.bits = 16;
    for (auto& v : wide.rgba) v = static_cast<uint16_t>(v * 256);
    CHECK(fj::channel_means(wide)[0] == doctest::Approx(15.0));

    // References of level 30 (means 20, 30, 40 and 22, 30, 38); the image's
    // green 3 above theirs, its red 1: the shift is green's, 3/30.
    const auto shift = fj::level_shift({{20, 30, 40}, {22, 30, 38}}, {22, 33, 39});
    CHECK(shift.shift == doctest::Approx(0.1));
    CHECK(shift.spread == 0.0);
    CHECK(std::isinf(shift.t));  // the references agree in green exactly
    CHECK(shift.references == 2);
    // Red 1 above the mean 21 (and blue as far below: the first counts),
    // against a sample deviation √2 · √1.5.
    const auto red = fj::level_shift({{20, 30, 40}, {22, 30, 38}}, {22, 30, 38});
    CHECK(red.shift == doctest::Approx(1.0 / 30.0));
    CHECK(red.spread == doctest::Approx(2.0 / 30.0));
    CHECK(red.t == doctest::Approx(1.0 / std::sqrt(3.0)));
    // A black image divides by one 8-bit step; a level of its references' is 0.
    CHECK(fj::level_shift({{0, 0, 0}, {0, 0, 0}}, {0.5, 0, 0}).shift == doctest::Approx(0.5));
    CHECK(fj::level_shift({{0, 0, 0}, {0, 0, 0}}, {0, 0, 0}).t == 0.0);
    CHECK_THROWS(fj::level_shift({{1, 1, 1}}, {1, 1, 1}));
    CHECK_THROWS(fj::level_t_critical(1));
    CHECK_THROWS(fj::level_t_critical(fj::kLevelReferences + 1));
}

TEST_CASE("level: the t test fails one render of the genome in a thousand and finds a shift of eight sigmas") {
    // Means drawn from one normal distribution stand for renders of one
    // genome: the image's t beyond the critical value should be as rare as
    // its 0.1 % says, for every number of references. Shifted by 8 sigmas,
    // the image is found 19 times in 20 or more with all ten.
    std::mt19937_64 random(2026);
    std::normal_distribution<double> noise(0.0, 0.5);
    const auto draw = [&](double offset) {
        const double v = 50 + offset + noise(random);
        return std::array<double, 3>{v, v, v};
    };
    const int trials = 100000;
    for (int n = 2; n <= fj::kLevelReferences; n += 4) {
        CAPTURE(n);
        int beyond = 0, found = 0;
        for (int i = 0; i < trials; ++i) {
            std::vector<std::array<double, 3>> references;
            for (int k = 0; k < n; ++k) references.push_back(draw(0));
            beyond += std::fabs(fj::level_shift(references, draw(0)).t) > fj::level_t_critical(n);
            found += std::fabs(fj::level_shift(references, draw(4.0)).t) > fj::level_t_critical(n);
        }
        CHECK(beyond > trials / 2000);  // about 100 in 100,000
        CHECK(beyond < trials / 500);
        if (n == fj::kLevelReferences) CHECK(found > trials * 19 / 20);
    }
}

TEST_CASE("fidelity: flam3 against itself reads about 1") {
    if (!fj::test::flam3_render_present()) return;
    const std::string dir = fj::test::scratch_dir("image-self");
    const int seeds[3] = {11, 22, 33};
    PngImage images[3];
    for (int i = 0; i < 3; ++i) {
        const std::string path = dir + "/s" + std::to_string(seeds[i]) + ".png";
        const auto result = flam3_render(path, seeds[i]);
        REQUIRE_MESSAGE(result.status == 0, result.output);
        images[i] = fj::read_png(path);
    }
    const auto r = fj::fidelity_ratio(images[0], images[1], images[2]);
    MESSAGE("flam3 vs flam3: R = " << r.ratio << " (R1 " << r.ratio_a << ", R2 " << r.ratio_b
                                   << "), mean|A-B| = " << r.error_ab);
    CHECK(r.error_ab > 0.0);  // the seeds really differ
    CHECK(r.ratio >= 0.7);
    CHECK(r.ratio <= 1.4);
}

TEST_CASE("cli: flamejit compare") {
    const std::string binary = fj::test::flamejit_binary();
    const auto help = fj::test::run_command(binary + " compare --help");
    CHECK(help.status == 0);
    CHECK(help.output.find("usage: flamejit compare") != std::string::npos);
    const std::string dir = fj::test::scratch_dir("image-cli");
    // Whole values, so the 16-bit copy of A reads back equal to A.
    fj::ImageF base = make_gradient(20, 12);
    for (float& v : base.rgba) v = std::floor(v);
    fj::ImageF shifted = base;
    for (size_t i = 0; i < shifted.rgba.size(); ++i)
        if (i % 4 != 3) shifted.rgba[i] = std::fmin(shifted.rgba[i] + 10.0f, 255.0f);
    fj::write_png(dir + "/a.png", base);
    fj::write_png(dir + "/b.png", shifted);
    fj::write_png(dir + "/c.png", base, {.bits = 16});

    const auto text = fj::test::run_command(binary + " compare " + dir + "/a.png " + dir + "/b.png " + dir + "/c.png");
    CHECK(text.status == 0);
    CHECK(text.output.find("fidelity ratio R = 0.5000") != std::string::npos);

    const auto json = fj::test::run_command(binary + " compare --json " + dir + "/a.png " + dir + "/b.png " + dir +
                                            "/c.png");
    CHECK(json.status == 0);
    const auto parsed = nlohmann::json::parse(json.output, nullptr, false);
    REQUIRE_FALSE(parsed.is_discarded());
    CHECK(parsed["ratio"].get<double>() == doctest::Approx(0.5));
    CHECK(parsed["ratio_a"].get<double>() == doctest::Approx(0.0));
    // C's level is A's, half way from B's: it lies below the references'
    // mean by half their spread.
    CHECK(parsed["level_shift"].get<double>() < -0.01);
    CHECK(parsed["level_spread"].get<double>() == doctest::Approx(-2 * parsed["level_shift"].get<double>()));
    CHECK(text.output.find("mean level of C -") != std::string::npos);

    CHECK(fj::test::run_command(binary + " compare " + dir + "/a.png " + dir + "/b.png").status == 2);
    CHECK(fj::test::run_command(binary + " compare " + dir + "/a.png " + dir + "/b.png " + dir + "/nope.png")
              .status == 2);
    fj::test::write_file(dir + "/junk.png", "not a png");
    const auto junk = fj::test::run_command(binary + " compare " + dir + "/a.png " + dir + "/b.png " + dir +
                                            "/junk.png");
    CHECK(junk.status == 2);
    CHECK(junk.output.find("not a PNG") != std::string::npos);
    CHECK(fj::test::run_command(binary + " compare --bogus a b c").status == 2);
}
