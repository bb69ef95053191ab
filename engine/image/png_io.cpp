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
#include <new>
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

// A libpng writer and its info struct; an empty string, or why not.
std::string create_writer(PngErrorState& state, png_structp& png, png_infop& info) {
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_png_error, on_png_warning);
    if (!png) return "cannot create a libpng writer";
    info = png_create_info_struct(png);
    if (!info) {
        png_destroy_write_struct(&png, nullptr);
        return "cannot create a libpng info struct";
    }
    return {};
}

// The header of an RGBA image, with `text` before the image data. Called
// under the caller's setjmp.
void start_image(png_structp png, png_infop info, FILE* file, int width, int height, int bits,
                 std::vector<png_text>& text) {
    png_init_io(png, file);
    // One filter (Paeth) and run-length deflate instead of libpng's default
    // (every filter tried per row, deflate level 6): flames are noisy, so
    // long-distance matches buy little while the search costs most of the
    // time. 1920×1080 RGBA on one core: 730 → 107 ms (spherical4) and 949 →
    // 114 ms (dense), files 2.5 % larger and 3 % smaller; a sparse frame's
    // 73 → 25 ms at the same size (benchmarks/README.md "PNG encoding").
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_PAETH);
    png_set_compression_strategy(png, Z_RLE);
    png_set_IHDR(png, info, width, height, bits, PNG_COLOR_TYPE_RGB_ALPHA, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (!text.empty()) png_set_text(png, info, text.data(), static_cast<int>(text.size()));
    png_write_info(png, info);
}

// Returns an empty string on success, else libpng's message.
std::string write_with_libpng(FILE* file, EncodedPng& encoded) {
    PngErrorState state;
    png_structp png = nullptr;
    png_infop info = nullptr;
    if (std::string error = create_writer(state, png, info); !error.empty()) return error;
    if (setjmp(state.jump)) {
        png_destroy_write_struct(&png, &info);
        return state.message;
    }
    start_image(png, info, file, encoded.width, encoded.height, encoded.bits, encoded.text);
    const size_t row_bytes = static_cast<size_t>(encoded.width) * 4 * (encoded.bits / 8);
    for (int y = 0; y < encoded.height; ++y)
        png_write_row(png, encoded.bytes.data() + row_bytes * static_cast<size_t>(y));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return {};
}

// flam3's quantisation of `count` RGBA floats into big-endian samples.
void encode_samples(const float* rgba, size_t count, int bits, bool transparent, uint8_t* out) {
    const uint16_t opaque = bits == 16 ? 0xffff : 0xff;
    for (size_t i = 0; i < count; ++i) {
        const bool is_alpha = i % 4 == 3;
        const uint16_t q = is_alpha ? (transparent ? quantise_alpha(rgba[i], bits) : opaque)
                                    : quantise_colour(rgba[i], bits);
        if (bits == 16) {
            out[2 * i] = static_cast<uint8_t>(q >> 8);  // PNG is big-endian
            out[2 * i + 1] = static_cast<uint8_t>(q & 0xff);
        } else {
            out[i] = static_cast<uint8_t>(q);
        }
    }
}

