// flamejit — what post_test and gpu_post_test both build their frames from.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "genome/flame.h"
#include "pipeline/frame_plan.h"
#include "post/color_curves.h"
#include "post/post_plan.h"

namespace fj::test {

inline bool close(double a, double b, double rel, double abs_tol = 1e-12) {
    return std::fabs(a - b) <= abs_tol + rel * std::fabs(b);
}

// A small supersampled frame.
inline Flame small_frame() {
    Flame f;
    f.width = 64;
    f.height = 48;
    f.scale = 20;
    f.supersample = 2;
    return f;
}

// Curves that change every channel differently: an S through the overall
// curve, and each colour's own bend.
inline ColorCurves bent_curves() {
    ColorCurves c;
    c.points[0] = {{0, 0}, {0.27, 0.04}, {0.56, 0.38}, {0.75, 0.75}, {1, 1}};
    c.points[1] = {{0, 0}, {0.5, 0.7}, {1, 1}};
    c.points[2] = {{0, 0.1}, {1, 0.9}};
    c.points[3] = {{0, 0}, {0.3, 0.1}, {1, 1}};
    return c;
}

inline PostPlan curve_plan(const Flame& f, const FramePlan& plan, bool earlyclip) {
    PostPlan post = make_post_plan(f, plan);
    post.earlyclip = earlyclip;
    return post;
}

// 20,000 hits of one colour on cells drawn uniformly.
inline std::vector<float> random_accumulator(const FramePlan& plan, unsigned seed) {
    std::vector<float> accum(size_t(4) * plan.hist_width * plan.hist_height, 0.0f);
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> cx(0, plan.hist_width - 1), cy(0, plan.hist_height - 1);
    for (int n = 0; n < 20000; ++n) {
        float* c = &accum[4 * (size_t(cy(rng)) * plan.hist_width + cx(rng))];
        c[0] += 255 * 0.8f, c[1] += 255 * 0.3f, c[2] += 255 * 0.6f, c[3] += 255;
    }
    return accum;
}

}  // namespace fj::test
