// flamejit — everything a backend needs for one frame, computed on the host.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/prepared_frame.h"

#include <cmath>
#include <sstream>
#include <stdexcept>

#include "codegen/variation_registry.h"
#include "errors.h"
#include "genome/interpolate.h"
#include "pipeline/frame_structure.h"
#include "pipeline/temporal_filter.h"

namespace fj {
namespace {

std::string at_time(double t) {
    std::ostringstream s;
    s << "at time " << t << ": ";
    return s.str();
}

FramePlan checked_plan(const Flame& flame, double quality, const std::string& where) {
    try {
        return plan_frame(flame, quality);
    } catch (const std::runtime_error& e) {
        throw InputError(where + e.what());
    }
}

std::vector<float> checked_pack(const Flame& flame, const KernelKey& key, const ParamLayout& layout,
                                const double camera[6], const std::string& where) {
    try {
        return pack_params(flame, key, layout, camera);
    } catch (const std::logic_error&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw InputError(where + e.what());
    }
}

// flam3's log-density constant for one pass: os² / (area · 255 · density · sumfilt),
// with the image area in world units from `ppu` (pixels per unit).
double flam3_k2(int supersample, int width, int height, double ppu, double density, double mean_weight) {
    const double area = double(width) * height / (ppu * ppu);
    return double(supersample) * supersample / (area * 255.0 * density * mean_weight);
}

}  // namespace

PreparedFrame prepare_still(const Flame& flame, const FrameOptions& options) {
    PreparedFrame f;
    f.time = flame.time;
    f.post_flame = flame;
    f.plan = checked_plan(flame, options.quality, "");
    f.key = make_kernel_key(flame, options.kernel);
    f.layout = make_param_layout(f.key, VariationRegistry::standard());
    TimeSample s;
    s.time = flame.time;
    s.samples = f.plan.samples;
    s.params = checked_pack(flame, f.key, f.layout, f.plan.world_to_cell, "");
    f.samples.push_back(std::move(s));
    f.k2 = flam3_k2(f.plan.supersample, f.plan.width, f.plan.height, f.plan.ppux, f.plan.sample_density, 1.0);
    return f;
}

PreparedFrame prepare_animation_frame(const std::vector<Flame>& keyframes, double time, const FrameOptions& options) {
    PreparedFrame f;
    f.time = time;
    const Flame centre = interpolate(keyframes, time);
    const int steps = options.temporal_samples > 0 ? options.temporal_samples : centre.temporal_samples;
    if (steps < 1 || steps > kMaxTimeSamples)
        throw InputError(at_time(time) + "temporal_samples must be in 1.." + std::to_string(kMaxTimeSamples) +
                         ", not " + std::to_string(steps));
    const TemporalSteps filter = make_temporal_steps(steps, centre.temporal_filter_type, centre.temporal_filter_exp,
                                                     centre.temporal_filter_width);

    // The histogram: the frame time's size, keyframe 0's spatial filter, and
    // a gutter for the widest density estimator of any keyframe (flam3).
    Flame geometry = centre;
    geometry.filter_shape = keyframes[0].filter_shape;
    geometry.filter_radius = keyframes[0].filter_radius;
    for (const Flame& k : keyframes) geometry.estimator_radius = std::max(geometry.estimator_radius, k.estimator_radius);
    f.plan = checked_plan(geometry, options.quality, at_time(time));

    std::vector<Flame> at(steps);
    std::vector<const Flame*> pointers(steps);
    for (int i = 0; i < steps; ++i) {
        at[i] = interpolate(keyframes, time + filter.offsets[i]);
        pointers[i] = &at[i];
    }
    const FrameStructure structure = union_structure(pointers, centre.palette_mode);

    double gamma = 0, vibrancy = 0, background[3] = {0, 0, 0};
    FramePlan last_plan;
    for (int i = 0; i < steps; ++i) {
        const std::string where = at_time(time + filter.offsets[i]);
        // The step's own camera within the frame's histogram.
        Flame step = conform(at[i], structure);
        step.width = geometry.width;
        step.height = geometry.height;
        step.supersample = geometry.supersample;
        step.filter_shape = geometry.filter_shape;
        step.filter_radius = geometry.filter_radius;
        step.estimator_radius = geometry.estimator_radius;
        const FramePlan plan = checked_plan(step, options.quality, where);
        if (plan.hist_width != f.plan.hist_width || plan.hist_height != f.plan.hist_height)
            throw std::logic_error("prepare_animation_frame: a time step planned another histogram");
        if (i == 0) {
            f.key = make_kernel_key(step, options.kernel);
            f.layout = make_param_layout(f.key, VariationRegistry::standard());
        }
        // Motion blur weights the colours a step deposits, not its counts.
        for (RGBA& c : step.palette) {
            c.r *= filter.weights[i];
            c.g *= filter.weights[i];
            c.b *= filter.weights[i];
            c.a *= filter.weights[i];
        }
        TimeSample s;
        s.time = time + filter.offsets[i];
        s.weight = filter.weights[i];
        s.samples = static_cast<uint64_t>(plan.sample_density * plan.width * plan.height / steps);
        s.params = checked_pack(step, f.key, f.layout, plan.world_to_cell, where);
        f.samples.push_back(std::move(s));
        gamma += at[i].gamma;
        vibrancy += at[i].vibrancy;
        for (int c = 0; c < 3; ++c) background[c] += at[i].background[c];
        last_plan = plan;
    }

    Flame& post = f.post_flame;
    post = at.back();
    post.width = geometry.width;
    post.height = geometry.height;
    post.supersample = geometry.supersample;
    post.highlight_power = centre.highlight_power;
    post.filter_shape = geometry.filter_shape;
    post.filter_radius = geometry.filter_radius;
    post.estimator_radius = at.front().estimator_radius;
    post.estimator_minimum = at.front().estimator_minimum;
    post.estimator_curve = at.front().estimator_curve;
    post.gamma = gamma / steps;
    post.vibrancy = vibrancy / steps;
    for (int c = 0; c < 3; ++c) post.background[c] = background[c] / steps;
    f.k2 = flam3_k2(f.plan.supersample, f.plan.width, f.plan.height, last_plan.ppux, last_plan.sample_density,
                    filter.mean_weight);
    return f;
}

}  // namespace fj
