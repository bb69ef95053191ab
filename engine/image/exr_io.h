// flamejit — OpenEXR output: RGBA in half or float, for compositing.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A single-part scanline file, one line per block, ZIPS-compressed (a block
// that does not shrink is stored as it is), channels A, B, G, R, increasing
// y. Colour is stored premultiplied by alpha, as EXR's convention has it:
//   - the tone-mapped image (the PNG's values before quantisation, colour /
//     255): opaque unless `transparent`, when its straight colour is
//     multiplied by its alpha;
//   - `linear` (ImageF from a post-pass with PostPlan::linear): the filtered
//     log-density values before gamma, vibrancy, background and clipping,
//     colour / 255 already premultiplied and alpha the density's opacity,
//     unclamped.
// Text chunks become string attributes of the header, the genome under
// flam3_genome; a `linear` file also says so in flamejit_linear ("1"),
// text or not, so that readers do not take its values for an image's.
// Written to a temporary name and renamed, as PNGs are.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "image/color_space.h"
#include "image/image_stream.h"
#include "image/png_io.h"

namespace fj {

// A band of rows at a time (image/image_stream.h; write_image writes a whole
// image through it), its lines compressed on options.threads threads. The
// header, which holds the text, comes before the data in an EXR file, so the
// compressed lines wait in a temporary file beside the image until finish().
class ExrStream final : public ImageStream {
public:
    // options.bits: 16 (half) or 32 (float); text, genome_xml and
    // transparent as for PNGs.
    ExrStream(const std::string& path, int width, int height, const ImageOptions& options, bool linear);
    ~ExrStream() override;
    ExrStream(const ExrStream&) = delete;
    ExrStream& operator=(const ExrStream&) = delete;

private:
    void add_rows(const ImageF& rows, int first_row) override;
    void close(const ImageOptions& options) override;

    struct State;
    std::unique_ptr<State> state_;
};

// Whether `path` is a single-part scanline EXR of this size whose every line
// block lies whole within the file: one cut short is not complete.
bool exr_complete(const std::string& path, int width, int height);

// IEEE half of a float, rounded to nearest even (inf past 65504, NaN kept),
// and back.
uint16_t half_of(float value);
float float_of_half(uint16_t half);

// The value the file stores for channel c (0..3: R, G, B, A) of an image
// pixel `rgba` (as ImageF holds it): the tone-mapped colour / 255 clamped
// and premultiplied (alpha 1 unless `transparent`), or the linear values as
// they are; before the half rounding of a 16-bit file.
float exr_value(const float* rgba, int c, bool linear, bool transparent);

// An OpenEXR file as ExrStream writes it (single-part scanline, no or ZIPS
// compression, channels A, B, G, R all half or all float); other files
// throw std::runtime_error naming what is not so.
struct ExrImage {
    int width = 0, height = 0;
    bool half = true;
    bool linear = false;       // flamejit_linear: the values of render --linear
    std::vector<float> rgba;   // the stored values (premultiplied), row 0 at the top
    std::map<std::string, std::string> text;  // string attributes
    std::vector<float> chromaticities;        // the attribute's 8 values; empty: none (sRGB's)
};
ExrImage read_exr(const std::string& path);

// Stored tone-mapped values (ExrImage::rgba's kind) as 16-bit samples in a
// PNG's range (at8 of a value v is 255·v, clamped to 0..1 first): how
// compare and verify read an EXR.
PngImage exr_samples(int width, int height, const std::vector<float>& rgba);
// The same of a file's image (read from `path`); throws std::runtime_error
// for one of render --linear's values, which are no image to compare.
PngImage exr_samples(const ExrImage& image, const std::string& path);

}  // namespace fj
