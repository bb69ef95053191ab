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
// flam3_genome. Written to a temporary name and renamed, as PNGs are.
#pragma once

#include <memory>
#include <string>

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

// IEEE half of a float, rounded to nearest even (inf past 65504, NaN kept).
uint16_t half_of(float value);

}  // namespace fj
