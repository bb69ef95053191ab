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
#include "image/png_bands.h"

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

// The PNG container, written here: signature, IHDR, text, IDAT and IEND
// chunks, each with its CRC (zlib's crc32). The image data comes from
// png_bands.h in bands of rows deflated apart, which libpng's writer cannot
// take, so libpng only reads.
void put32(std::vector<uint8_t>& out, uint32_t v) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

// A failed write shows in ferror at close_file.
void write_chunk(FILE* file, const char (&type)[5], const uint8_t* data, size_t size) {
    if (size > 0x7fffffffu) throw std::runtime_error("PNG chunk of " + std::to_string(size) + " bytes");
    std::vector<uint8_t> head;
    put32(head, static_cast<uint32_t>(size));
    head.insert(head.end(), type, type + 4);
    uLong crc = crc32(0, head.data() + 4, 4);
    if (size > 0) crc = crc32(crc, data, static_cast<uInt>(size));
    std::vector<uint8_t> tail;
    put32(tail, static_cast<uint32_t>(crc));
    std::fwrite(head.data(), 1, head.size(), file);
    if (size > 0) std::fwrite(data, 1, size, file);
    std::fwrite(tail.data(), 1, tail.size(), file);
}

void write_chunk(FILE* file, const char (&type)[5], const std::vector<uint8_t>& data) {
    write_chunk(file, type, data.data(), data.size());
}

// The signature and IHDR of an RGBA image without interlacing.
void write_header(FILE* file, int width, int height, int bits) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    std::fwrite(signature, 1, sizeof signature, file);
    std::vector<uint8_t> ihdr;
    put32(ihdr, static_cast<uint32_t>(width));
    put32(ihdr, static_cast<uint32_t>(height));
    ihdr.push_back(static_cast<uint8_t>(bits));
    ihdr.push_back(6);  // colour type: RGB with alpha
    ihdr.push_back(0);  // deflate
    ihdr.push_back(0);  // adaptive filtering (each row names its filter)
    ihdr.push_back(0);  // no interlacing
    write_chunk(file, "IHDR", ihdr);
}

// The space's ICC profile in an iCCP chunk (before the image data, as PNG
// requires): its name, then the profile deflated.
void write_profile(FILE* file, ColorSpace space) {
    const std::vector<uint8_t> profile = icc_profile(space);
    const std::string name = to_string(space);
    std::vector<uint8_t> data(name.begin(), name.end());
    data.push_back(0);
    data.push_back(0);  // compression method: deflate
    const uLong length = static_cast<uLong>(profile.size());
    uLongf size = compressBound(length);
    const size_t at = data.size();
    data.resize(at + size);
    if (compress2(data.data() + at, &size, profile.data(), length, Z_BEST_COMPRESSION) != Z_OK)
        throw std::runtime_error("zlib could not compress the colour profile");
    data.resize(at + size);
    write_chunk(file, "iCCP", data);
}

struct TextChunk {
    std::string key;
    const std::string* value;
    bool compressed;  // zTXt, else tEXt
};

void write_text(FILE* file, const std::vector<TextChunk>& text) {
    for (const TextChunk& t : text) {
        std::vector<uint8_t> data(t.key.begin(), t.key.end());
        data.push_back(0);
        if (!t.compressed) {
            data.insert(data.end(), t.value->begin(), t.value->end());
            write_chunk(file, "tEXt", data);
            continue;
        }
        data.push_back(0);  // compression method: deflate
        uLongf size = compressBound(static_cast<uLong>(t.value->size()));
        const size_t at = data.size();
        data.resize(at + size);
        if (compress2(data.data() + at, &size, reinterpret_cast<const Bytef*>(t.value->data()),
                      static_cast<uLong>(t.value->size()), Z_DEFAULT_COMPRESSION) != Z_OK)
            throw std::runtime_error("zlib could not compress the " + t.key + " text");
        data.resize(at + size);
        write_chunk(file, "zTXt", data);
    }
}

// Runs `step`, its failures named after the file being written.
template <typename Step>
void writing(const std::string& path, Step step) {
    try {
        step();
    } catch (const std::runtime_error& e) {
        throw std::runtime_error("cannot write " + path + ": " + e.what());
    }
}

