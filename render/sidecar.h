// flamejit — a JSON file beside an image saying what made it (--sidecar).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Artists often keep their genomes out of the images they publish
// (--no-png-comments) and still want every image to be reproducible; a
// farm wants a record of each frame's settings it can read without decoding
// images. IMAGE.json holds the command line, the seed, the backend and
// kernel settings, the output settings, what the image's text chunks hold
// (samples, error rate, time, ...) and the genome as rendered, whether or
// not the image itself carries them. It is written whole (temporary, then
// renamed) once the image is, so an image without one was cut short.
#pragma once

#include <string>

#include "cli_common.h"
#include "image/png_io.h"
#include "pipeline/renderer.h"

namespace fj::cli {

inline constexpr const char* kSidecarHelp =
    "  --sidecar             also write IMAGE.json beside each image: the command, seed, backend,\n"
    "                        kernel and output settings, samples and the genome as rendered\n"
    "                        (kept even with --no-png-comments); with --resume, an image without\n"
    "                        its sidecar is rendered again\n";

// The sidecar's path for an image.
std::string sidecar_path(const std::string& image);

// The sidecar's text for `image`, made by `flamejit COMMAND ARGS...` with
// `options` and `format`; `metadata` holds the text chunks and genome that
// add_png_comments made for it.
std::string sidecar_text(const std::string& image, const char* command, const Args& args, const RenderOptions& options,
                         const OutputFormat& format, const ImageOptions& metadata);

}  // namespace fj::cli
