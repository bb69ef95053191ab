// flamejit — the time steps of one motion-blurred frame and their weights.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 3.1.1 flam3_create_temporal_filter (reference/flam3-behaviour.md
// §3.12): n steps at offsets (i/(n−1) − ½)·width around the frame time, each
// weighted by the filter (box 1; gaussian exp(−2x²) at x = 1.5·|i − n/2|/(n/2);
// exp ((i+1)/n)^|e| for e ≥ 0, ((n−i)/n)^|e| for e < 0), normalised so the
// largest weight is 1. One step is offset 0, weight 1. A step's weight scales
// the palette colours it deposits (not the hit counts), and the mean weight
// divides the log-density constant k2, so the filters change the blur's
// shape, not the frame's brightness.
#pragma once

#include <vector>

#include "genome/flame.h"

namespace fj {

struct TemporalSteps {
    std::vector<double> offsets;   // genome time relative to the frame's
    std::vector<double> weights;   // max 1
    double mean_weight = 1;        // flam3's sumfilt
};

// Throws std::invalid_argument for steps < 1.
TemporalSteps make_temporal_steps(int steps, TemporalFilter type, double exponent, double width);

}  // namespace fj
