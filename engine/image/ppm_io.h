// flamejit — PPM output and input (binary P6), as flam3-render writes it
// (format=ppm).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// "P6", the width and height, 255, then RGB of 8 bits per sample: the
// samples the PNG would hold (clamped and truncated as flam3 quantises,
// background blended), for tools that read raw frames. PPM holds no text.
// Written to a temporary name and renamed, as PNGs are.
#pragma once

#include <memory>
#include <string>

#include "image/image_stream.h"
#include "image/png_io.h"

namespace fj {

class PpmStream final : public ImageStream {
public:
    // options.bits must be 8.
    PpmStream(const std::string& path, int width, int height, const ImageOptions& options);
    ~PpmStream() override;
    PpmStream(const PpmStream&) = delete;
    PpmStream& operator=(const PpmStream&) = delete;

private:
    void add_rows(const ImageF& rows, int first_row) override;
    void close(const ImageOptions& options) override;

    struct State;
    std::unique_ptr<State> state_;
};

// Whether `path` is a binary PPM of this size with all its samples.
bool ppm_complete(const std::string& path, int width, int height);

// For comparison tools and tests: a binary PPM (maxval up to 65535) as RGBA,
// opaque, 8 bits (16 for a maxval above 255, scaled to 65535). Throws
// std::runtime_error.
PngImage read_ppm(const std::string& path);

}  // namespace fj
