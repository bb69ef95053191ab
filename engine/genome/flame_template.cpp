// flamejit — flam3 templates: output settings laid over genomes.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flame_template.h"

namespace fj {

void set_image_size(Flame& flame, int width, int height) {
    flame.scale = flame.scale * height / flame.height;
    flame.width = width;
    flame.height = height;
}

void apply_template(Flame& flame, const FlameTemplate& t) {
    const Flame& v = t.values;
    const auto given = [&](const char* name) { return t.given.count(name) > 0; };
    if (given("size")) set_image_size(flame, v.width, v.height);
    if (given("background"))
        for (int i = 0; i < 3; ++i) flame.background[i] = v.background[i];
    if (given("zoom")) flame.zoom = v.zoom;
    if (given("supersample")) flame.supersample = v.supersample;
    if (given("filter")) flame.filter_radius = v.filter_radius;
    if (given("filter_shape")) flame.filter_shape = v.filter_shape;
    if (given("quality")) flame.quality = v.quality;
    if (given("passes")) flame.passes = v.passes;
    if (given("temporal_samples")) flame.temporal_samples = v.temporal_samples;
    if (given("estimator_radius")) flame.estimator_radius = v.estimator_radius;
    if (given("estimator_minimum")) flame.estimator_minimum = v.estimator_minimum;
    if (given("estimator_curve")) flame.estimator_curve = v.estimator_curve;
    if (given("gamma_threshold")) flame.gamma_threshold = v.gamma_threshold;
    if (given("highlight_power")) flame.highlight_power = v.highlight_power;
    if (given("palette_mode")) flame.palette_mode = v.palette_mode;
    if (given("interpolation")) flame.interpolation = v.interpolation;
    if (given("interpolation_type")) flame.interpolation_type = v.interpolation_type;
    if (given("palette_interpolation")) flame.palette_interpolation = v.palette_interpolation;
    if (given("hsv_rgb_palette_blend")) flame.hsv_rgb_palette_blend = v.hsv_rgb_palette_blend;
    if (given("temporal_filter_type")) flame.temporal_filter_type = v.temporal_filter_type;
    if (given("temporal_filter_width")) flame.temporal_filter_width = v.temporal_filter_width;
    if (given("temporal_filter_exp")) flame.temporal_filter_exp = v.temporal_filter_exp;
}

}  // namespace fj
