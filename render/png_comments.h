// flamejit — the text of the images that render and animate write (PNG text
// chunks; EXR attributes and JPEG comments under the same keys).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 embeds the genome it rendered and a few numbers about the render in
// every PNG; tools that catalogue flam3 images (and flam3 users) read them by
// flam3's keys. Where a value means what flam3's does, it goes under flam3's
// key: flam3_genome (zTXt, the genome as flam3 XML, read back by flam3 and
// flamejit alike), flam3_samples, flam3_error_rate (reseeded bad values per
// sample), flam3_time (whole seconds), flam3_version naming flamejit, and
// flam3_nickname, flam3_url and flam3_id from the environment variables
// nick, url and id that flam3 reads (empty when unset, as flam3 writes
// them). The tEXt chunks come in flam3-render's order (version, nickname,
// url, id, error rate, samples, time), then the flamejit_ keys for values
// flam3 has none for (backend, seed, ...), then the genome, as flam3 does.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "cli_args.h"
#include "genome/flame.h"
#include "image/image_stream.h"
#include "pipeline/renderer.h"

namespace fj::cli {

// Whether the images carry text: not with --no-png-comments, nor where
// flam3's own switch for the format, the environment variable
// enable_jpeg_comments for JPEG and enable_png_comments for the others, is 0.
bool png_comments_wanted(const ParsedArgs& args, ImageFormat format);

// Fills png.text and png.genome_xml for an image rendered from `rendered`
// (the genome as rendered: overrides applied, an animation frame's
// interpolated genome) as `result` says (the samples of its histogram, a
// resumed render state's included); `extra` are flamejit_ pairs appended
// in order. A genome too long for a JPEG comment is noted on stderr, once
// per process; the JPEG goes without it (image/jpeg_io.h), a sidecar keeps it.
void add_png_comments(ImageOptions& png, ImageFormat format, const Flame& rendered, const RenderResult& result,
                      const std::vector<std::pair<std::string, std::string>>& extra);

}  // namespace fj::cli
