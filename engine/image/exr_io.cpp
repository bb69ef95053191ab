// flamejit — OpenEXR output (single-part scanline, ZIPS).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/exr_io.h"

#include <zlib.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "atomic_file.h"
#include "parallel_for.h"

namespace fj {
namespace {

// EXR is little-endian throughout.
class Bytes {
public:
    void u8(uint8_t v) { data_.push_back(static_cast<char>(v)); }
    void u32(uint32_t v) {
        for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
    }
    void i32(int32_t v) { u32(static_cast<uint32_t>(v)); }
    void u64(uint64_t v) {
        for (int i = 0; i < 8; ++i) u8(static_cast<uint8_t>(v >> (8 * i)));
    }
    void f32(float v) {
        uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        u32(bits);
    }
    void text(const std::string& s) { data_.append(s).push_back('\0'); }
    void raw(const void* p, size_t n) { data_.append(static_cast<const char*>(p), n); }
    size_t size() const { return data_.size(); }
    std::string& data() { return data_; }

    // A header attribute: name, type, byte size, then the value `fill` writes.
    template <typename Fill>
    void attribute(const std::string& name, const std::string& type, Fill fill) {
        text(name);
        text(type);
        Bytes value;
        fill(value);
        i32(static_cast<int32_t>(value.size()));
        data_.append(value.data());
    }

private:
    std::string data_;
};

constexpr const char* kChannels[4] = {"A", "B", "G", "R"};  // EXR's alphabetical order
constexpr int kChannelOfRgba[4] = {3, 2, 1, 0};             // ... taken from RGBA

// One scanline's data as ZIPS stores it: the bytes split into those at even
// and odd offsets, each byte then replaced by its difference from the one
// before plus 128, and deflated; a line that does not shrink is stored raw.
std::string zips_block(const std::string& line) {
    const size_t n = line.size();
    std::string split(n, '\0');
    for (size_t i = 0, even = 0, odd = (n + 1) / 2; i < n; ++i) split[i % 2 ? odd++ : even++] = line[i];
    for (size_t i = n; i-- > 1;)
        split[i] = static_cast<char>(static_cast<uint8_t>(split[i]) - static_cast<uint8_t>(split[i - 1]) + 128);
    uLongf packed_size = compressBound(static_cast<uLong>(n));
    std::string packed(packed_size, '\0');
    if (compress2(reinterpret_cast<Bytef*>(packed.data()), &packed_size, reinterpret_cast<const Bytef*>(split.data()),
                  static_cast<uLong>(n), 4) != Z_OK)
        throw std::runtime_error("zlib failed");
    if (packed_size >= n) return line;
    packed.resize(packed_size);
    return packed;
}

}  // namespace

uint16_t half_of(float value) {
    uint32_t x;
    std::memcpy(&x, &value, sizeof x);
    const uint16_t sign = static_cast<uint16_t>((x >> 16) & 0x8000u);
    const int exponent = static_cast<int>((x >> 23) & 0xffu);
    uint32_t mantissa = x & 0x7fffffu;
    if (exponent == 255) return static_cast<uint16_t>(sign | 0x7c00u | (mantissa ? 0x200u | (mantissa >> 13) : 0u));
    const int e = exponent - 127 + 15;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00u);
    if (e <= 0) {
        // Subnormal halves: the implicit bit joins the mantissa, shifted out
        // by 14 - e places, rounded to nearest even.
        if (e < -10) return sign;
        mantissa |= 0x800000u;
        const int shift = 14 - e;
        uint32_t h = mantissa >> shift;
        const uint32_t rest = mantissa & ((1u << shift) - 1), halfway = 1u << (shift - 1);
        if (rest > halfway || (rest == halfway && (h & 1u))) ++h;
        return static_cast<uint16_t>(sign | h);
    }
    uint32_t h = static_cast<uint32_t>(sign) | (static_cast<uint32_t>(e) << 10) | (mantissa >> 13);
    const uint32_t rest = mantissa & 0x1fffu;
    // A carry out of the mantissa moves up the exponent, to inf past 65504.
    if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;
    return static_cast<uint16_t>(h);
}

float exr_value(const float* p, int c, bool linear, bool transparent) {
    // As the PNG quantises: NaN as 0, clamped; the linear values as they are.
    auto bounded = [](float v, float top) { return std::isnan(v) ? 0.0f : std::clamp(v, 0.0f, top); };
    const float alpha = linear ? p[3] : transparent ? bounded(p[3], 1.0f) : 1.0f;
    if (c == 3) return alpha;
    if (linear) return p[c] / 255.0f;             // premultiplied already
    return bounded(p[c], 255.0f) / 255.0f * alpha;  // straight: premultiply
}

