// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/png_bands.h"

#include <zlib.h>

#include <algorithm>
#include <cstdlib>
#include <stdexcept>
#include <string>

#include "parallel_for.h"

namespace fj {

namespace {

constexpr size_t kBandBytes = 256 * 1024;

// PNG filter type 4: each byte less the Paeth predictor of its left, upper
// and upper-left neighbours (zero beyond the image). The three distances
// are those of PNG's definition, rearranged; no branch, so the loop over a
// row vectorises.
void paeth_filter(const uint8_t* row, const uint8_t* above, size_t row_bytes, int pixel_bytes, uint8_t* out) {
    out[0] = 4;
    ++out;
    for (int i = 0; i < pixel_bytes; ++i) out[i] = static_cast<uint8_t>(row[i] - above[i]);
    for (size_t i = pixel_bytes; i < row_bytes; ++i) {
        const int a = row[i - pixel_bytes], b = above[i], c = above[i - pixel_bytes];
        const int pa = std::abs(b - c), pb = std::abs(a - c), pc = std::abs(a + b - 2 * c);
        const int predictor = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
        out[i] = static_cast<uint8_t>(row[i] - predictor);
    }
}

struct Deflater {
    z_stream z{};
    Deflater() {
        // Raw deflate (the header and checksum are PngDataStream's); any
        // level above 0 runs zlib's run-length compressor under Z_RLE.
        if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_RLE) != Z_OK)
            throw std::runtime_error("cannot start zlib's compressor");
    }
    ~Deflater() { deflateEnd(&z); }
    Deflater(const Deflater&) = delete;
    Deflater& operator=(const Deflater&) = delete;
};

// `count` rows of `row_bytes` bytes filtered and deflated; `above` is the
// row over the first (zeros over the image's first row), `last` says
// whether the image ends with this band.
PngBand deflate_band(const uint8_t* rows, const uint8_t* above, int count, size_t row_bytes, int pixel_bytes,
                     bool last) {
    PngBand band;
    band.filtered = static_cast<size_t>(count) * (row_bytes + 1);
    std::vector<uint8_t> filtered(band.filtered);
    for (int y = 0; y < count; ++y) {
        const uint8_t* row = rows + static_cast<size_t>(y) * row_bytes;
        paeth_filter(row, y == 0 ? above : row - row_bytes, row_bytes, pixel_bytes,
                     filtered.data() + static_cast<size_t>(y) * (row_bytes + 1));
    }
    band.adler = static_cast<uint32_t>(adler32(1, filtered.data(), static_cast<uInt>(band.filtered)));

    Deflater d;
    // The bound holds the final block; a sync flush adds at most an empty
    // stored block (5 bytes) to what the compressor holds back.
    band.data.resize(deflateBound(&d.z, band.filtered) + 16);
    d.z.next_in = filtered.data();
    d.z.avail_in = static_cast<uInt>(band.filtered);
    d.z.next_out = band.data.data();
    d.z.avail_out = static_cast<uInt>(band.data.size());
    const int status = deflate(&d.z, last ? Z_FINISH : Z_SYNC_FLUSH);
    if (status != (last ? Z_STREAM_END : Z_OK) || d.z.avail_in != 0)
        throw std::runtime_error("zlib could not compress a band of PNG rows (status " + std::to_string(status) + ")");
    band.data.resize(band.data.size() - d.z.avail_out);
    return band;
}

}  // namespace

int png_band_rows(size_t row_bytes) {
    return static_cast<int>(std::max<size_t>(1, kBandBytes / (row_bytes + 1)));
}

int png_band_count(int height, size_t row_bytes) {
    const int per_band = png_band_rows(row_bytes);
    return (height + per_band - 1) / per_band;
}

std::vector<PngBand> deflate_bands(const PngRowSource& rows, int first_band, int end_band, int height,
                                   size_t row_bytes, int pixel_bytes, int threads) {
    const int per_band = png_band_rows(row_bytes), last = png_band_count(height, row_bytes) - 1;
    const int count = end_band - first_band;
    std::vector<PngBand> bands(std::max(0, count));
    parallel_for(count, threads, [&](int i, int) {
        const int b = first_band + i, first = b * per_band, n = std::min(per_band, height - first);
        // The band's rows after the row over them (zeros over the first band).
        std::vector<uint8_t> samples(static_cast<size_t>(n + 1) * row_bytes);
        if (first > 0)
            rows(first - 1, n + 1, samples.data());
        else
            rows(0, n, samples.data() + row_bytes);
        bands[i] = deflate_band(samples.data() + row_bytes, samples.data(), n, row_bytes, pixel_bytes, b == last);
    });
    return bands;
}

std::vector<uint8_t> PngDataStream::piece(const PngBand& band, bool last) {
    std::vector<uint8_t> out;
    out.reserve(band.data.size() + 6);
    if (!started_) {
        // A 32 KiB window, no dictionary; level bits 0, as zlib writes them
        // for its run-length strategy.
        out.push_back(0x78);
        out.push_back(0x01);
        started_ = true;
    }
    out.insert(out.end(), band.data.begin(), band.data.end());
    adler_ = static_cast<uint32_t>(adler32_combine(adler_, band.adler, static_cast<z_off_t>(band.filtered)));
    if (last)
        for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(adler_ >> shift));
    return out;
}

}  // namespace fj
