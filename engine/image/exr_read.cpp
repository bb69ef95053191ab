// flamejit — reading back the OpenEXR files ExrStream writes (see exr_io.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iterator>
#include <stdexcept>

#include "image/exr_io.h"

namespace fj {

namespace {

constexpr int kNone = 0, kZips = 2;  // EXR's compression codes
constexpr int kHalf = 1, kFloat = 2;  // and pixel types

// Little-endian reading of a file held whole, every read bounded by it.
struct Reader {
    const std::string& path;
    const std::string& data;
    size_t at = 0;

    [[noreturn]] void fail(const std::string& why) const {
        throw std::runtime_error("cannot read OpenEXR " + path + ": " + why);
    }
    void need(size_t n) const {
        if (n > data.size() || at > data.size() - n) fail("it ends early");
    }
    uint32_t u32() {
        need(4);
        uint32_t v = 0;
        for (int i = 0; i < 4; ++i) v |= uint32_t(static_cast<uint8_t>(data[at + i])) << (8 * i);
        at += 4;
        return v;
    }
    int32_t i32() { return static_cast<int32_t>(u32()); }
    uint64_t u64() {
        const uint64_t low = u32();
        return low | uint64_t(u32()) << 32;
    }
    std::string text() {
        const size_t end = data.find('\0', at);
        if (end == std::string::npos) fail("it ends early");
        std::string s = data.substr(at, end - at);
        at = end + 1;
        return s;
    }
};

// The inverse of exr_io.cpp's zips_block: inflate, undo the differences,
// interleave the two halves again.
std::string unzips(const Reader& r, const char* packed, size_t size, size_t raw) {
    std::string split(raw, '\0');
    uLongf out = static_cast<uLongf>(raw);
    if (uncompress(reinterpret_cast<Bytef*>(split.data()), &out, reinterpret_cast<const Bytef*>(packed),
                   static_cast<uLong>(size)) != Z_OK ||
        out != raw)
        r.fail("a line's compressed data is damaged");
    for (size_t i = 1; i < raw; ++i)
        split[i] = static_cast<char>(static_cast<uint8_t>(split[i - 1]) + static_cast<uint8_t>(split[i]) - 128);
    std::string line(raw, '\0');
    for (size_t i = 0, even = 0, odd = (raw + 1) / 2; i < raw; ++i) line[i] = split[i % 2 ? odd++ : even++];
    return line;
}

}  // namespace

ExrImage read_exr(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path);
    const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    Reader r{path, data};
    if (r.u32() != 20000630) r.fail("not an OpenEXR file");
    // Version 2: single-part scanline (long names allowed; not tiled, deep
    // or multi-part).
    const uint32_t version = r.u32();
    if ((version & 0xff) != 2 || (version & 0x1a00u)) r.fail("not a single-part scanline file");

    ExrImage image;
    int compression = -1, type = -1;
    int32_t x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    std::string channels;
    for (std::string name; !(name = r.text()).empty();) {
        const std::string kind = r.text();
        const uint32_t size = r.u32();
        r.need(size);
        Reader value{path, data, r.at};
        if (name == "channels" && kind == "chlist") {
            for (std::string channel; !(channel = value.text()).empty();) {
                const int32_t pixel_type = value.i32();
                value.u32();  // pLinear, reserved
                if (value.i32() != 1 || value.i32() != 1) r.fail("channel " + channel + " is subsampled");
                if (type >= 0 && pixel_type != type) r.fail("its channels are of different types");
                type = pixel_type;
                channels += channel;
            }
        } else if (name == "compression" && size == 1) {
            compression = static_cast<uint8_t>(data[r.at]);
        } else if (name == "dataWindow" && kind == "box2i" && size == 16) {
            x0 = value.i32(), y0 = value.i32(), x1 = value.i32(), y1 = value.i32();
        } else if (name == "chromaticities" && kind == "chromaticities" && size == 32) {
            for (int i = 0; i < 8; ++i) {
                const uint32_t bits = value.u32();
                float v;
                std::memcpy(&v, &bits, sizeof v);
                image.chromaticities.push_back(v);
            }
        } else if (kind == "string") {
            image.text[name] = data.substr(r.at, size);
        }
        r.at += size;
    }
    if (channels != "ABGR") r.fail("its channels are not A, B, G and R (flamejit's), but \"" + channels + "\"");
    if (type != kHalf && type != kFloat) r.fail("its samples are neither half nor float");
    if (compression != kNone && compression != kZips) r.fail("its compression is not flamejit's (ZIPS or none)");
    if (x1 < x0 || y1 < y0 || int64_t(x1) - x0 >= 65536 || int64_t(y1) - y0 >= 65536)
        r.fail("its data window is empty or huge");
    image.width = x1 - x0 + 1;
    image.height = y1 - y0 + 1;
    image.half = type == kHalf;
    image.linear = image.text.count("flamejit_linear") && image.text.at("flamejit_linear") == "1";

