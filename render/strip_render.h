// flamejit — a frame rendered strip by strip into one image file (render, animate).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// For frames whose histogram does not fit the memory budget in one piece
// (pipeline/strips.h): each strip's rows go into the image's files (PNG, EXR,
// ..., image/image_stream.h) as soon as they are made, so neither the
// histogram nor the image is ever held whole.
#pragma once

#include <functional>
#include <string>

#include "image_files.h"
#include "pipeline/render_state.h"
#include "pipeline/renderer.h"

namespace fj::cli {

struct StripRender {
    // The frame's statistics as one piece would report them (each strip
    // plots the same samples), with the time of all strips.
    RenderResult result;
    uint64_t iterated = 0;   // samples of all strips together
};

// Render state strip by strip (pipeline/render_state.h): `load` gives strip
// i's state to resume from, `store` keeps the state strip i ends with; each
// may be empty.
struct StripStates {
    std::function<RenderState(int strip)> load;
    std::function<void(int strip, const RenderState&)> store;
};

// Renders `frame` in `strips` into every file of `files` (`linear`: EXR
// files of PostPlan::linear values); `describe` then gives each file's text
// and sidecar from the result (image_files.h), and the sidecars are written
// once their images are. `progress` sees the fraction of all strips.
StripRender render_strips_to_files(Renderer& renderer, const PreparedFrame& frame, uint64_t seed,
                                   const StripPlan& strips, const std::vector<ImageFile>& files, bool linear,
                                   const std::function<std::vector<FileText>(const RenderResult&)>& describe,
                                   const ProgressFn& progress, const StripStates& states = {});

// "out.png: 3 strips of 1200 rows, 5.1 GiB each (budget 6.0 GiB)", for stderr.
std::string describe_strips(const std::string& path, const StripPlan& strips);

}  // namespace fj::cli
