// flamejit — reads cuburn's JSON genomes (nodes) and output profiles into Flames.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A cuburn node (reference/cuburn-design.md §5–6) holds one genome whose
// values are splines: a number, or [position, velocity] for a value that
// moves over one loop. `base` inherits from another node (a path relative
// to the flock folder, the parent of the node's folder, or to the node's own
// folder); dotted keys ("xforms.0.variations.julia.weight") edit nested
// values. Read into flam3 terms:
//   - affines are polar (angle, spread, magnitude, offset) in a y-up space:
//     converted back to flam3's a b c d e f with y flipped, so a node that
//     cuburn made from flam3 XML reads as that XML;
//   - camera.scale is relative to the image width; de.minimum is relative to
//     de.radius; colorclip/logscale give gamma, gamma_threshold,
//     highlight_power, vibrancy and brightness; `rgb8` palettes are base64;
//   - the profile (or cuburn's built-in defaults: 1280×720, 2000 samples per
//     pixel, 30 s at 24 fps) gives the size, the quality (profile spp ×
//     camera.spp) and the loop length; its post filters (bilateral, …), its
//     start/end/skip/shard and output settings are not used.
// As a still (loop = false) a node is one Flame at time 0. As an animation
// it is cuburn's self-loop: periodic splines (angles) advance by their
// velocity over one loop of round(fps · duration) frames; the loop is given
// as keyframes at frame times 0 … L, close enough (≤ 45° apart) that flam3's
// log-polar interpolation between them reproduces the rotation exactly; the
// temporal filter is cuburn's (box, frame_width wide, 1024 steps). Other
// velocities are not animated: the value stays at its position, with a
// warning naming the first such value.
// Edges and animations (which need a genome database) are rejected.
#pragma once

#include <string>
#include <vector>

#include "genome/flame.h"
#include "genome/flam3_reader.h"

namespace fj {

struct CuburnReadOptions {
    std::string profile_file;   // empty: cuburn's defaults
    bool loop = false;          // keyframes of the node's loop instead of one still
    bool drop_unknown_variations = false;
};

// Throws GenomeError ("FILE: ...") for unreadable or malformed input.
std::vector<Flame> read_cuburn_file(const std::string& path, const CuburnReadOptions& options = {},
                                    std::vector<FlameSource>* sources = nullptr);

// `base_dir` resolves `base` references; `name_for_messages` stands for the file.
std::vector<Flame> read_cuburn_string(const std::string& text, const std::string& name_for_messages,
                                      const std::string& base_dir, const CuburnReadOptions& options = {});

}  // namespace fj
