// flamejit — PostPlan values in the form the shared post-pass snippets read.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Used by both post-pass backends, so the CPU and the GPU tone-map and choose
// DE kernels from the same numbers.
#pragma once

#include "post/density.h"
#include "post/post_plan.h"
#include "post/tone.h"

namespace fj {

// In float for the GPU, in double (as flam3 computes them) for the CPU.
template <typename R = float>
inline ToneParamsT<R> tone_params(const PostPlan& plan) {
    ToneParamsT<R> t;
    t.inv_gamma = static_cast<R>(1.0 / plan.gamma);
    t.lin_threshold = static_cast<R>(plan.gamma_threshold);
    t.vibrancy = static_cast<R>(plan.vibrancy);
    t.highlight_power = static_cast<R>(plan.highlight_power);
    // flam3 averages background over temporal samples and scales it by 256.
    for (int i = 0; i < 3; ++i) t.background[i] = static_cast<R>(plan.background[i] * 256.0);
    t.transparent = plan.transparent ? 1 : 0;
    t.curves = plan.curves.empty() ? nullptr : plan.curves.data();
    return t;
}

inline DensitySelect density_select(const PostPlan& plan) {
    DensitySelect s;
    s.max_filtered_counts = static_cast<float>(plan.density.max_filtered_counts);
    s.max_index = plan.density.kernel_count - 1;
    s.curve = static_cast<float>(plan.density.curve);
    s.supersample = plan.supersample;
    s.half_width = plan.density.half_width;
    return s;
}

// flam3 runs density estimation only when the bank has more than one kernel.
inline bool uses_density_estimation(const PostPlan& plan) {
    return plan.density.kernel_count > 1;
}

}  // namespace fj
