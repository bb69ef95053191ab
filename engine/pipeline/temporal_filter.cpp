// flamejit — the time steps of one motion-blurred frame and their weights.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/temporal_filter.h"

#include <cmath>
#include <stdexcept>
#include <string>

namespace fj {

TemporalSteps make_temporal_steps(int steps, TemporalFilter type, double exponent, double width) {
    if (steps < 1) throw std::invalid_argument("temporal samples must be at least 1, not " + std::to_string(steps));
    TemporalSteps t;
    if (steps == 1) {
        t.offsets = {0.0};
        t.weights = {1.0};
        t.mean_weight = 1.0;
        return t;
    }
    const double n = steps;
    t.offsets.resize(steps);
    t.weights.resize(steps);
    for (int i = 0; i < steps; ++i) t.offsets[i] = (i / (n - 1) - 0.5) * width;
    double max = 0;
    for (int i = 0; i < steps; ++i) {
        double w = 1.0;
        if (type == TemporalFilter::Exp) {
            const double x = exponent >= 0 ? (i + 1.0) / n : (n - i) / n;
            w = std::pow(x, std::fabs(exponent));
        } else if (type == TemporalFilter::Gaussian) {
            // flam3's gaussian spatial kernel (support 1.5); its constant
            // factor cancels in the normalisation below.
            const double half = n / 2.0;
            const double x = 1.5 * std::fabs(i - half) / half;
            w = std::exp(-2.0 * x * x);
        }
        t.weights[i] = w;
        max = std::max(max, w);
    }
    double sum = 0;
    for (double& w : t.weights) {
        w /= max;
        sum += w;
    }
    t.mean_weight = sum / n;
    return t;
}

}  // namespace fj
