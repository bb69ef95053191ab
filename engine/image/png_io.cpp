// flamejit — PNG output and input (libpng), quantised the way flam3 quantises.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/png_io.h"

#include <png.h>
#include <zlib.h>

#include <cerrno>
#include <cmath>
#include <csetjmp>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "atomic_file.h"

namespace fj {

namespace {

// libpng reports errors through a callback that must not return. We longjmp
// back to the setjmp in the function that drives libpng and rethrow there as
// a C++ exception, so no exception ever unwinds through libpng's C frames.
// The driving functions keep every object with a destructor in their callers.
struct PngErrorState {
    std::jmp_buf jump;
    char message[256] = {};
};

void on_png_error(png_structp png, png_const_charp message) {
    auto* state = static_cast<PngErrorState*>(png_get_error_ptr(png));
    std::snprintf(state->message, sizeof state->message, "%s", message ? message : "libpng error");
    std::longjmp(state->jump, 1);
}

void on_png_warning(png_structp, png_const_charp) {}

struct FileCloser {
    FILE* file = nullptr;
    ~FileCloser() {
        if (file) std::fclose(file);
    }
};

// Everything libpng needs to write, prepared before any libpng call so that a
// longjmp skips no destructor.
struct EncodedPng {
    int width = 0, height = 0, bits = 8;
    std::vector<uint8_t> bytes;      // rows of big-endian RGBA samples
    std::vector<png_text> text;      // points into the caller's strings
};

// Returns an empty string on success, else libpng's message.
std::string write_with_libpng(FILE* file, EncodedPng& encoded) {
    PngErrorState state;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_png_error, on_png_warning);
    if (!png) return "cannot create a libpng writer";
    png_infop info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        return "cannot create a libpng info struct";
    }
    if (setjmp(state.jump)) {
        png_destroy_write_struct(&png, &info);
        return state.message;
    }
    png_init_io(png, file);
    // One filter (Paeth) and run-length deflate instead of libpng's default
    // (every filter tried per row, deflate level 6): flames are noisy, so
    // long-distance matches buy little while the search costs most of the
    // time. 1920×1080 RGBA on one core: 730 → 107 ms (spherical4) and 949 →
    // 114 ms (dense), files 2.5 % larger and 3 % smaller; a sparse frame's
    // 73 → 25 ms at the same size (benchmarks/README.md "PNG encoding").
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
    png_set_compression_strategy(png, Z_RLE);
    png_set_IHDR(png, info, encoded.width, encoded.height, encoded.bits, PNG_COLOR_TYPE_RGB_ALPHA,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (!encoded.text.empty())
        png_set_text(png, info, encoded.text.data(), static_cast<int>(encoded.text.size()));
    png_write_info(png, info);
    const size_t row_bytes = static_cast<size_t>(encoded.width) * 4 * (encoded.bits / 8);
    for (int y = 0; y < encoded.height; ++y)
        png_write_row(png, encoded.bytes.data() + row_bytes * static_cast<size_t>(y));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return {};
}

void check_keyword(const std::string& key) {
    // PNG keywords: 1-79 printable Latin-1 characters, no leading, trailing or double spaces.
    bool ok = !key.empty() && key.size() <= 79 && key.front() != ' ' && key.back() != ' ' &&
              key.find("  ") == std::string::npos;
    for (unsigned char c : key) ok = ok && ((c >= 32 && c <= 126) || c >= 161);
    if (!ok) throw std::runtime_error("invalid PNG text keyword \"" + key + "\" (1-79 printable characters)");
}

png_text make_text(const std::string& key, const std::string& value, int compression) {
    png_text t{};
    t.compression = compression;
    t.key = const_cast<char*>(key.c_str());
    t.text = const_cast<char*>(value.c_str());
    t.text_length = value.size();
    return t;
}


struct DecodedPng {
    int width = 0, height = 0, bits = 8;
    std::vector<uint8_t> bytes;  // RGBA rows after libpng's transformations
    std::map<std::string, std::string> text;
};

void collect_text(png_structp png, png_infop info, DecodedPng& out) {
    png_textp text = nullptr;
    int count = 0;
    png_get_text(png, info, &text, &count);
    for (int i = 0; i < count; ++i)
        out.text[text[i].key] = std::string(text[i].text ? text[i].text : "",
                                            text[i].compression == PNG_ITXT_COMPRESSION_NONE ||
                                                    text[i].compression == PNG_ITXT_COMPRESSION_zTXt
                                                ? text[i].itxt_length
                                                : text[i].text_length);
}

// Fills `out` (sized by this function) or returns libpng's message. The
// caller owns `out`, so a longjmp here skips nothing with a destructor.
std::string read_with_libpng(FILE* file, DecodedPng& out, std::vector<png_bytep>& rows) {
    PngErrorState state;
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_png_error, on_png_warning);
    if (!png) return "cannot create a libpng reader";
    png_infop info = png_create_info_struct(png);
    png_infop end_info = png_create_info_struct(png);
    if (!info || !end_info) {
        png_destroy_read_struct(&png, &info, &end_info);
        return "cannot create a libpng info struct";
    }
    if (setjmp(state.jump)) {
        png_destroy_read_struct(&png, &info, &end_info);
        return state.message;
    }
    png_init_io(png, file);
    png_read_info(png, info);
    collect_text(png, info, out);
    const int colour_type = png_get_color_type(png, info);
    const int depth = png_get_bit_depth(png, info);
    // Expand everything to 8- or 16-bit RGBA so callers see one layout.
    if (colour_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
    if (colour_type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
    if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
    if (colour_type == PNG_COLOR_TYPE_GRAY || colour_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(png);
    if (!(colour_type & PNG_COLOR_MASK_ALPHA) && !png_get_valid(png, info, PNG_INFO_tRNS))
        png_set_add_alpha(png, depth == 16 ? 0xffff : 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    out.width = static_cast<int>(png_get_image_width(png, info));
    out.height = static_cast<int>(png_get_image_height(png, info));
    out.bits = png_get_bit_depth(png, info);
    const size_t row_bytes = png_get_rowbytes(png, info);
    out.bytes.resize(row_bytes * static_cast<size_t>(out.height));
    rows.resize(static_cast<size_t>(out.height));
    for (int y = 0; y < out.height; ++y) rows[y] = out.bytes.data() + row_bytes * static_cast<size_t>(y);
    png_read_image(png, rows.data());
    png_read_end(png, end_info);
    collect_text(png, end_info, out);
    png_destroy_read_struct(&png, &info, &end_info);
    return {};
}

DecodedPng decode(const std::string& path) {
    FileCloser file{std::fopen(path.c_str(), "rb")};
    if (!file.file) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    unsigned char signature[8] = {};
    if (std::fread(signature, 1, 8, file.file) != 8 || png_sig_cmp(signature, 0, 8) != 0)
        throw std::runtime_error(path + " is not a PNG file");
    std::rewind(file.file);
    DecodedPng out;
    std::vector<png_bytep> rows;
    const std::string error = read_with_libpng(file.file, out, rows);
    if (!error.empty()) throw std::runtime_error("cannot read PNG " + path + ": " + error);
    return out;
}

}  // namespace

uint16_t quantise_colour(float value, int bits) {
    // flam3 clamps to [0, 255] and truncates; NaN is treated as black.
    float v = std::isnan(value) ? 0.0f : std::fmin(std::fmax(value, 0.0f), 255.0f);
    if (bits == 16) return static_cast<uint16_t>(v * 256.0f);
    return static_cast<uint8_t>(v);
}

uint16_t quantise_alpha(float alpha, int bits) {
    float a = std::isnan(alpha) ? 0.0f : std::fmin(std::fmax(alpha, 0.0f), 1.0f);
    if (bits == 16) return static_cast<uint16_t>(a * 65535.0f);
    return static_cast<uint8_t>(a * 255.0f);
}

double PngImage::at8(int x, int y, int channel) const {
    const double v = rgba[(static_cast<size_t>(y) * width + x) * 4 + channel];
    return bits == 16 ? v / 256.0 : v;
}

void write_png(const std::string& path, const ImageF& image, const PngOptions& options) {
    if (options.bits != 8 && options.bits != 16)
        throw std::runtime_error("PNG bit depth must be 8 or 16, not " + std::to_string(options.bits));
    if (image.width <= 0 || image.height <= 0 ||
        image.rgba.size() != static_cast<size_t>(image.width) * image.height * 4)
        throw std::runtime_error("cannot write " + path + ": image is " + std::to_string(image.width) + "x" +
                                 std::to_string(image.height) + " with " + std::to_string(image.rgba.size()) +
                                 " samples");

    EncodedPng encoded;
    encoded.width = image.width;
    encoded.height = image.height;
    encoded.bits = options.bits;
    const size_t bytes_per_sample = options.bits / 8;
    encoded.bytes.resize(image.rgba.size() * bytes_per_sample);
    const uint16_t opaque = options.bits == 16 ? 0xffff : 0xff;
    for (size_t i = 0; i < image.rgba.size(); ++i) {
        const bool is_alpha = i % 4 == 3;
        const uint16_t q = is_alpha ? (options.transparent ? quantise_alpha(image.rgba[i], options.bits) : opaque)
                                    : quantise_colour(image.rgba[i], options.bits);
        if (bytes_per_sample == 2) {
            encoded.bytes[2 * i] = static_cast<uint8_t>(q >> 8);  // PNG is big-endian
            encoded.bytes[2 * i + 1] = static_cast<uint8_t>(q & 0xff);
        } else {
            encoded.bytes[i] = static_cast<uint8_t>(q);
        }
    }
    static const std::string genome_key = "flam3_genome";
    for (const auto& [key, value] : options.text) {
        check_keyword(key);
        encoded.text.push_back(make_text(key, value, PNG_TEXT_COMPRESSION_NONE));
    }
    if (!options.genome_xml.empty())
        encoded.text.push_back(make_text(genome_key, options.genome_xml, PNG_TEXT_COMPRESSION_zTXt));

    const std::filesystem::path target(path);
    const std::string temporary = temporary_name_for(target);
    std::string error;
    {
        FileCloser file{std::fopen(temporary.c_str(), "wb")};
        if (!file.file)
            throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        error = write_with_libpng(file.file, encoded);
        const bool flushed = std::fflush(file.file) == 0 && !std::ferror(file.file);
        if (error.empty() && !flushed) error = std::strerror(errno);
        const int closed = std::fclose(file.file);
        file.file = nullptr;
        if (error.empty() && closed != 0) error = std::strerror(errno);
    }
    commit_temporary(temporary, path, error);
}

PngImage read_png(const std::string& path) {
    DecodedPng decoded = decode(path);
    PngImage image;
    image.width = decoded.width;
    image.height = decoded.height;
    image.bits = decoded.bits;
    const size_t samples = static_cast<size_t>(decoded.width) * decoded.height * 4;
    image.rgba.resize(samples);
    if (decoded.bits == 16) {
        for (size_t i = 0; i < samples; ++i)
            image.rgba[i] = static_cast<uint16_t>(decoded.bytes[2 * i] << 8 | decoded.bytes[2 * i + 1]);
    } else {
        for (size_t i = 0; i < samples; ++i) image.rgba[i] = decoded.bytes[i];
    }
    return image;
}

std::map<std::string, std::string> read_png_text(const std::string& path) {
    // Text may follow the image data, so the whole file is decoded.
    return decode(path).text;
}

}  // namespace fj
