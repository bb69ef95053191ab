// flamejit — a sample of a frame's hits: cells drawn in proportion to the hits
// its histogram holds, so that a benchmark can add to the accumulator with the
// genome's own hit distribution (its atomic ceiling with that distribution).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace fj {

// `n` cell indices of the histogram `rgba` (four floats a cell), each cell
// about as often as its share of the alpha channel (every hit adds its
// visibility × 255 there): systematic sampling, n evenly spaced points of
// the channel's running sum, then shuffled (a fixed seed), so that entries
// read one after another are independent draws. Empty when nothing was hit.
std::vector<uint32_t> hit_sample(const std::vector<float>& rgba, size_t n);

}  // namespace fj
