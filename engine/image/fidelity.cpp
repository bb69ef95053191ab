// flamejit — the fidelity ratio (see fidelity.h for the definition).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/fidelity.h"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace fj {

namespace {

std::string size_text(const PngImage& image) {
    return std::to_string(image.width) + "x" + std::to_string(image.height);
}

// RGB of each 2×2 block, averaged, in the 8-bit range. An odd last row or
// column has no partner and is dropped, so all three images lose the same
// pixels.
std::vector<double> downsample_rgb(const PngImage& image) {
    const int w = image.width / 2, h = image.height / 2;
    std::vector<double> out(static_cast<size_t>(w) * h * 3);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c)
                out[(static_cast<size_t>(y) * w + x) * 3 + c] =
                    0.25 * (image.at8(2 * x, 2 * y, c) + image.at8(2 * x + 1, 2 * y, c) +
                            image.at8(2 * x, 2 * y + 1, c) + image.at8(2 * x + 1, 2 * y + 1, c));
    return out;
}

void check_same_size(const PngImage& x, const PngImage& y, const char* names) {
    if (x.width != y.width || x.height != y.height)
        throw std::runtime_error(std::string("fidelity: images ") + names + " differ in size (" + size_text(x) +
                                 " vs " + size_text(y) + ")");
    if (x.width < 2 || x.height < 2)
        throw std::runtime_error("fidelity: images must be at least 2x2, not " + size_text(x));
    if (x.rgba.size() != static_cast<size_t>(x.width) * x.height * 4 ||
        y.rgba.size() != static_cast<size_t>(y.width) * y.height * 4)
        throw std::runtime_error("fidelity: an image has the wrong number of samples for its size");
}

double mean_abs(const std::vector<double>& x, const std::vector<double>& y) {
    double sum = 0;
    for (size_t i = 0; i < x.size(); ++i) sum += std::fabs(x[i] - y[i]);
    return sum / static_cast<double>(x.size());
}

double ratio_of(double error, double reference_error) {
    if (reference_error > 0) return error / reference_error;
    return error > 0 ? std::numeric_limits<double>::infinity() : 1.0;
}

}  // namespace

double downsampled_mean_abs_difference(const PngImage& x, const PngImage& y) {
    check_same_size(x, y, "X and Y");
    return mean_abs(downsample_rgb(x), downsample_rgb(y));
}

FidelityResult fidelity_ratio(const PngImage& a, const PngImage& b, const PngImage& c) {
    check_same_size(a, b, "A and B");
    check_same_size(a, c, "A and C");
    const auto da = downsample_rgb(a), db = downsample_rgb(b), dc = downsample_rgb(c);
    FidelityResult r;
    r.width = a.width / 2;
    r.height = a.height / 2;
    r.error_ca = mean_abs(dc, da);
    r.error_cb = mean_abs(dc, db);
    r.error_ab = mean_abs(da, db);
    r.ratio_a = ratio_of(r.error_ca, r.error_ab);
    r.ratio_b = ratio_of(r.error_cb, r.error_ab);
    r.ratio = 0.5 * (r.ratio_a + r.ratio_b);
    return r;
}

}  // namespace fj
