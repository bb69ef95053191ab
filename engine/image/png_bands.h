// flamejit — a PNG's image data made in bands of rows, each filtered and
// deflated on its own, so that several threads compress one image and a
// stream compresses its rows as they come.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every row is Paeth-filtered and deflated with zlib's run-length strategy
// instead of libpng's defaults (every filter tried per row, deflate level 6):
// flames are noisy, so long-distance matches buy little while the search
// costs most of the time. 1920×1080 RGBA on one core: 730 → 107 ms
// (spherical4) and 949 → 114 ms (dense), files 2.5 % larger and 3 % smaller;
// a sparse frame's 73 → 25 ms at the same size (benchmarks/README.md "PNG
// encoding"). A band's deflate data ends in a sync flush, on a
// byte boundary, and the image's last band in the final block, so the bands
// joined in order are one deflate stream; the zlib header goes in front of
// the first and the Adler-32 of every filtered row after the last. A band
// holds png_band_rows rows, which depend only on the row's length, so the
// bytes are the same whatever the thread count and however a stream's rows
// arrive. Run-length matches reach back one pixel only, so restarting the
// compressor at each band costs a few bytes a band.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

namespace fj {

// Rows in a band of rows of `row_bytes`: about 256 KiB of filtered rows, at
// least one row.
int png_band_rows(size_t row_bytes);

struct PngBand {
    std::vector<uint8_t> data;  // raw deflate data (PngDataStream adds the header and checksum)
    uint32_t adler = 1;         // Adler-32 of the band's filtered rows
    size_t filtered = 0;        // their length in bytes
};

// Bands in an image of `height` rows of `row_bytes`.
int png_band_count(int height, size_t row_bytes);

// Writes the samples of `count` rows from row `first` to `out`.
using PngRowSource = std::function<void(int first, int count, uint8_t* out)>;

// Bands [first_band, end_band) of an image of `height` rows of `row_bytes`
// bytes with pixels of `pixel_bytes`, made and deflated on `threads`
// threads, each band's rows (and the row over it) taken from `rows` by
// their numbers in the image.
std::vector<PngBand> deflate_bands(const PngRowSource& rows, int first_band, int end_band, int height,
                                   size_t row_bytes, int pixel_bytes, int threads);

// Joins bands, in order, into the image's zlib stream.
class PngDataStream {
public:
    // The stream's next piece: `band`'s data, after the zlib header for the
    // first band and before the checksum of all the bands for the last.
    std::vector<uint8_t> piece(const PngBand& band, bool last);

private:
    bool started_ = false;
    uint32_t adler_ = 1;  // of the bands so far
};

}  // namespace fj
