// flamejit — the shuffle strategies' selection and exchange, simulated on labels.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Runs the iteration kernel's xform selection (every lane draws, lane 0's draw
// decides for a warp-uniform warp) and its exchange between warps (the same
// ring_destination / full_destination functions, or the sorted exchange's
// stable counting sort by the xforms drawn) for N equally weighted
// transforms, but moves labels instead of points: each point remembers which
// xforms it applied. From that it measures what the strategies are meant to
// control: how often two points of a block share their recent transform
// sequence, and whether trajectories stay distinct.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace fj {

// The strategies of the kernel, plus the fixed-offset ring the design warns
// about (offset = lane, the same every round), simulated for comparison only.
enum class SimulatedStrategy { Divergent, None, Ring, Full, RingFixedOffset, Sorted };

const char* to_string(SimulatedStrategy s);

struct ShuffleSimulationConfig {
    SimulatedStrategy strategy = SimulatedStrategy::Ring;
    int transforms = 8;   // N, equal weights
    int warp = 32;        // W
    int block = 256;      // T, a multiple of W
    int blocks = 64;      // independent blocks simulated
    int rounds = 200;     // measured rounds, after a warm-up of 8
    uint64_t seed = 1;
};

// Subsequence lengths l at which P(identical) is measured.
inline constexpr std::array<int, 4> kSubsequenceLengths{1, 2, 4, 8};

struct ShuffleSimulationResult {
    ShuffleSimulationConfig config;
    // P(two distinct points of a block applied the same last l xforms), for
    // each l of kSubsequenceLengths, over all pairs and measured rounds.
    std::array<double, 4> p_identical{};
    // Distinct whole-run transform sequences / points, averaged over blocks.
    double distinct_trajectories = 0;
    // Distinct xforms a warp applies in a round, averaged over warps and
    // measured rounds: what a round costs a GPU in xform runs per warp (1
    // for warp-uniform selection; the sorted exchange's edge warps add).
    double xforms_per_warp = 0;
};

// Throws std::invalid_argument for impossible shapes (T not a multiple of W,
// more than 255 transforms, ...).
ShuffleSimulationResult simulate_shuffle(const ShuffleSimulationConfig& config);

// The analytic model for comparison: formulas (1), (2), (3) and (4) of the
// shuffle study (the sorted exchange draws per thread: divergent's (1)); NaN
// for the fixed-offset ring, which it does not cover.
double model_p_identical(SimulatedStrategy s, int transforms, int warp, int block, int length);

}  // namespace fj
