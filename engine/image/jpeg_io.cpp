// flamejit — JPEG output and input (libjpeg), as flam3-render writes it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/jpeg_io.h"

#include <cerrno>
#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string_view>
#include <vector>

// jpeglib.h needs size_t and FILE declared before it.
#include <jpeglib.h>

#include "atomic_file.h"

namespace fj {

namespace {

// libjpeg's errors end in error_exit, which must not return: it longjmps to
// the setjmp of the function driving libjpeg, which throws from there, so no
// exception unwinds through libjpeg's C frames. Warnings (a file cut short
// among them) are counted, not printed.
struct JpegErrors {
    jpeg_error_mgr manager{};
    std::jmp_buf jump;
    char message[JMSG_LENGTH_MAX] = {};
    int warnings = 0;
};

void on_jpeg_error(j_common_ptr cinfo) {
    auto* errors = reinterpret_cast<JpegErrors*>(cinfo->err);
    (*cinfo->err->format_message)(cinfo, errors->message);
    std::longjmp(errors->jump, 1);
}

void on_jpeg_message(j_common_ptr cinfo, int level) {
    if (level < 0) ++reinterpret_cast<JpegErrors*>(cinfo->err)->warnings;
}

void route_errors(JpegErrors& errors) {
    jpeg_std_error(&errors.manager);
    errors.manager.error_exit = on_jpeg_error;
    errors.manager.emit_message = on_jpeg_message;
}

// A comment marker's data is at most 65533 bytes (its length field counts
// itself).
constexpr size_t kCommentLimit = 65533;

std::string comment(const std::string& key, const std::string& value) { return key + ": " + value; }

void append_marker(std::string& out, const std::string& text) {
    const size_t length = text.size() + 2;
    out += '\xff';
    out += '\xfe';  // COM
    out += static_cast<char>(length >> 8);
    out += static_cast<char>(length & 0xff);
    out += text;
}

// Where the comments go in a file libjpeg wrote: after SOI and the APPn
// segments that follow it (JFIF), before the tables, as flam3's come.
size_t after_headers(std::string_view jpeg) {
    size_t at = 2;  // SOI
    while (at + 4 <= jpeg.size() && static_cast<unsigned char>(jpeg[at]) == 0xff &&
           (static_cast<unsigned char>(jpeg[at + 1]) & 0xf0) == 0xe0)
        at += 2 + (static_cast<size_t>(static_cast<unsigned char>(jpeg[at + 2])) << 8 |
                   static_cast<unsigned char>(jpeg[at + 3]));
    return std::min(at, jpeg.size());
}

}  // namespace

bool jpeg_comment_fits(const std::string& key, const std::string& value) {
    return key.size() + 2 + value.size() <= kCommentLimit;
}

struct JpegStream::State {
    std::string path, temporary, body_path;
    FILE* body = nullptr;
    JpegErrors errors;
    jpeg_compress_struct jpeg{};
    bool started = false;  // jpeg is created and not yet destroyed
    bool finished = false;
    std::vector<unsigned char> row;

    // Whatever is left when the stream goes, finished or not (a constructor
    // that failed included).
    ~State() {
        if (started) jpeg_destroy_compress(&jpeg);
        if (body) std::fclose(body);
        if (!body_path.empty()) discard_temporary(body_path);
        if (!finished && !temporary.empty()) discard_temporary(temporary);
    }

