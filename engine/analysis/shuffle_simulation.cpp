// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/shuffle_simulation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <unordered_set>

#include "codegen/param_layout.h"
#include "iterate/common.h"

namespace fj {
namespace {

constexpr int kWarmup = 8;  // ≥ the longest measured subsequence

// One label per point: its last 8 xform ids (8 bits each, newest lowest) and
// a hash of every id it applied.
struct Label {
    uint64_t recent = 0;
    uint64_t whole = 0;
};

uint64_t mix(uint64_t h, int id) {
    h ^= static_cast<uint64_t>(id + 1) + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2);
    h *= 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
}

// Pairs of points whose values agree, over all pairs of the block.
double identical_pair_fraction(std::vector<uint64_t>& values) {
    std::sort(values.begin(), values.end());
    double pairs = 0;
    for (size_t i = 0; i < values.size();) {
        size_t j = i;
        while (j < values.size() && values[j] == values[i]) ++j;
        const double n = static_cast<double>(j - i);
        pairs += n * (n - 1) / 2;
        i = j;
    }
    const double n = static_cast<double>(values.size());
    return pairs / (n * (n - 1) / 2);
}

uint32_t destination(SimulatedStrategy s, uint32_t t, uint32_t round, const ShuffleSimulationConfig& c,
                     uint32_t salt) {
    const uint32_t W = static_cast<uint32_t>(c.warp), T = static_cast<uint32_t>(c.block);
    const uint32_t warp = t / W, lane = t % W, warps = T / W;
    switch (s) {
        case SimulatedStrategy::Ring: return ring_destination(warp, lane, round, warps, salt) * W + lane;
        case SimulatedStrategy::RingFixedOffset: return ((warp + lane) % warps) * W + lane;
        case SimulatedStrategy::Full: return full_destination(t, round, T, salt);
        default: return t;
    }
}

}  // namespace

const char* to_string(SimulatedStrategy s) {
    switch (s) {
        case SimulatedStrategy::Divergent: return "divergent";
        case SimulatedStrategy::None: return "none";
        case SimulatedStrategy::Ring: return "ring";
        case SimulatedStrategy::Full: return "full";
        case SimulatedStrategy::RingFixedOffset: return "ring-fixed-offset";
        case SimulatedStrategy::Sorted: return "sorted";
    }
    return "?";
}

ShuffleSimulationResult simulate_shuffle(const ShuffleSimulationConfig& c) {
    if (c.transforms < 1 || c.transforms > 255) throw std::invalid_argument("transforms must be in 1..255");
    if (c.warp < 1 || c.block < 2 * c.warp || c.block % c.warp != 0)
        throw std::invalid_argument("the block must hold at least two warps, a whole number of them");
    if (c.blocks < 1 || c.rounds < 1) throw std::invalid_argument("blocks and rounds must be positive");

    // The kernels' selection row for equal weights (flam3's table grain included).
    const auto p = selection_probabilities(std::vector<double>(c.transforms, 1.0), 0);
    std::vector<float> cumulative(c.transforms);
    double sum = 0;
    for (int k = 0; k < c.transforms; ++k) cumulative[k] = static_cast<float>(sum += p[k]);
    cumulative.back() = 1.0f;

    const bool sorted = c.strategy == SimulatedStrategy::Sorted;
    const bool uniform = c.strategy != SimulatedStrategy::Divergent && !sorted;
    const bool exchange = uniform && c.strategy != SimulatedStrategy::None;
    const int T = c.block, W = c.warp;
    ShuffleSimulationResult result;
    result.config = c;
    std::array<double, 4> identical{};
    double distinct = 0, warp_xforms = 0;
    std::vector<Label> labels(T), moved(T);
    std::vector<Rng> rng(T);
    std::vector<int> chosen(T), start(c.transforms);
    std::vector<float> draws(T);
    std::vector<uint64_t> values(T);

    for (int b = 0; b < c.blocks; ++b) {
        for (int t = 0; t < T; ++t) {
            rng[t] = make_rng(c.seed, static_cast<uint64_t>(b) * T + t);
            labels[t] = Label{};
        }
        for (int r = 0; r < kWarmup + c.rounds; ++r) {
            // Every lane draws; a warp-uniform warp follows its lane 0.
            for (int t = 0; t < T; ++t) draws[t] = rand01(rng[t]);
            for (int t = 0; t < T; ++t)
                chosen[t] = select_xform(cumulative.data(), c.transforms, draws[uniform ? t - t % W : t]);
            for (int t = 0; t < T; ++t) {
                labels[t].recent = labels[t].recent << 8 | static_cast<uint64_t>(chosen[t]);
                labels[t].whole = mix(labels[t].whole, chosen[t]);
            }
            if (sorted) {
                // Points move to their xform's slots before they apply it.
                std::fill(start.begin(), start.end(), 0);
                for (int t = 0; t < T; ++t)
                    if (chosen[t] + 1 < c.transforms) ++start[chosen[t] + 1];
                for (int k = 1; k < c.transforms; ++k) start[k] += start[k - 1];
                for (int t = 0; t < T; ++t) moved[start[chosen[t]]++] = labels[t];
                labels.swap(moved);
                std::sort(chosen.begin(), chosen.end());
            }
            if (r >= kWarmup)
                for (int w = 0; w < T; w += W)
                    for (int l = 0; l < W; ++l)
                        warp_xforms += std::find(&chosen[w], &chosen[w + l], chosen[w + l]) == &chosen[w + l];
            if (r >= kWarmup)
                for (size_t i = 0; i < kSubsequenceLengths.size(); ++i) {
                    const int l = kSubsequenceLengths[i];
                    const uint64_t mask = l >= 8 ? ~uint64_t(0) : (uint64_t(1) << (8 * l)) - 1;
                    for (int t = 0; t < T; ++t) values[t] = labels[t].recent & mask;
                    identical[i] += identical_pair_fraction(values);
                }
            if (exchange) {
                for (int t = 0; t < T; ++t)
                    moved[destination(c.strategy, static_cast<uint32_t>(t), static_cast<uint32_t>(r), c,
                                      static_cast<uint32_t>(b))] = labels[t];
                labels.swap(moved);
            }
        }
        std::unordered_set<uint64_t> trajectories;
        for (const Label& l : labels) trajectories.insert(l.whole);
        distinct += static_cast<double>(trajectories.size()) / T;
    }
    for (size_t i = 0; i < identical.size(); ++i)
        result.p_identical[i] = identical[i] / (static_cast<double>(c.blocks) * c.rounds);
    result.distinct_trajectories = distinct / c.blocks;
    result.xforms_per_warp = warp_xforms / (static_cast<double>(c.blocks) * c.rounds * (T / W));
    return result;
}

double model_p_identical(SimulatedStrategy s, int transforms, int warp, int block, int length) {
    const double N = transforms, W = warp, T = block, l = length;
    const double same_warp = (W - 1) / (T - 1);
    switch (s) {
        case SimulatedStrategy::Divergent:
        case SimulatedStrategy::Sorted: return std::pow(N, -l);
        case SimulatedStrategy::None: return same_warp + (1 - same_warp) * std::pow(N, -l);
        case SimulatedStrategy::Full: return std::pow(same_warp + (1 - same_warp) / N, l);
        case SimulatedStrategy::Ring: {
            const double V = T / W;  // warps per block
            return (V - 1) / (T - 1) * std::pow(N, -l) +
                   (T - V) / (T - 1) * std::pow((W - 1) / (T - V) + (T - W - W / T + 1) / (T - V) / N, l);
        }
        case SimulatedStrategy::RingFixedOffset: break;
    }
    return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace fj
