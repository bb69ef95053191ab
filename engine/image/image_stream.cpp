// flamejit — images written a band of rows at a time: the bookkeeping the
// formats share, and the choice between them.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/image_stream.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "image/exr_io.h"
#include "image/jpeg_io.h"
#include "image/png_io.h"
#include "image/ppm_io.h"

namespace fj {

std::string image_extension(const std::string& path) {
    std::string extension = std::filesystem::path(path).extension().string();
    std::transform(extension.begin(), extension.end(), extension.begin(), [](unsigned char c) { return std::tolower(c); });
    return extension;
}

ImageFormat image_format_of(const std::string& path) {
    const std::string extension = image_extension(path);
    if (extension == ".exr") return ImageFormat::Exr;
    if (extension == ".jpg" || extension == ".jpeg") return ImageFormat::Jpeg;
    if (extension == ".ppm") return ImageFormat::Ppm;
    return ImageFormat::Png;
}

const char* to_string(ImageFormat format) {
    switch (format) {
    case ImageFormat::Exr: return "exr";
    case ImageFormat::Jpeg: return "jpeg";
    case ImageFormat::Ppm: return "ppm";
    case ImageFormat::Png: break;
    }
    return "png";
}

bool has_alpha(ImageFormat format) { return format == ImageFormat::Png || format == ImageFormat::Exr; }

ImageStream::ImageStream(const std::string& path, int width, int height, const ImageOptions& options, bool linear)
    : width_(width), height_(height), threads_(std::max(1, options.threads)) {
    if (width <= 0 || height <= 0)
        throw std::runtime_error("cannot write " + path + ": image is " + std::to_string(width) + "x" +
                                 std::to_string(height));
    if (options.color_space != ColorSpace::Srgb) conversion_.emplace(options.color_space, linear);
}

void ImageStream::write_rows(const ImageF& rows) {
    if (rows.width != width_ || rows.height < 0 ||
        rows.rgba.size() != static_cast<size_t>(rows.width) * rows.height * 4 || rows_written_ + rows.height > height_)
        throw std::logic_error("ImageStream: rows that do not fit the image");
    if (conversion_) {
        ImageF converted = rows;
        conversion_->apply(converted, threads_);
        add_rows(converted, rows_written_);
    } else {
        add_rows(rows, rows_written_);
    }
    rows_written_ += rows.height;
}

void ImageStream::finish(const ImageOptions& options) {
    if (rows_written_ != height_)
        throw std::logic_error("ImageStream: finished after " + std::to_string(rows_written_) + " of " +
                               std::to_string(height_) + " rows");
    close(options);
}

std::unique_ptr<ImageStream> open_image_stream(const std::string& path, int width, int height,
                                               const ImageOptions& options, bool linear) {
    switch (image_format_of(path)) {
    case ImageFormat::Exr: return std::make_unique<ExrStream>(path, width, height, options, linear);
    case ImageFormat::Jpeg: return std::make_unique<JpegStream>(path, width, height, options);
    case ImageFormat::Ppm: return std::make_unique<PpmStream>(path, width, height, options);
    case ImageFormat::Png: break;
    }
    return std::make_unique<PngStream>(path, width, height, options);
}

void write_image(const std::string& path, const ImageF& image, const ImageOptions& options, bool linear) {
    if (image_format_of(path) == ImageFormat::Png) return write_png(path, image, options);
    check_whole_image(path, image);
    const std::unique_ptr<ImageStream> stream = open_image_stream(path, image.width, image.height, options, linear);
    stream->write_rows(image);
    stream->finish(options);
}

void check_whole_image(const std::string& path, const ImageF& image) {
    if (image.width <= 0 || image.height <= 0 ||
        image.rgba.size() != static_cast<size_t>(image.width) * image.height * 4)
        throw std::runtime_error("cannot write " + path + ": image is " + std::to_string(image.width) + "x" +
                                 std::to_string(image.height) + " with " + std::to_string(image.rgba.size()) +
                                 " samples");
}

PngImage read_image(const std::string& path) {
    unsigned char head[4] = {};
    FILE* file = std::fopen(path.c_str(), "rb");
    if (!file) throw std::runtime_error("cannot open " + path + ": " + std::strerror(errno));
    const size_t n = std::fread(head, 1, sizeof head, file);
    std::fclose(file);
    if (n == 4 && head[0] == 0x89 && head[1] == 'P' && head[2] == 'N' && head[3] == 'G') return read_png(path);
    if (n >= 3 && head[0] == 0xff && head[1] == 0xd8 && head[2] == 0xff) return read_jpeg(path);
    if (n >= 2 && head[0] == 'P' && head[1] == '6') return read_ppm(path);
    if (n == 4 && head[0] == 0x76 && head[1] == 0x2f && head[2] == 0x31 && head[3] == 0x01)
        return exr_samples(read_exr(path), path);
    throw std::runtime_error(path + " is not a PNG, JPEG, binary PPM or OpenEXR file");
}

}  // namespace fj