    // libjpeg's work in `step` (nothing with a destructor in it: errors
    // longjmp out of it); throws with libjpeg's message. After a failure the
    // stream can only be thrown away.
    template <typename Step>
    void guarded(Step step) {
        if (!started) throw std::runtime_error("cannot write " + path + ": the JPEG stream failed before");
        if (setjmp(errors.jump)) {
            jpeg_destroy_compress(&jpeg);
            started = false;
            throw std::runtime_error("cannot write " + path + ": " + errors.message);
        }
        step();
    }
};

JpegStream::JpegStream(const std::string& path, int width, int height, const ImageOptions& options)
    : ImageStream(path, width, height, options, false), state_(std::make_unique<State>()) {
    if (options.bits != 8)
        throw std::runtime_error("JPEG samples are 8 bits, not " + std::to_string(options.bits));
    if (options.jpeg_quality < 1 || options.jpeg_quality > 100)
        throw std::runtime_error("JPEG quality must be in 1..100, not " + std::to_string(options.jpeg_quality));
    State& s = *state_;
    s.path = path;
    s.row.resize(static_cast<size_t>(width) * 3);
    s.temporary = temporary_name_for(std::filesystem::path(path));
    s.body_path = temporary_name_for(std::filesystem::path(path));
    s.body = std::fopen(s.body_path.c_str(), "wb");
    if (!s.body) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
    route_errors(s.errors);
    s.jpeg.err = &s.errors.manager;
    jpeg_create_compress(&s.jpeg);
    s.started = true;
    s.guarded([&] {
        jpeg_stdio_dest(&s.jpeg, s.body);
        s.jpeg.image_width = static_cast<JDIMENSION>(width);
        s.jpeg.image_height = static_cast<JDIMENSION>(height);
        s.jpeg.input_components = 3;
        s.jpeg.in_color_space = JCS_RGB;
        jpeg_set_defaults(&s.jpeg);
        jpeg_set_quality(&s.jpeg, options.jpeg_quality, TRUE);
        jpeg_start_compress(&s.jpeg, TRUE);
        if (options.color_space != ColorSpace::Srgb) {
            const std::vector<uint8_t> profile = icc_profile(options.color_space);
            jpeg_write_icc_profile(&s.jpeg, profile.data(), static_cast<unsigned>(profile.size()));
        }
    });
}

JpegStream::~JpegStream() = default;

void JpegStream::add_rows(const ImageF& rows, int) {
    State& s = *state_;
    const size_t w = static_cast<size_t>(width());
    for (int y = 0; y < rows.height; ++y) {
        quantise_rgb8(rows.rgba.data() + 4 * w * static_cast<size_t>(y), w, s.row.data());
        JSAMPROW row = s.row.data();
        s.guarded([&] { jpeg_write_scanlines(&s.jpeg, &row, 1); });
    }
}

void JpegStream::close(const ImageOptions& options) {
    State& s = *state_;
    s.guarded([&] { jpeg_finish_compress(&s.jpeg); });
    jpeg_destroy_compress(&s.jpeg);
    s.started = false;
    const bool written = std::fflush(s.body) == 0 && !std::ferror(s.body);
    const std::string body_error = written ? "" : std::strerror(errno);
    std::fclose(s.body);
    s.body = nullptr;
    if (!body_error.empty()) throw std::runtime_error("cannot write " + s.path + ": " + body_error);

    std::string markers;
    for (const auto& [key, value] : options.text)
        if (!value.empty() && jpeg_comment_fits(key, value)) append_marker(markers, comment(key, value));
    if (!options.genome_xml.empty() && jpeg_comment_fits("flam3_genome", options.genome_xml))
        append_marker(markers, comment("flam3_genome", options.genome_xml));

    // The compressed file copied with the markers after its headers, which
    // lie within its first block.
    std::string error;
    FILE* in = std::fopen(s.body_path.c_str(), "rb");
    FILE* out = in ? std::fopen(s.temporary.c_str(), "wb") : nullptr;
    if (in && out) {
        std::string block(size_t(1) << 16, '\0');
        bool first = true;
        for (size_t n; error.empty() && (n = std::fread(block.data(), 1, block.size(), in)) > 0; first = false) {
            const std::string_view data(block.data(), n);
            const size_t at = first ? after_headers(data) : 0;
            const std::string_view inserted = first ? std::string_view(markers) : std::string_view();
            const bool ok = std::fwrite(data.data(), 1, at, out) == at &&
                            std::fwrite(inserted.data(), 1, inserted.size(), out) == inserted.size() &&
                            std::fwrite(data.data() + at, 1, n - at, out) == n - at;
            if (!ok) error = std::strerror(errno);
        }
        if (error.empty() && std::ferror(in)) error = "cannot read its compressed rows back";
        if (error.empty() && std::fflush(out) != 0) error = std::strerror(errno);
    } else {
        error = std::strerror(errno);
    }
    if (in) std::fclose(in);
    if (out && std::fclose(out) != 0 && error.empty()) error = std::strerror(errno);
    s.finished = true;
    commit_temporary(s.temporary, s.path, error);
}

namespace {

struct DecodedJpeg {
    int width = 0, height = 0;
    std::vector<unsigned char> rgb;  // when asked for
    std::map<std::string, std::string> text;
    std::vector<uint8_t> icc_profile;
    int warnings = 0;
};

// libjpeg's reading, driven under setjmp: everything with a destructor
// lives in the caller. `pixels`: decode the rows into out.rgb, else only
// through them (at an eighth of the size: the whole compressed data is
// still read); `comments`: keep the COM markers. Returns libjpeg's message,
// or an empty string.
std::string decode_with_libjpeg(FILE* file, DecodedJpeg& out, std::vector<unsigned char>& row, bool pixels,
                                bool comments) {
    JpegErrors errors;
    route_errors(errors);
    jpeg_decompress_struct jpeg{};
    jpeg.err = &errors.manager;
    jpeg_create_decompress(&jpeg);
    if (setjmp(errors.jump)) {
        jpeg_destroy_decompress(&jpeg);
        return errors.message;
    }
    jpeg_stdio_src(&jpeg, file);
    if (comments) jpeg_save_markers(&jpeg, JPEG_COM, 0xffff);
    if (pixels) jpeg_save_markers(&jpeg, JPEG_APP0 + 2, 0xffff);  // an ICC profile
    jpeg_read_header(&jpeg, TRUE);
    out.width = static_cast<int>(jpeg.image_width);
    out.height = static_cast<int>(jpeg.image_height);
    JOCTET* profile = nullptr;
    unsigned int profile_size = 0;
    if (pixels && jpeg_read_icc_profile(&jpeg, &profile, &profile_size)) {
        out.icc_profile.assign(profile, profile + profile_size);
        std::free(profile);
    }
    for (jpeg_saved_marker_ptr m = jpeg.marker_list; m; m = m->next) {
        if (m->marker != JPEG_COM) continue;
        const std::string text(reinterpret_cast<const char*>(m->data), m->data_length);
        const size_t colon = text.find(": ");
        if (colon == std::string::npos) out.text[text] = "";
        else out.text[text.substr(0, colon)] = text.substr(colon + 2);
    }
    jpeg.out_color_space = JCS_RGB;
    if (!pixels) jpeg.scale_denom = 8;
    jpeg_start_decompress(&jpeg);
    row.resize(static_cast<size_t>(jpeg.output_width) * 3);
    if (pixels) out.rgb.resize(row.size() * jpeg.output_height);
    while (jpeg.output_scanline < jpeg.output_height) {
        JSAMPROW target = pixels ? out.rgb.data() + row.size() * jpeg.output_scanline : row.data();
        jpeg_read_scanlines(&jpeg, &target, 1);
    }
    jpeg_finish_decompress(&jpeg);
    out.warnings = errors.warnings;
    jpeg_destroy_decompress(&jpeg);
    return {};
}

DecodedJpeg decode(const std::string& path, bool pixels, bool comments) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    DecodedJpeg out;
    std::vector<unsigned char> row;
    std::string error = "not a JPEG file";
    unsigned char signature[3] = {};
    if (std::fread(signature, 1, 3, file) == 3 && signature[0] == 0xff && signature[1] == 0xd8 && signature[2] == 0xff) {
        std::rewind(file);
        error = decode_with_libjpeg(file, out, row, pixels, comments);
    }
    std::fclose(file);
    if (!error.empty()) throw std::runtime_error("cannot read JPEG " + path + ": " + error);
    return out;
}

}  // namespace

bool jpeg_complete(const std::string& path, int width, int height) {
    try {
        const DecodedJpeg d = decode(path, false, false);
        return d.width == width && d.height == height && d.warnings == 0;
    } catch (const std::exception&) {
        return false;
    }
}

PngImage read_jpeg(const std::string& path) {
    const DecodedJpeg d = decode(path, true, false);
    PngImage image;
    image.width = d.width;
    image.height = d.height;
    image.bits = 8;
    image.icc_profile = d.icc_profile;
    const size_t pixels = static_cast<size_t>(d.width) * d.height;
    image.rgba.resize(4 * pixels);
    for (size_t i = 0; i < pixels; ++i) {
        for (int c = 0; c < 3; ++c) image.rgba[4 * i + c] = d.rgb[3 * i + c];
        image.rgba[4 * i + 3] = 255;
    }
    return image;
}

std::map<std::string, std::string> read_jpeg_text(const std::string& path) { return decode(path, false, true).text; }

}  // namespace fj