    const size_t bytes = image.half ? 2 : 4, w = static_cast<size_t>(image.width);
    const size_t raw = w * 4 * bytes;
    // Deflate shrinks by 1032:1 at most: a file too short for its lines
    // even so is damaged, whatever its header claims (and is not allocated for).
    if (raw / 1032 * static_cast<size_t>(image.height) > data.size()) r.fail("it is too short for its size");
    r.need(8 * static_cast<size_t>(image.height));
    std::vector<uint64_t> offsets(static_cast<size_t>(image.height));
    for (uint64_t& offset : offsets) offset = r.u64();
    image.rgba.assign(w * image.height * 4, 0.0f);
    static const int kRgbaOf[4] = {3, 2, 1, 0};  // A, B, G, R
    for (uint64_t offset : offsets) {
        Reader block{path, data, static_cast<size_t>(std::min<uint64_t>(offset, data.size()))};
        const int32_t y = block.i32() - y0;
        const uint32_t size = block.u32();
        block.need(size);
        if (y < 0 || y >= image.height) r.fail("a line lies outside the image");
        if (size != raw && compression != kZips) r.fail("a line has the wrong size");
        const std::string line =
            size == raw ? data.substr(block.at, size) : unzips(r, data.data() + block.at, size, raw);
        float* row = image.rgba.data() + static_cast<size_t>(y) * w * 4;
        for (int c = 0; c < 4; ++c)
            for (size_t x = 0; x < w; ++x) {
                const char* p = line.data() + (c * w + x) * bytes;
                float v;
                if (image.half) {
                    const auto low = static_cast<uint8_t>(p[0]), high = static_cast<uint8_t>(p[1]);
                    v = float_of_half(static_cast<uint16_t>(low | high << 8));
                } else {
                    uint32_t bits = 0;
                    for (int i = 0; i < 4; ++i) bits |= uint32_t(static_cast<uint8_t>(p[i])) << (8 * i);
                    std::memcpy(&v, &bits, sizeof v);
                }
                row[4 * x + kRgbaOf[c]] = v;
            }
    }
    return image;
}

PngImage exr_samples(const ExrImage& image, const std::string& path) {
    if (image.linear) throw std::runtime_error(path + " holds render --linear's values, not an image to compare");
    return exr_samples(image.width, image.height, image.rgba);
}

PngImage exr_samples(int width, int height, const std::vector<float>& rgba) {
    PngImage out;
    out.width = width;
    out.height = height;
    out.bits = 16;
    out.rgba.resize(rgba.size());
    for (size_t i = 0; i < rgba.size(); ++i) {
        const float v = std::isnan(rgba[i]) ? 0.0f : std::clamp(rgba[i], 0.0f, 1.0f);
        out.rgba[i] = static_cast<uint16_t>(std::lround(v * 255.0f * 256.0f));
    }
    return out;
}

}  // namespace fj