// Writes bands' data as IDAT chunks, one a band; `last`: the image's last
// band is among them.
void write_bands(FILE* file, PngDataStream& stream, const std::vector<PngBand>& bands, bool last) {
    for (size_t b = 0; b < bands.size(); ++b)
        write_chunk(file, "IDAT", stream.piece(bands[b], last && b + 1 == bands.size()));
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

// The text chunks of `options`, pointing into its strings; every keyword
// checked before anything is written.
std::vector<TextChunk> text_chunks(const ImageOptions& options) {
    std::vector<TextChunk> text;
    for (const auto& [key, value] : options.text) {
        check_keyword(key);
        text.push_back({key, &value, false});
    }
    if (!options.genome_xml.empty()) text.push_back({"flam3_genome", &options.genome_xml, true});
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
    std::vector<uint8_t> icc_profile;
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
    png_charp profile_name = nullptr;
    png_bytep profile = nullptr;
    png_uint_32 profile_size = 0;
    int profile_compression = 0;
    if (png_get_iCCP(png, info, &profile_name, &profile_compression, &profile, &profile_size) == PNG_INFO_iCCP)
        out.icc_profile.assign(profile, profile + profile_size);
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
    check_whole_image(path, image);
    PngStream stream(path, image.width, image.height, options, true);
    stream.write_rows(image);
    stream.finish(options);
}

struct PngStream::State {
    std::string path, temporary;
    int bits = 8, pixel_bytes = 4, threads = 1;
    bool transparent = false, text_written = false;
    size_t row_bytes = 0;
    FILE* file = nullptr;
    int waiting_from = 0;          // the first row not yet compressed
    std::vector<uint8_t> waiting;  // from there, the quantised rows of earlier calls
    std::vector<uint8_t> above;    // the row before it
    PngDataStream stream;
};

PngStream::PngStream(const std::string& path, int width, int height, const ImageOptions& options, bool text_first)
    : ImageStream(path, width, height, options, false), state_(std::make_unique<State>()) {
    check_bits(options.bits);
    State& s = *state_;
    s.path = path;
    s.bits = options.bits;
    s.transparent = options.transparent;
    s.threads = std::max(1, options.threads);
    s.pixel_bytes = 4 * (options.bits / 8);
    s.row_bytes = static_cast<size_t>(width) * s.pixel_bytes;
    const std::vector<TextChunk> text = text_first ? text_chunks(options) : std::vector<TextChunk>{};
    s.text_written = text_first;
    s.temporary = temporary_name_for(std::filesystem::path(path));
    s.file = std::fopen(s.temporary.c_str(), "wb");
    if (!s.file) {
        const std::string error = std::strerror(errno);
        discard_temporary(s.temporary);
        throw std::runtime_error("cannot write " + path + ": " + error);
    }
    try {
        writing(path, [&] {
            write_header(s.file, width, height, s.bits);
            if (options.color_space != ColorSpace::Srgb) write_profile(s.file, options.color_space);
            write_text(s.file, text);
        });
    } catch (...) {
        std::fclose(s.file);
        discard_temporary(s.temporary);
        throw;
    }
}

PngStream::~PngStream() {
    State& s = *state_;
    if (s.file) {
        std::fclose(s.file);
        discard_temporary(s.temporary);
    }
}

void PngStream::add_rows(const ImageF& rows, int first_row) {
    State& s = *state_;
    const size_t samples = static_cast<size_t>(width()) * 4;
    // Image row r quantised into `out`: from what earlier calls left, or
    // from these rows (in the band's own thread).
    const auto quantised_row = [&](int r, uint8_t* out) {
        if (r >= first_row)
            encode_samples(rows.rgba.data() + samples * (r - first_row), samples, s.bits, s.transparent, out);
        else if (r < s.waiting_from)
            std::copy(s.above.begin(), s.above.end(), out);
        else
            std::copy_n(s.waiting.begin() + s.row_bytes * (r - s.waiting_from), s.row_bytes, out);
    };
    // The whole bands among the rows that came, or all of them at the image's end.
    const int per_band = png_band_rows(s.row_bytes), in = first_row + rows.height;
    const bool end = in == height();
    const int first_band = s.waiting_from / per_band;
    const int end_band = end ? png_band_count(height(), s.row_bytes) : in / per_band;
    int done = s.waiting_from;
    if (end_band > first_band) {
        done = std::min(end_band * per_band, height());
        writing(s.path, [&] {
            const std::vector<PngBand> bands = deflate_bands(
                [&](int first, int count, uint8_t* out) {
                    for (int i = 0; i < count; ++i) quantised_row(first + i, out + s.row_bytes * i);
                },
                first_band, end_band, height(), s.row_bytes, s.pixel_bytes, s.threads);
            write_bands(s.file, s.stream, bands, end);
        });
    }
    // What waits for the next call: the rows from `done` on, and the one before them.
    std::vector<uint8_t> above(done > 0 ? s.row_bytes : 0), waiting(s.row_bytes * (in - done));
    if (done > 0) quantised_row(done - 1, above.data());
    for (int r = done; r < in; ++r) quantised_row(r, waiting.data() + s.row_bytes * (r - done));
    s.above = std::move(above);
    s.waiting = std::move(waiting);
    s.waiting_from = done;
}

void PngStream::close(const ImageOptions& options) {
    State& s = *state_;
    const std::vector<TextChunk> text = s.text_written ? std::vector<TextChunk>{} : text_chunks(options);
    writing(s.path, [&] {
        write_text(s.file, text);
        write_chunk(s.file, "IEND", nullptr, 0);
    });
    commit_temporary(s.temporary, s.path, close_file(s.file));
}

PngImage read_png(const std::string& path) {
    DecodedPng decoded = decode(path);
    PngImage image;
    image.width = decoded.width;
    image.height = decoded.height;
    image.bits = decoded.bits;
    image.icc_profile = std::move(decoded.icc_profile);
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
