// flamejit — JPEG output and input (libjpeg), as flam3-render writes it
// (format=jpg).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// RGB of 8 bits, the samples the PNG would hold (clamped and truncated as
// flam3 quantises, background blended: JPEG has no alpha), compressed with
// libjpeg's defaults at ImageOptions::jpeg_quality. The text goes into
// comment (COM) markers after the JFIF header, one per pair as "key: value"
// in the options' order and then "flam3_genome: XML", as flam3 writes them;
// a pair with an empty value gets none (flam3 writes its nickname, url and id
// only when set), nor does one longer than a marker holds (jpeg_comment_fits).
// Markers come before the image data, so a stream's compressed rows wait in
// a temporary file beside the image until finish(). Written to a temporary
// name and renamed, as PNGs are.
#pragma once

#include <map>
#include <memory>
#include <string>

#include "image/image_stream.h"
#include "image/png_io.h"

namespace fj {

class JpegStream final : public ImageStream {
public:
    // options.bits must be 8; options.jpeg_quality in 1..100.
    JpegStream(const std::string& path, int width, int height, const ImageOptions& options);
    ~JpegStream() override;
    JpegStream(const JpegStream&) = delete;
    JpegStream& operator=(const JpegStream&) = delete;

private:
    void add_rows(const ImageF& rows, int first_row) override;
    void close(const ImageOptions& options) override;

    struct State;
    std::unique_ptr<State> state_;
};

// Whether "key: value" fits in one comment marker (65533 bytes).
bool jpeg_comment_fits(const std::string& key, const std::string& value);

// Whether `path` is a JPEG of this size whose compressed data decodes to its
// end without a warning: one cut short is not complete.
bool jpeg_complete(const std::string& path, int width, int height);

// For comparison tools and tests: an RGB (or greyscale) JPEG as 8-bit RGBA,
// opaque; its comments "key: value" by key (a comment without ": " under
// its whole text, with an empty value). Throws std::runtime_error.
PngImage read_jpeg(const std::string& path);
std::map<std::string, std::string> read_jpeg_text(const std::string& path);

}  // namespace fj