float float_of_half(uint16_t h) {
    const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
    const int exponent = (h >> 10) & 0x1f;
    uint32_t mantissa = h & 0x3ffu, bits;
    if (exponent == 31) {
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent > 0) {
        bits = sign | static_cast<uint32_t>(exponent - 15 + 127) << 23 | (mantissa << 13);
    } else if (mantissa == 0) {
        bits = sign;
    } else {
        // Subnormal: normalise the mantissa.
        int e = -14;
        while (!(mantissa & 0x400u)) {
            mantissa <<= 1;
            --e;
        }
        bits = sign | static_cast<uint32_t>(e + 127) << 23 | ((mantissa & 0x3ffu) << 13);
    }
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

namespace {

// Everything up to the offset table: the required attributes, then the text
// as string attributes.
std::string exr_header(int w, int h, bool half, bool linear, const ImageOptions& options) {
    Bytes header;
    header.u32(20000630);  // the magic number
    header.u32(2);         // version 2, single-part scanline
    header.attribute("channels", "chlist", [&](Bytes& v) {
        for (const char* name : kChannels) {
            v.text(name);
            v.i32(half ? 1 : 2);  // HALF or FLOAT
            v.u32(0);             // pLinear and three reserved bytes
            v.i32(1);             // x and y sampling
            v.i32(1);
        }
        v.u8(0);
    });
    header.attribute("compression", "compression", [](Bytes& v) { v.u8(2); });  // ZIPS
    for (const char* window : {"dataWindow", "displayWindow"})
        header.attribute(window, "box2i", [&](Bytes& v) {
            v.i32(0);
            v.i32(0);
            v.i32(w - 1);
            v.i32(h - 1);
        });
    header.attribute("lineOrder", "lineOrder", [](Bytes& v) { v.u8(0); });  // increasing y
    // Without the attribute EXR's primaries are Rec. 709's, which are sRGB's.
    if (options.color_space != ColorSpace::Srgb)
        header.attribute("chromaticities", "chromaticities", [&](Bytes& v) {
            const Chromaticities c = chromaticities_of(options.color_space);
            for (const auto& xy : {c.red, c.green, c.blue, c.white})
                for (double value : xy) v.f32(static_cast<float>(value));
        });
    header.attribute("pixelAspectRatio", "float", [](Bytes& v) { v.f32(1.0f); });
    header.attribute("screenWindowCenter", "v2f", [](Bytes& v) {
        v.f32(0.0f);
        v.f32(0.0f);
    });
    header.attribute("screenWindowWidth", "float", [](Bytes& v) { v.f32(1.0f); });
    auto string_attribute = [&](const std::string& name, const std::string& value) {
        if (name.empty() || name.size() > 255 || name.find('\0') != std::string::npos)
            throw std::runtime_error("invalid EXR attribute name \"" + name + "\"");
        header.attribute(name, "string", [&](Bytes& v) { v.raw(value.data(), value.size()); });
    };
    for (const auto& [key, value] : options.text) string_attribute(key, value);
    if (!options.genome_xml.empty()) string_attribute("flam3_genome", options.genome_xml);
    if (linear) string_attribute("flamejit_linear", "1");
    header.u8(0);
    return std::move(header.data());
}

}  // namespace

struct ExrStream::State {
    std::string path, temporary, lines_path;  // the image, its temporary, the waiting lines
    bool half = true, transparent = false, linear = false, finished = false;
    int threads = 1;                          // compressing lines at once
    std::ofstream lines;                      // each line's block: y, size, data
    std::vector<uint32_t> block_sizes;
};

ExrStream::ExrStream(const std::string& path, int width, int height, const ImageOptions& options, bool linear)
    : ImageStream(path, width, height, options, linear), state_(std::make_unique<State>()) {
    if (options.bits != 16 && options.bits != 32)
        throw std::runtime_error("EXR samples are 16 (half) or 32 (float) bits, not " + std::to_string(options.bits));
    State& s = *state_;
    s.path = path;
    s.half = options.bits == 16;
    s.transparent = options.transparent;
    s.linear = linear;
    s.threads = std::max(1, options.threads);
    s.temporary = temporary_name_for(path);
    s.lines_path = temporary_name_for(path);
    s.lines.open(s.lines_path, std::ios::binary);
    if (!s.lines) {
        const std::string error = std::strerror(errno);
        discard_temporary(s.lines_path);
        discard_temporary(s.temporary);
        throw std::runtime_error("cannot write " + path + ": " + error);
    }
}

ExrStream::~ExrStream() {
    State& s = *state_;
    if (s.lines.is_open()) s.lines.close();
    discard_temporary(s.lines_path);
    if (!s.finished) discard_temporary(s.temporary);
}

void ExrStream::add_rows(const ImageF& rows, int first_row) {
    State& s = *state_;
    const int w = width();
    // Each line made and compressed on its own, several at once.
    std::vector<std::string> blocks(rows.height);
    parallel_for(rows.height, s.threads, [&](int y, int) {
        const float* row = rows.rgba.data() + static_cast<size_t>(y) * w * 4;
        std::string line;
        line.reserve(static_cast<size_t>(w) * 4 * (s.half ? 2 : 4));
        for (int c : kChannelOfRgba) {
            for (int x = 0; x < w; ++x) {
                const float v = exr_value(row + 4 * x, c, s.linear, s.transparent);
                if (s.half) {
                    const uint16_t bits = half_of(v);
                    line.push_back(static_cast<char>(bits & 0xff));
                    line.push_back(static_cast<char>(bits >> 8));
                } else {
                    uint32_t bits;
                    std::memcpy(&bits, &v, sizeof bits);
                    for (int i = 0; i < 4; ++i) line.push_back(static_cast<char>(bits >> (8 * i)));
                }
            }
        }
        blocks[y] = zips_block(line);
    });
    for (int y = 0; y < rows.height; ++y) {
        const std::string& block = blocks[y];
        Bytes prefix;
        prefix.i32(first_row + y);
        prefix.i32(static_cast<int32_t>(block.size()));
        s.lines.write(prefix.data().data(), static_cast<std::streamsize>(prefix.size()));
        s.lines.write(block.data(), static_cast<std::streamsize>(block.size()));
        s.block_sizes.push_back(static_cast<uint32_t>(block.size()));
    }
    if (!s.lines) throw std::runtime_error("cannot write " + s.path + ": " + std::strerror(errno));
}

void ExrStream::close(const ImageOptions& options) {
    State& s = *state_;
    s.lines.close();
    if (!s.lines) throw std::runtime_error("cannot write " + s.path + ": " + std::strerror(errno));
    const std::string header = exr_header(width(), height(), s.half, s.linear, options);
    Bytes offsets;
    uint64_t offset = header.size() + 8ull * height();
    for (uint32_t size : s.block_sizes) {
        offsets.u64(offset);
        offset += 8 + size;
    }
    std::string error;
    {
        std::ofstream out(s.temporary, std::ios::binary);
        std::ifstream in(s.lines_path, std::ios::binary);
        if (!out || !in) throw std::runtime_error("cannot write " + s.path + ": " + std::strerror(errno));
        out.write(header.data(), static_cast<std::streamsize>(header.size()));
        out.write(offsets.data().data(), static_cast<std::streamsize>(offsets.size()));
        out << in.rdbuf();
        out.close();
        if (!out) error = std::strerror(errno);
    }
    s.finished = true;
    commit_temporary(s.temporary, s.path, error);
}

bool exr_complete(const std::string& path, int width, int height) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return false;
    in.seekg(0, std::ios::end);
    const auto file_size = static_cast<uint64_t>(in.tellg());
    in.seekg(0);
    auto u32 = [&] {
        unsigned char b[4] = {};
        in.read(reinterpret_cast<char*>(b), 4);
        return uint32_t(b[0]) | uint32_t(b[1]) << 8 | uint32_t(b[2]) << 16 | uint32_t(b[3]) << 24;
    };
    auto name = [&] {
        std::string s;
        for (char c; in.get(c) && c != '\0' && s.size() < 256;) s.push_back(c);
        return s;
    };
    // Version 2, neither tiled, nor deep, nor multi-part.
    if (u32() != 20000630 || (u32() & 0x1ffffu) != 2 || !in) return false;
    int x0 = 0, y0 = 0, x1 = -1, y1 = -1, lines = -1;
    for (std::string attribute; !(attribute = name()).empty() && in;) {
        const std::string type = name();
        const uint32_t size = u32();
        const std::streamoff value = in.tellg();
        if (attribute == "dataWindow" && type == "box2i" && size == 16) {
            x0 = static_cast<int32_t>(u32()), y0 = static_cast<int32_t>(u32());
            x1 = static_cast<int32_t>(u32()), y1 = static_cast<int32_t>(u32());
        } else if (attribute == "compression" && size == 1) {
            // Lines per block of each compression (NONE, RLE, ZIPS, ZIP, PIZ,
            // PXR24, B44, B44A, DWAA, DWAB).
            static const int per_block[] = {1, 1, 1, 16, 32, 16, 32, 32, 32, 256};
            const int c = in.get();
            lines = c >= 0 && c < 10 ? per_block[c] : -1;
        }
        in.seekg(value + static_cast<std::streamoff>(size));
    }
    if (!in || lines < 1 || x1 - x0 + 1 != width || y1 - y0 + 1 != height) return false;
    const int blocks = (height + lines - 1) / lines;
    std::vector<uint64_t> offsets(static_cast<size_t>(blocks));
    for (uint64_t& offset : offsets) offset = u32() | uint64_t(u32()) << 32;
    if (!in) return false;
    for (uint64_t offset : offsets) {
        if (offset + 8 > file_size) return false;
        in.seekg(static_cast<std::streamoff>(offset) + 4);
        if (offset + 8 + u32() > file_size || !in) return false;
    }
    return true;
}

}  // namespace fj
