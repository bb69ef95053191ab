// flamejit — a sample of a frame's hits.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "analysis/hit_sample.h"

#include <algorithm>
#include <random>

namespace fj {

std::vector<uint32_t> hit_sample(const std::vector<float>& rgba, size_t n) {
    const size_t cells = rgba.size() / 4;
    double total = 0;
    for (size_t i = 0; i < cells; ++i) total += rgba[4 * i + 3];
    std::vector<uint32_t> sample;
    if (!(total > 0) || n == 0) return sample;
    sample.reserve(n);
    // Point k sits at (k + 1/2) steps along the running sum; the cell whose
    // stretch of the sum holds it is drawn.
    const double step = total / static_cast<double>(n);
    double below = 0;  // the running sum before cell i
    size_t k = 0;
    for (size_t i = 0; i < cells && k < n; ++i) {
        const double above = below + rgba[4 * i + 3];
        while (k < n && (static_cast<double>(k) + 0.5) * step < above) {
            sample.push_back(static_cast<uint32_t>(i));
            ++k;
        }
        below = above;
    }
    // Rounding can leave the last points past the final sum: they belong to
    // the last cell that was hit.
    while (k < n && !sample.empty()) {
        sample.push_back(sample.back());
        ++k;
    }
    std::mt19937_64 order(20261126);
    std::shuffle(sample.begin(), sample.end(), order);
    return sample;
}

}  // namespace fj
