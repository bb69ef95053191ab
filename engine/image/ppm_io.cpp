// flamejit — PPM output and input (binary P6), as flam3-render writes it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/ppm_io.h"

#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "atomic_file.h"

namespace fj {

struct PpmStream::State {
    std::string path, temporary;
    FILE* file = nullptr;
    bool finished = false;
    std::vector<unsigned char> row;

    ~State() {
        if (file) std::fclose(file);
        if (!finished && !temporary.empty()) discard_temporary(temporary);
    }
};

PpmStream::PpmStream(const std::string& path, int width, int height, const ImageOptions& options)
    : ImageStream(path, width, height, options, false), state_(std::make_unique<State>()) {
    if (options.bits != 8) throw std::runtime_error("PPM samples are 8 bits here, not " + std::to_string(options.bits));
    if (options.color_space != ColorSpace::Srgb)
        throw std::runtime_error("a PPM carries no colour profile: " + path + " cannot be in " +
                                 to_string(options.color_space));
    State& s = *state_;
    s.path = path;
    s.row.resize(static_cast<size_t>(width) * 3);
    s.temporary = temporary_name_for(std::filesystem::path(path));
    s.file = std::fopen(s.temporary.c_str(), "wb");
    if (!s.file || std::fprintf(s.file, "P6\n%d %d\n255\n", width, height) < 0)
        throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
}

PpmStream::~PpmStream() = default;

void PpmStream::add_rows(const ImageF& rows, int) {
    State& s = *state_;
    const size_t w = static_cast<size_t>(width());
    for (int y = 0; y < rows.height; ++y) {
        quantise_rgb8(rows.rgba.data() + 4 * w * static_cast<size_t>(y), w, s.row.data());
        if (std::fwrite(s.row.data(), 1, s.row.size(), s.file) != s.row.size())
            throw std::runtime_error("cannot write " + s.path + ": " + std::strerror(errno));
    }
}

void PpmStream::close(const ImageOptions&) {
    State& s = *state_;
    std::string error;
    if (std::fflush(s.file) != 0 || std::ferror(s.file)) error = std::strerror(errno);
    if (std::fclose(s.file) != 0 && error.empty()) error = std::strerror(errno);
    s.file = nullptr;
    s.finished = true;
    commit_temporary(s.temporary, s.path, error);
}

namespace {

struct PpmHeader {
    int width = 0, height = 0, maxval = 0;
    long data = 0;  // where the samples start
};

// The header's numbers, between whitespace and comments; false for a file
// that is not a binary PPM.
bool read_header(FILE* file, PpmHeader& h) {
    if (std::fgetc(file) != 'P' || std::fgetc(file) != '6') return false;
    int values[3];
    int c = std::fgetc(file);
    for (int& value : values) {
        for (;;) {
            if (c == '#')
                while (c != '\n' && c != EOF) c = std::fgetc(file);
            else if (c != EOF && std::isspace(c))
                c = std::fgetc(file);
            else
                break;
        }
        if (c == EOF || !std::isdigit(c)) return false;
        long long v = 0;
        for (; c != EOF && std::isdigit(c); c = std::fgetc(file))
            if ((v = v * 10 + (c - '0')) > 1000000) return false;
        value = static_cast<int>(v);
    }
    // One whitespace character ends the header.
    if (c == EOF || !std::isspace(c)) return false;
    h = {values[0], values[1], values[2], std::ftell(file)};
    return h.width > 0 && h.height > 0 && h.maxval > 0 && h.maxval <= 65535;
}

}  // namespace

bool ppm_complete(const std::string& path, int width, int height) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) return false;
    PpmHeader h;
    bool complete = read_header(file, h) && h.width == width && h.height == height && std::fseek(file, 0, SEEK_END) == 0;
    if (complete) {
        const long long samples = 3LL * width * height * (h.maxval > 255 ? 2 : 1);
        complete = std::ftell(file) - h.data >= samples;
    }
    std::fclose(file);
    return complete;
}

PngImage read_ppm(const std::string& path) {
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    PngImage image;
    PpmHeader h;
    std::vector<unsigned char> bytes;
    std::string error;
    if (!read_header(file, h)) {
        error = "not a binary PPM file";
    } else {
        const int sample_bytes = h.maxval > 255 ? 2 : 1;
        bytes.resize(3 * static_cast<size_t>(h.width) * h.height * sample_bytes);
        if (std::fread(bytes.data(), 1, bytes.size(), file) != bytes.size()) error = "its samples end early";
    }
    std::fclose(file);
    if (!error.empty()) throw std::runtime_error("cannot read PPM " + path + ": " + error);
    image.width = h.width;
    image.height = h.height;
    image.bits = h.maxval > 255 ? 16 : 8;
    const unsigned top = image.bits == 16 ? 65535 : 255;
    const size_t pixels = static_cast<size_t>(h.width) * h.height;
    image.rgba.resize(4 * pixels);
    for (size_t i = 0; i < pixels; ++i) {
        for (int c = 0; c < 3; ++c) {
            const size_t k = 3 * i + c;
            const unsigned v = image.bits == 16 ? unsigned(bytes[2 * k]) << 8 | bytes[2 * k + 1] : bytes[k];
            image.rgba[4 * i + c] = static_cast<uint16_t>((v * top + h.maxval / 2) / h.maxval);
        }
        image.rgba[4 * i + 3] = static_cast<uint16_t>(top);
    }
    return image;
}

}  // namespace fj
