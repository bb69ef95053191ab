// flamejit — an image written a band of rows at a time (a frame rendered in
// strips), as PNG or as OpenEXR.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Rows go to the file as they come, so the image is never held whole; the
// text comes last, since a frame's sample count and time are known only at
// its end. Nothing appears at the path until finish(); a stream destroyed
// unfinished removes its temporary files. Failures throw std::runtime_error.
#pragma once

#include <memory>
#include <string>

#include "backend.h"

namespace fj {

struct PngOptions;  // image/png_io.h

class ImageStream {
public:
    virtual ~ImageStream() = default;
    // The next rows of the image, top to bottom, the image's whole width.
    void write_rows(const ImageF& rows);
    // After the last row: options.text and genome_xml, then the file.
    void finish(const PngOptions& options);

protected:
    // Throws for an image of no pixels, naming `path`.
    ImageStream(const std::string& path, int width, int height);
    int width() const { return width_; }
    int height() const { return height_; }

private:
    // The format's part: rows checked to fit, the first of them `first_row`;
    // the end once every row is in.
    virtual void add_rows(const ImageF& rows, int first_row) = 0;
    virtual void close(const PngOptions& options) = 0;

    int width_, height_, rows_written_ = 0;
};

// A PngStream, or an ExrStream for a name ending in .exr (image/exr_io.h;
// `linear`: of a post-pass with PostPlan::linear). options.bits and
// options.transparent; the text comes to finish().
std::unique_ptr<ImageStream> open_image_stream(const std::string& path, int width, int height,
                                               const PngOptions& options, bool linear);

}  // namespace fj
