// flamejit — which frames a batch render owns, where each goes, and which are already done.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/frame_batch.h"

#include <charconv>
#include <cstdio>
#include <filesystem>

#include "errors.h"
#include "image/exr_io.h"
#include "image/jpeg_io.h"
#include "image/png_io.h"
#include "image/ppm_io.h"

namespace fj {
namespace {

bool parse_integer(const std::string& s, long long* out) {
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

std::vector<std::string> split(const std::string& s, char sep) {
    std::vector<std::string> parts;
    size_t from = 0;
    for (size_t at; (at = s.find(sep, from)) != std::string::npos; from = at + 1) parts.push_back(s.substr(from, at - from));
    parts.push_back(s.substr(from));
    return parts;
}

// The integer conversion of a pattern: where it starts and its length.
struct Conversion {
    size_t at = std::string::npos, length = 0;
};

Conversion find_conversion(const std::string& pattern) {
    Conversion found;
    int count = 0;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%') continue;
        if (i + 1 < pattern.size() && pattern[i + 1] == '%') {
            ++i;
            continue;
        }
        size_t j = i + 1;
        if (j < pattern.size() && pattern[j] == '0') ++j;
        while (j < pattern.size() && pattern[j] >= '0' && pattern[j] <= '9') ++j;
        if (j >= pattern.size() || pattern[j] != 'd' || j - i > 4)
            throw InputError("output pattern \"" + pattern + "\": only %d, %Nd or %0Nd (N < 100) may follow %");
        found = {i, j + 1 - i};
        ++count;
        i = j;
    }
    if (count != 1)
        throw InputError("output pattern \"" + pattern + "\" needs exactly one frame number conversion such as %05d, not " +
                         std::to_string(count));
    return found;
}

// Differences of long longs as unsigned: exact for last >= first, where
// the signed difference can overflow.
unsigned long long span(long long first, long long last) {
    return static_cast<unsigned long long>(last) - static_cast<unsigned long long>(first);
}

}  // namespace

std::vector<long long> FrameRange::frames() const {
    std::vector<long long> out;
    out.reserve(span(first, last) / step + 1);
    for (long long f = first;; f += step) {
        out.push_back(f);
        if (span(f, last) < static_cast<unsigned long long>(step)) break;
    }
    return out;
}

FrameRange frame_range(long long first, long long last, long long step, const std::string& what) {
    if (step < 1) throw InputError(what + ": STEP must be at least 1");
    if (last < first)
        throw InputError(what + ": the range is empty (LAST " + std::to_string(last) + " is before FIRST " +
                         std::to_string(first) + ")");
    if (span(first, last) / step >= kMaxFrames) throw InputError(what + ": more than 10^8 frames");
    return {first, last, step};
}

FrameRange parse_frame_range(const std::string& text) {
    const std::vector<std::string> parts = split(text, ':');
    FrameRange r;
    if ((parts.size() != 2 && parts.size() != 3) || !parse_integer(parts[0], &r.first) ||
        !parse_integer(parts[1], &r.last) || (parts.size() == 3 && !parse_integer(parts[2], &r.step)))
        throw InputError("--frames \"" + text + "\": expected FIRST:LAST or FIRST:LAST:STEP (integers)");
    return frame_range(r.first, r.last, r.step, "--frames \"" + text + "\"");
}

Shard parse_shard(const std::string& text) {
    const std::vector<std::string> parts = split(text, '/');
    Shard s;
    if (parts.size() != 2 || !parse_integer(parts[0], &s.index) || !parse_integer(parts[1], &s.count))
        throw InputError("--shard \"" + text + "\": expected I/N, e.g. 0/4");
    if (s.count < 1 || s.index < 0 || s.index >= s.count)
        throw InputError("--shard \"" + text + "\": I must be in 0.." + (s.count >= 1 ? std::to_string(s.count - 1) : "N-1") +
                         " and N at least 1");
    return s;
}

std::vector<long long> shard_frames(const std::vector<long long>& frames, const Shard& shard) {
    // In 128 bits: the products overflow 64 for shard counts past 10^11.
    const __int128 n = static_cast<__int128>(frames.size());
    const auto begin = static_cast<long long>(n * shard.index / shard.count),
               end = static_cast<long long>(n * (shard.index + 1) / shard.count);
    return {frames.begin() + begin, frames.begin() + end};
}

void check_output_pattern(const std::string& pattern) { find_conversion(pattern); }

std::string format_output(const std::string& pattern, long long frame) {
    const Conversion c = find_conversion(pattern);
    char number[64];
    const std::string spec = pattern.substr(c.at, c.length - 1) + "lld";
    std::snprintf(number, sizeof number, spec.c_str(), frame);
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (i == c.at) {
            out += number;
            i += c.length - 1;
        } else if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] == '%') {
            out += '%';
            ++i;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

bool image_complete(const std::string& path, int width, int height) {
    std::error_code ec;
    if (!std::filesystem::is_regular_file(path, ec)) return false;
    switch (image_format_of(path)) {
    case ImageFormat::Exr: return exr_complete(path, width, height);
    case ImageFormat::Jpeg: return jpeg_complete(path, width, height);
    case ImageFormat::Ppm: return ppm_complete(path, width, height);
    case ImageFormat::Png: break;
    }
    try {
        const PngImage img = read_png(path);
        return img.width == width && img.height == height;
    } catch (const std::exception&) {
        return false;
    }
}

}  // namespace fj
