// flamejit — everything a backend needs for one frame, computed on the host.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A frame is one or more time samples rendered into one accumulator by one
// kernel, each sample with its own parameter block (camera, weights,
// affines, palette scaled by the sample's temporal weight). Preparing a
// frame needs no backend, so the next frame can be prepared on another
// thread while the current one iterates.
//
// Stills (prepare_still) are the flame's own values, as flam3-render renders
// them: one time sample per pass. Animation frames (prepare_animation_frame)
// follow flam3's render_rectangle: the genome is interpolated at every step
// of the temporal filter around the frame time; the image size, supersample,
// passes, temporal filter and highlight power come from the frame time, the
// spatial filter from the first keyframe, the histogram gutter from the
// largest estimator radius of all keyframes; gamma, vibrancy and background
// are the means over all steps, the gamma threshold is the last step's.
//
// flam3's `passes` (nbatches) split the temporal filter's passes ×
// temporal_samples steps into consecutive groups: each pass iterates its
// steps into a cleared histogram, which is log-scaled (density-estimated) on
// its own with its k1 and k2 and added to the others before the spatial
// filter. A pass takes its density estimator from its first step, and the
// estimator's kernel choice (curve), brightness (k1) and the k2 camera and
// quality from its last.
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
    double pixel_aspect = 1;     // a pixel's width over its height (pipeline/frame_plan.h)
    Field field = Field::Both;   // an interlaced frame's field (pipeline/frame_plan.h)
    KernelOptions kernel;
};

struct TimeSample {
    double time = 0;
    double weight = 1;           // temporal filter weight (already in the palette)
    uint64_t samples = 0;        // iterations requested for this step
    std::vector<float> params;   // the packed block
};

// One of a frame's passes (reference/flam3-behaviour.md §3.7, §3.12).
struct FramePass {
    size_t first = 0, count = 0;  // its steps in PreparedFrame::samples
    double k1 = 0;                // includes 1/passes
    // For the requested sample counts (includes passes and the temporal
    // filter's mean weight); the renderer rescales it by requested/plotted
    // weighted counts, since backends plot whole rounds.
    double k2 = 0;
    double estimator_radius = 0, estimator_minimum = 0, estimator_curve = 0.4;  // the bank
    double select_curve = 0.4;    // the curve that chooses kernels
};

struct PreparedFrame {
    double time = 0;
    Flame post_flame;            // the values the post-pass reads (see above)
    FramePlan plan;              // histogram geometry shared by all samples
    KernelKey key;
    ParamLayout layout;
    std::vector<TimeSample> samples;
    std::vector<FramePass> passes;  // in order; together they hold every sample
};

// flam3's log-density constant k2 of one pass: os²·passes / (area · 255 ·
// density · sumfilt), with the image area in world units from `ppux` and
// `ppuy` (pixels per unit) and sumfilt the temporal filter's mean weight.
double flam3_k2(int supersample, int width, int height, double ppux, double ppuy, double density, double mean_weight,
                int passes);

// Throw InputError for values no frame can be rendered with.
PreparedFrame prepare_still(const Flame& flame, const FrameOptions& options);
PreparedFrame prepare_animation_frame(const std::vector<Flame>& keyframes, double time, const FrameOptions& options);

}  // namespace fj
