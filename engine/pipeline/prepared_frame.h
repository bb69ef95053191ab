// flamejit — everything a backend needs for one frame, computed on the host.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A frame is one or more time samples rendered into one accumulator by one
// kernel, each sample with its own parameter block (camera, weights,
// affines, palette scaled by the sample's temporal weight). Preparing a
// frame needs no backend, so the next frame can be prepared on another
// thread while the current one iterates.
//
// Stills (prepare_still) are one sample at the flame's own values, as
// flam3-render renders them. Animation frames (prepare_animation_frame)
// follow flam3's render_rectangle for one pass: the genome is interpolated
// at every step of the temporal filter around the frame time; the image
// size, supersample, temporal filter and highlight power come from the
// frame time, the spatial filter from the first keyframe, the histogram
// gutter from the largest estimator radius of all keyframes, the density
// estimator from the first step, gamma, vibrancy and background are the
// steps' means, brightness, gamma threshold and the k2 camera/quality from
// the last step. `passes` > 1 is not implemented (one pass, as for stills).
#pragma once

#include <cstdint>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "genome/flame.h"
#include "pipeline/frame_plan.h"

namespace fj {

// Every time step keeps its parameter block (a few kB) until its frame is done.
constexpr int kMaxTimeSamples = 10000;

struct FrameOptions {
    double quality = 0;          // > 0 overrides the genomes'
    int temporal_samples = 0;    // > 0 overrides the genomes' (animation frames)
    KernelOptions kernel;
};

struct TimeSample {
    double time = 0;
    double weight = 1;           // temporal filter weight (already in the palette)
    uint64_t samples = 0;        // iterations requested for this step
    std::vector<float> params;   // the packed block
};

struct PreparedFrame {
    double time = 0;
    Flame post_flame;            // the values the post-pass reads (see above)
    FramePlan plan;              // histogram geometry shared by all samples
    KernelKey key;
    ParamLayout layout;
    std::vector<TimeSample> samples;
    // flam3's k2 for the requested sample counts; the renderer rescales it by
    // requested/plotted weighted counts, since backends plot whole rounds.
    double k2 = 0;
};

// Throw InputError for values no frame can be rendered with.
PreparedFrame prepare_still(const Flame& flame, const FrameOptions& options);
PreparedFrame prepare_animation_frame(const std::vector<Flame>& keyframes, double time, const FrameOptions& options);

}  // namespace fj
