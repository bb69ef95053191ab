// flamejit — PNG output (zlib, in bands: image/png_bands.h) and input
// (libpng), quantised the way flam3 quantises.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Writing: colour is clamped to 0..255 and then truncated (8 bit) or scaled by
// 256 and truncated (16 bit, so white is 65280, not 65535), alpha is opaque
// unless `transparent`. That matches flam3-render bit for bit, which is what
// lets the fidelity ratio compare our PNGs with flam3's without a rounding
// bias. The file appears at `path` only when complete: it is written to a
// temporary name in the same folder and renamed; any failure removes the
// temporary file and throws std::runtime_error.
//
// Reading is for comparison tools and tests: 8- or 16-bit PNGs of any colour
// type come back as RGBA samples at their own bit depth.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backend.h"
#include "image/image_stream.h"

namespace fj {

void write_png(const std::string& path, const ImageF& image, const ImageOptions& options = {});

// A PNG written a band of rows at a time (image/image_stream.h), with the
// text chunks after the image data. Rows wait until they fill bands
// (image/png_bands.h), which are then quantised and compressed on
// options.threads threads.
class PngStream final : public ImageStream {
public:
    // options.bits, transparent and threads. The text comes to finish(), or
    // with `text_first` from `options` before the image data, as write_png
    // (and flam3) write it, and finish() writes none.
    PngStream(const std::string& path, int width, int height, const ImageOptions& options, bool text_first = false);
    ~PngStream() override;
    PngStream(const PngStream&) = delete;
    PngStream& operator=(const PngStream&) = delete;

private:
    void add_rows(const ImageF& rows, int first_row) override;
    void close(const ImageOptions& options) override;

    struct State;
    std::unique_ptr<State> state_;
};

// flam3's quantisation of one value, exposed so callers and tests share it.
uint16_t quantise_colour(float value, int bits);  // value in 0..255 before truncation
uint16_t quantise_alpha(float alpha, int bits);   // alpha in 0..1
// The 8-bit colour of `pixels` RGBA values as RGB (JPEG and PPM rows).
void quantise_rgb8(const float* rgba, size_t pixels, unsigned char* rgb);

struct PngImage {
    int width = 0, height = 0;
    int bits = 8;                // 8 or 16: the range of `rgba` (255 or 65535)
    std::vector<uint16_t> rgba;  // width·height·4 samples, row 0 at the top
    std::vector<uint8_t> icc_profile;  // the file's colour profile (PNG iCCP, JPEG APP2); empty: none
    // Sample scaled to the 8-bit range (16-bit values divided by 256, the
    // inverse of flam3's 16-bit quantisation).
    double at8(int x, int y, int channel) const;
};

PngImage read_png(const std::string& path);

// tEXt, zTXt and iTXt chunks by keyword (later chunks with the same keyword win).
std::map<std::string, std::string> read_png_text(const std::string& path);

}  // namespace fj
