// flamejit — the image files render and animate write: PNG, OpenEXR, JPEG
// and PPM, chosen by the file's extension, written whole or a band of rows at
// a time (a frame rendered in strips).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Rows go to the file as they come, so the image is never held whole; the
// text comes last, since a frame's sample count and time are known only at
// its end. Nothing appears at the path until finish(); a stream destroyed
// unfinished removes its temporary files. Failures throw std::runtime_error.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backend.h"
#include "image/color_space.h"

namespace fj {

// The formats flam3-render writes (png, jpg, ppm) and OpenEXR.
enum class ImageFormat { Png, Exr, Jpeg, Ppm };

// The name's extension in lower case (".png", "" for none).
std::string image_extension(const std::string& path);
// By the name's extension, any case: .exr, .jpg or .jpeg, .ppm; PNG for any
// other.
ImageFormat image_format_of(const std::string& path);
const char* to_string(ImageFormat format);  // "png", "exr", "jpeg", "ppm"
// Whether the format stores alpha (PNG and EXR; JPEG and PPM are RGB).
bool has_alpha(ImageFormat format);

// What goes into a file beside its pixels. Each format writes the text as
// it can (image/png_io.h, exr_io.h, jpeg_io.h; PPM has none).
struct ImageOptions {
    int bits = 8;              // PNG 8 or 16; EXR 16 (half) or 32 (float); JPEG and PPM 8
    bool transparent = false;  // keep the image's alpha instead of writing opaque
    int jpeg_quality = 75;     // JPEG only: 1..100 (flam3's, libjpeg's default: 75)
    int threads = 1;           // PNG, EXR: threads that compress it (the same bytes for any count)
    std::vector<std::pair<std::string, std::string>> text;  // key and value, in order
    std::string genome_xml;    // under "flam3_genome" when not empty
    // The space the file is in: sRGB (no profile, as flam3's), or the image
    // converted from sRGB and the file tagged (image/color_space.h); not PPM.
    ColorSpace color_space = ColorSpace::Srgb;
};

class ImageStream {
public:
    virtual ~ImageStream() = default;
    // The next rows of the image, top to bottom, the image's whole width.
    void write_rows(const ImageF& rows);
    // After the last row: options.text and genome_xml, then the file.
    void finish(const ImageOptions& options);

protected:
    // Throws for an image of no pixels, naming `path`. Rows are converted
    // to options.color_space (`linear`: the values of render --linear).
    ImageStream(const std::string& path, int width, int height, const ImageOptions& options, bool linear);
    int width() const { return width_; }
    int height() const { return height_; }

private:
    // The format's part: rows checked to fit, the first of them `first_row`;
    // the end once every row is in.
    virtual void add_rows(const ImageF& rows, int first_row) = 0;
    virtual void close(const ImageOptions& options) = 0;

    int width_, height_, rows_written_ = 0;
    int threads_;  // that convert colours, as many as compress
    std::optional<ColorConversion> conversion_;
};

// The stream of path's format (image_format_of; `linear`: the image of a
// post-pass with PostPlan::linear, EXR only). options.bits, transparent and
// jpeg_quality; the text comes to finish().
std::unique_ptr<ImageStream> open_image_stream(const std::string& path, int width, int height,
                                               const ImageOptions& options, bool linear);

// The whole image at once, the same bytes as through a stream.
void write_image(const std::string& path, const ImageF& image, const ImageOptions& options, bool linear);
// Throws "cannot write PATH: image is WxH with N samples" for an image of no
// pixels or of samples that are not its width · height · 4.
void check_whole_image(const std::string& path, const ImageF& image);

struct PngImage;  // image/png_io.h

// For comparison tools and tests: a PNG, JPEG, binary PPM or tone-mapped
// OpenEXR (as flamejit writes it; exr_samples), told apart by its first
// bytes, as RGBA samples. Throws std::runtime_error (also for an EXR of
// render --linear's values).
PngImage read_image(const std::string& path);

}  // namespace fj
