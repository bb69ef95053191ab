// flamejit — an image's mean level against renders of its genome (see level.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/level.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace fj {

std::array<double, 3> channel_means(const PngImage& image) {
    std::array<double, 3> sum{};
    const size_t pixels = image.rgba.size() / 4;
    if (pixels == 0) throw std::runtime_error("level: an empty image has no mean");
    for (size_t i = 0; i < image.rgba.size(); i += 4)
        for (int c = 0; c < 3; ++c) sum[c] += image.rgba[i + c];
    const double to8 = image.bits == 16 ? 1.0 / 256.0 : 1.0;
    for (double& s : sum) s *= to8 / static_cast<double>(pixels);
    return sum;
}

LevelShift level_shift(const std::vector<std::array<double, 3>>& references, const std::array<double, 3>& image) {
    const int n = static_cast<int>(references.size());
    if (n < 2) throw std::invalid_argument("level_shift needs two references or more");
    double level = 0;
    for (const auto& r : references) level += r[0] + r[1] + r[2];
    level = std::max(1.0, level / (3.0 * n));
    LevelShift out;
    out.references = n;
    for (int c = 0; c < 3; ++c) {
        double mean = 0, low = references[0][c], high = low;
        for (const auto& r : references) {
            mean += r[c];
            low = std::min(low, r[c]);
            high = std::max(high, r[c]);
        }
        mean /= n;
        double squares = 0;
        for (const auto& r : references) squares += (r[c] - mean) * (r[c] - mean);
        const double deviation = image[c] - mean;
        const double scale = std::sqrt(squares / (n - 1) * (1.0 + 1.0 / n));
        const double infinite = std::numeric_limits<double>::infinity();
        const double t = scale > 0 ? deviation / scale : (deviation == 0 ? 0.0 : std::copysign(infinite, deviation));
        // Red's first, then a channel that moved further.
        if (c == 0 || std::fabs(deviation / level) > std::fabs(out.shift)) {
            out.shift = deviation / level;
            out.spread = (high - low) / level;
            out.t = t;
        }
    }
    return out;
}

double level_t_critical(int references) {
    // Student's t, two-sided 0.1 %, for 1..9 degrees of freedom.
    static const double kCritical[] = {636.619, 31.599, 12.924, 8.610, 6.869, 5.959, 5.408, 5.041, 4.781};
    if (references < 2 || references > kLevelReferences)
        throw std::invalid_argument("level_t_critical: 2.." + std::to_string(kLevelReferences) + " references");
    return kCritical[references - 2];
}

}  // namespace fj
