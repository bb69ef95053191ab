// flamejit — images written a band of rows at a time: the bookkeeping both
// formats share, and the choice between them.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/image_stream.h"

#include <stdexcept>
#include <string>

#include "image/exr_io.h"
#include "image/png_io.h"

namespace fj {

ImageStream::ImageStream(const std::string& path, int width, int height) : width_(width), height_(height) {
    if (width <= 0 || height <= 0)
        throw std::runtime_error("cannot write " + path + ": image is " + std::to_string(width) + "x" +
                                 std::to_string(height));
}

void ImageStream::write_rows(const ImageF& rows) {
    if (rows.width != width_ || rows.height < 0 ||
        rows.rgba.size() != static_cast<size_t>(rows.width) * rows.height * 4 || rows_written_ + rows.height > height_)
        throw std::logic_error("ImageStream: rows that do not fit the image");
    add_rows(rows, rows_written_);
    rows_written_ += rows.height;
}

void ImageStream::finish(const PngOptions& options) {
    if (rows_written_ != height_)
        throw std::logic_error("ImageStream: finished after " + std::to_string(rows_written_) + " of " +
                               std::to_string(height_) + " rows");
    close(options);
}

std::unique_ptr<ImageStream> open_image_stream(const std::string& path, int width, int height,
                                               const PngOptions& options, bool linear) {
    if (is_exr_path(path)) return std::make_unique<ExrStream>(path, width, height, options, linear);
    return std::make_unique<PngStream>(path, width, height, options);
}

}  // namespace fj