void check_bits(int bits) {
    if (bits != 8 && bits != 16) throw std::runtime_error("PNG bit depth must be 8 or 16, not " + std::to_string(bits));
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

// The text chunks of `options`, pointing into its strings.
std::vector<png_text> text_chunks(const ImageOptions& options) {
    static const std::string genome_key = "flam3_genome";
    std::vector<png_text> text;
    for (const auto& [key, value] : options.text) {
        check_keyword(key);
        text.push_back(make_text(key, value, PNG_TEXT_COMPRESSION_NONE));
    }
    if (!options.genome_xml.empty())
        text.push_back(make_text(genome_key, options.genome_xml, PNG_TEXT_COMPRESSION_zTXt));
    return text;
}

// Flushes and closes `file`; the first failure, or an empty string.
std::string close_file(FILE*& file) {
    std::string error;
    if (std::fflush(file) != 0 || std::ferror(file)) error = std::strerror(errno);
    if (std::fclose(file) != 0 && error.empty()) error = std::strerror(errno);
    file = nullptr;
    return error;
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
    try {
        out.bytes.resize(row_bytes * static_cast<size_t>(out.height));
        rows.resize(static_cast<size_t>(out.height));
    } catch (const std::bad_alloc&) {
        png_destroy_read_struct(&png, &info, &end_info);
        return "its " + std::to_string(out.width) + "x" + std::to_string(out.height) +
               " pixels do not fit in this machine's memory";
    }
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

void quantise_rgb8(const float* rgba, size_t pixels, unsigned char* rgb) {
    for (size_t i = 0; i < pixels; ++i)
        for (int c = 0; c < 3; ++c) rgb[3 * i + c] = static_cast<unsigned char>(quantise_colour(rgba[4 * i + c], 8));
}

double PngImage::at8(int x, int y, int channel) const {
    const double v = rgba[(static_cast<size_t>(y) * width + x) * 4 + channel];
    return bits == 16 ? v / 256.0 : v;
}

void write_png(const std::string& path, const ImageF& image, const ImageOptions& options) {
    check_bits(options.bits);
    check_whole_image(path, image);

    EncodedPng encoded;
    encoded.width = image.width;
    encoded.height = image.height;
    encoded.bits = options.bits;
    encoded.bytes.resize(image.rgba.size() * (options.bits / 8));
    encode_samples(image.rgba.data(), image.rgba.size(), options.bits, options.transparent, encoded.bytes.data());
    encoded.text = text_chunks(options);

    const std::filesystem::path target(path);
    const std::string temporary = temporary_name_for(target);
    std::string error;
    {
        FileCloser file{std::fopen(temporary.c_str(), "wb")};
        if (!file.file) {
            error = std::strerror(errno);
            discard_temporary(temporary);
            throw std::runtime_error("cannot write " + path + ": " + error);
        }
        error = write_with_libpng(file.file, encoded);
        const std::string closed = close_file(file.file);
        if (error.empty()) error = closed;
    }
    commit_temporary(temporary, path, error);
}

struct PngStream::State {
    std::string path, temporary;
    int bits = 8;
    bool transparent = false;
    FILE* file = nullptr;
    PngErrorState error;
    png_structp png = nullptr;
    png_infop info = nullptr;
    std::vector<uint8_t> row;  // one encoded row

    // libpng's work in `step` (no objects with destructors in it: libpng's
    // errors longjmp out of it); throws with libpng's message. After a
    // failure the stream can only be thrown away.
    template <typename Step>
    void guarded(Step step) {
        if (!png) throw std::runtime_error("cannot write " + path + ": the PNG stream failed before");
        if (setjmp(error.jump)) {
            png_destroy_write_struct(&png, &info);
            throw std::runtime_error("cannot write " + path + ": " + error.message);
        }
        step();
    }
};

PngStream::PngStream(const std::string& path, int width, int height, const ImageOptions& options)
    : ImageStream(path, width, height), state_(std::make_unique<State>()) {
    check_bits(options.bits);
    State& s = *state_;
    s.path = path;
    s.bits = options.bits;
    s.transparent = options.transparent;
    s.row.resize(static_cast<size_t>(width) * 4 * (options.bits / 8));
    s.temporary = temporary_name_for(std::filesystem::path(path));
    s.file = std::fopen(s.temporary.c_str(), "wb");
    if (!s.file) {
        const std::string error = std::strerror(errno);
        discard_temporary(s.temporary);
        throw std::runtime_error("cannot write " + path + ": " + error);
    }
    if (std::string error = create_writer(s.error, s.png, s.info); !error.empty()) {
        std::fclose(s.file);
        discard_temporary(s.temporary);
        throw std::runtime_error("cannot write " + path + ": " + error);
    }
    try {
        std::vector<png_text> none;
        s.guarded([&] { start_image(s.png, s.info, s.file, width, height, s.bits, none); });
    } catch (...) {
        std::fclose(s.file);
        discard_temporary(s.temporary);
        throw;
    }
}

PngStream::~PngStream() {
    State& s = *state_;
    if (s.png) png_destroy_write_struct(&s.png, &s.info);
    if (s.file) {
        std::fclose(s.file);
        discard_temporary(s.temporary);
    }
}

void PngStream::add_rows(const ImageF& rows, int) {
    State& s = *state_;
    const size_t samples = static_cast<size_t>(width()) * 4;
    for (int y = 0; y < rows.height; ++y) {
        encode_samples(rows.rgba.data() + samples * y, samples, s.bits, s.transparent, s.row.data());
        s.guarded([&] { png_write_row(s.png, s.row.data()); });
    }
}

void PngStream::close(const ImageOptions& options) {
    State& s = *state_;
    std::vector<png_text> text = text_chunks(options);
    s.guarded([&] {
        if (!text.empty()) png_set_text(s.png, s.info, text.data(), static_cast<int>(text.size()));
        png_write_end(s.png, s.info);
    });
    png_destroy_write_struct(&s.png, &s.info);
    commit_temporary(s.temporary, s.path, close_file(s.file));
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
