// flamejit — everything a backend needs for one frame, computed on the host.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/prepared_frame.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>
#include <stdexcept>

#include "codegen/switch_kernel.h"
#include "codegen/variation_registry.h"
#include "errors.h"
#include "genome/interpolate.h"
#include "pipeline/frame_structure.h"
#include "pipeline/temporal_filter.h"
#include "post/post_plan.h"

namespace fj {
namespace {

std::string at_time(double t) {
    std::ostringstream s;
    s << "at time " << t << ": ";
    return s.str();
}

FramePlan checked_plan(const Flame& flame, const FrameOptions& options, const std::string& where) {
    try {
        return plan_frame(flame, options.quality, options.pixel_aspect, options.field);
    } catch (const std::runtime_error& e) {
        throw InputError(where + e.what());
    }
}

std::vector<float> checked_pack(const Flame& flame, const KernelKey& key, const ParamLayout& layout,
                                const double camera[6], const std::string& where) {
    try {
        return pack_kernel_params(flame, key, layout, camera);
    } catch (const std::logic_error&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw InputError(where + e.what());
    }
}

// Steps of one frame: passes × temporal samples per pass, within the limit.
int checked_steps(int passes, int per_pass, const std::string& where) {
    if (passes < 1) throw InputError(where + "passes must be at least 1, not " + std::to_string(passes));
    if (static_cast<long long>(passes) * per_pass > kMaxTimeSamples)
        throw InputError(where + "passes × temporal_samples must be at most " + std::to_string(kMaxTimeSamples) +
                         ", not " + std::to_string(static_cast<long long>(passes) * per_pass));
    return passes * per_pass;
}

// Motion blur (and a still's passes under a non-box temporal filter) weight
// the colours a step deposits, not its counts.
void weight_palette(Flame& flame, double weight) {
    for (RGBA& c : flame.palette) {
        c.r *= weight;
        c.g *= weight;
        c.b *= weight;
        c.a *= weight;
    }
}

// What a step contributes to its pass's constants.
struct StepValues {
    const Flame* flame;
    double ppux, ppuy, sample_density;
};

// Splits the steps into `count` passes of equal length and gives each its
// k1, k2 and density estimator (prepared_frame.h).
std::vector<FramePass> make_passes(const std::vector<StepValues>& steps, int count, const FramePlan& plan,
                                   double mean_weight) {
    std::vector<FramePass> passes;
    const size_t per_pass = steps.size() / count;
    for (int b = 0; b < count; ++b) {
        FramePass p;
        p.first = b * per_pass;
        p.count = per_pass;
        const StepValues& first = steps[p.first];
        const StepValues& last = steps[p.first + per_pass - 1];
        p.k1 = flam3_k1(last.flame->brightness, count);
        p.k2 = flam3_k2(plan.supersample, plan.width, plan.height, last.ppux, last.ppuy, last.sample_density,
                        mean_weight, count);
        p.estimator_radius = first.flame->estimator_radius;
        p.estimator_minimum = first.flame->estimator_minimum;
        p.estimator_curve = first.flame->estimator_curve;
        p.select_curve = last.flame->estimator_curve;
        passes.push_back(p);
    }
    return passes;
}

// Passes of several time steps need the kernel that moves blocks between
// them (KernelKey::time_steps); a still's passes have one each.
bool has_time_steps(const PreparedFrame& f) {
    return std::any_of(f.passes.begin(), f.passes.end(), [](const FramePass& p) { return p.count > 1; });
}

// flam3's count channel differs from alpha/255 only where a hit deposits an
// alpha other than 255 (palette alpha or temporal weight below 1), and only
// matters where density estimation chooses kernels from it. Elsewhere the
// kernel and the backends skip it.
bool needs_density_count(const PreparedFrame& f) {
    bool de = false;
    for (const FramePass& p : f.passes) de = de || density_estimation_enabled(p.estimator_radius, p.estimator_minimum);
    if (!de) return false;
    for (const TimeSample& s : f.samples)
        for (int c = 0; c < 256; ++c)
            if (s.params[f.layout.palette + 4 * c + 3] != 255.0f) return true;
    return false;
}

}  // namespace

double flam3_k2(int supersample, int width, int height, double ppux, double ppuy, double density, double mean_weight,
                int passes) {
    const double area = double(width) * height / (ppux * ppuy);
    return double(supersample) * supersample * passes / (area * 255.0 * density * mean_weight);
}

PreparedFrame prepare_still(const Flame& flame, const FrameOptions& options) {
    PreparedFrame f;
    f.time = flame.time;
    f.post_flame = flame;
    f.plan = checked_plan(flame, options, "");
    const KernelOptions kernel = frame_kernel_options({&flame}, options.kernel);
    // Per-thread draws have no bursts to spread.
    const Flame drawn = selects_per_thread(kernel.shuffle) ? flame : spread_rare_xforms(flame);
    f.key = make_kernel_key(drawn, kernel);
    f.layout = make_param_layout(f.key, VariationRegistry::standard());
    // flam3-render renders one temporal sample per pass, all of the same
    // genome, with the temporal filter's weights over the passes.
    const int steps = checked_steps(flame.passes, 1, "");
    const TemporalSteps filter = make_temporal_steps(steps, flame.temporal_filter_type, flame.temporal_filter_exp,
                                                     flame.temporal_filter_width);
    std::vector<StepValues> values;
    for (int i = 0; i < steps; ++i) {
        Flame step = drawn;
        weight_palette(step, filter.weights[i]);
        TimeSample s;
        s.time = flame.time;
        s.weight = filter.weights[i];
        s.samples = f.plan.samples / steps;
        s.params = checked_pack(step, f.key, f.layout, f.plan.world_to_cell, "");
        f.samples.push_back(std::move(s));
        values.push_back({&flame, f.plan.ppux, f.plan.ppuy, f.plan.sample_density});
    }
    f.passes = make_passes(values, steps, f.plan, filter.mean_weight);
    f.key.density_count = needs_density_count(f);
    f.key.time_steps = has_time_steps(f);
    return f;
}

PreparedFrame prepare_animation_frame(const std::vector<Flame>& keyframes, double time, const FrameOptions& options) {
    PreparedFrame f;
    f.time = time;
    const Flame centre = interpolate(keyframes, time);
    const int per_pass = options.temporal_samples > 0 ? options.temporal_samples : centre.temporal_samples;
    if (per_pass < 1 || per_pass > kMaxTimeSamples)
        throw InputError(at_time(time) + "temporal_samples must be in 1.." + std::to_string(kMaxTimeSamples) +
                         ", not " + std::to_string(per_pass));
    const int steps = checked_steps(centre.passes, per_pass, at_time(time));
    const TemporalSteps filter = make_temporal_steps(steps, centre.temporal_filter_type, centre.temporal_filter_exp,
                                                     centre.temporal_filter_width);

    // The histogram: the frame time's size, keyframe 0's spatial filter, and
    // a gutter for the widest density estimator of any keyframe (flam3).
    Flame geometry = centre;
    geometry.filter_shape = keyframes[0].filter_shape;
    geometry.filter_radius = keyframes[0].filter_radius;
    for (const Flame& k : keyframes) geometry.estimator_radius = std::max(geometry.estimator_radius, k.estimator_radius);
    f.plan = checked_plan(geometry, options, at_time(time));

    std::vector<Flame> at(steps);
    std::vector<const Flame*> pointers(steps);
    for (int i = 0; i < steps; ++i) {
        at[i] = interpolate(keyframes, time + filter.offsets[i]);
        pointers[i] = &at[i];
    }
    FrameStructure structure = union_structure(pointers, centre.palette_mode);
    // Each segment's keyframes looked at once, not once per time step.
    std::set<int> segments;
    for (int i = 0; i < steps; ++i) segments.insert(keyframe_segment(keyframes, time + filter.offsets[i]));
    std::set<const Flame*> segment_ends;
    for (int segment : segments) {
        segment_ends.insert(&keyframes[segment]);
        if (static_cast<size_t>(segment) + 1 < keyframes.size()) segment_ends.insert(&keyframes[segment + 1]);
    }
    const KernelOptions kernel = frame_kernel_options({segment_ends.begin(), segment_ends.end()}, options.kernel);
    if (!selects_per_thread(kernel.shuffle))
        for (int segment : segments) structure.xaos = structure.xaos || segment_has_rare_xform(keyframes, segment);

    double gamma = 0, vibrancy = 0, background[3] = {0, 0, 0};
    std::vector<StepValues> values;
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
        const FramePlan plan = checked_plan(step, options, where);
        if (plan.hist_width != f.plan.hist_width || plan.hist_height != f.plan.hist_height)
            throw std::logic_error("prepare_animation_frame: a time step planned another histogram");
        if (i == 0) {
            f.key = make_kernel_key(step, kernel);
            f.layout = make_param_layout(f.key, VariationRegistry::standard());
        }
        weight_palette(step, filter.weights[i]);
        TimeSample s;
        s.time = time + filter.offsets[i];
        s.weight = filter.weights[i];
        s.samples = static_cast<uint64_t>(plan.sample_density * plan.width * plan.height / steps);
        s.params = checked_pack(step, f.key, f.layout, plan.world_to_cell, where);
        f.samples.push_back(std::move(s));
        gamma += at[i].gamma;
        vibrancy += at[i].vibrancy;
        for (int c = 0; c < 3; ++c) background[c] += at[i].background[c];
        values.push_back({&at[i], plan.ppux, plan.ppuy, plan.sample_density});
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
    f.passes = make_passes(values, centre.passes, f.plan, filter.mean_weight);
    f.key.density_count = needs_density_count(f);
    f.key.time_steps = has_time_steps(f);
    return f;
}

}  // namespace fj
