// flamejit — the post-pass plan: filter kernels, DE bank and tone values.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "post/post_plan.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "pipeline/frame_plan.h"

namespace fj {
namespace {

// flam3's filter-name scramble (reference §3.9): the parser numbers the names
// in one order, the kernel switch and support table use another. Indexed by
// FilterShape, i.e. by the number the parser gives the name.
double spatial_support(FilterShape shape) {
    static const double support[14] = {1.5, 1.0, 0.5, 1.0, 1.5, 2.0, 2.0,
                                       1.0, 2.0, 1.0, 1.0, 3.0, 2.0, 1.5};
    return support[static_cast<int>(shape)];
}

double sinc(double x) {
    x *= M_PI;
    return x != 0 ? std::sin(x) / x : 1.0;
}

double gaussian(double x) { return std::exp(-2 * x * x) * std::sqrt(2 / M_PI); }

double lanczos(double t, double lobes) {
    t = std::fabs(t);
    return t < lobes ? sinc(t) * sinc(t / lobes) : 0.0;
}

// Mitchell–Netravali with B = C = 1/3.
double mitchell(double t) {
    const double b = 1.0 / 3.0, c = 1.0 / 3.0;
    t = std::fabs(t);
    double tt = t * t;
    if (t < 1)
        return ((12 - 9 * b - 6 * c) * t * tt + (-18 + 12 * b + 6 * c) * tt + (6 - 2 * b)) / 6;
    if (t < 2)
        return ((-b - 6 * c) * t * tt + (6 * b + 30 * c) * tt + (-12 * b - 48 * c) * t +
                (8 * b + 24 * c)) / 6;
    return 0;
}

double catmull_rom(double x) {
    double t = std::fabs(x);
    if (t < 1) return 0.5 * (2 + t * t * (-5 + 3 * t));
    if (t < 2) return 0.5 * (4 + t * (-8 + t * (5 - t)));
    return 0;
}

// The function flam3 actually evaluates for a parsed filter number.
double spatial_kernel(FilterShape shape, double x) {
    double t = std::fabs(x);
    switch (shape) {
        case FilterShape::Gaussian: return gaussian(x);
        case FilterShape::Hermite: return t < 1 ? (2 * t - 3) * t * t + 1 : 0;
        case FilterShape::Box: return (x > -0.5 && x <= 0.5) ? 1 : 0;
        case FilterShape::Triangle: return t < 1 ? 1 - t : 0;
        case FilterShape::Bell:
            if (t < 0.5) return 0.75 - t * t;
            if (t < 1.5) return 0.5 * (t - 1.5) * (t - 1.5);
            return 0;
        case FilterShape::Bspline:
            if (t < 1) return 0.5 * t * t * t - t * t + 2.0 / 3.0;
            if (t < 2) return (2 - t) * (2 - t) * (2 - t) / 6;
            return 0;
        case FilterShape::Lanczos3: return mitchell(x);
        case FilterShape::Lanczos2: return sinc(x) * (0.42 + 0.5 * std::cos(M_PI * x) + 0.08 * std::cos(2 * M_PI * x));
        case FilterShape::Mitchell: return catmull_rom(x);
        case FilterShape::Blackman: return sinc(x) * (0.5 + 0.5 * std::cos(M_PI * x));
        case FilterShape::Catrom: return sinc(x) * (0.54 + 0.46 * std::cos(M_PI * x));
        case FilterShape::Hamming: return lanczos(x, 3) * sinc(x / 3);
        case FilterShape::Hanning: return lanczos(x, 2) * sinc(x / 2);
        case FilterShape::Quadratic:
            if (t < 0.5) return 0.75 - t * t;
            if (t < 1.5) return 0.5 * (t - 1.5) * (t - 1.5);
            return 0;
    }
    return 0;
}

// Taps per axis, and the factor mapping tap centres onto the kernel support.
int filter_taps(FilterShape shape, double radius, int supersample, double* adjust) {
    double support = spatial_support(shape);
    double fw = 2.0 * support * supersample * radius;
    int width = static_cast<int>(fw) + 1;
    // Same parity as the supersample, so the window is centred on the cells
    // that make up one output pixel.
    if ((width ^ supersample) & 1) ++width;
    if (adjust) *adjust = fw > 0 ? support * width / fw : 1.0;
    return width;
}

void check_filter_inputs(double radius, int supersample) {
    if (!(radius >= 0) || !std::isfinite(radius) || radius > 1000)
        throw std::runtime_error("spatial filter radius must be between 0 and 1000, not " +
                                 std::to_string(radius));
    if (supersample < 1 || supersample > 64)
        throw std::runtime_error("supersample must be between 1 and 64, not " +
                                 std::to_string(supersample));
}

}  // namespace

int spatial_filter_width(const Flame& flame) {
    check_filter_inputs(flame.filter_radius, flame.supersample);
    return filter_taps(flame.filter_shape, flame.filter_radius, flame.supersample, nullptr);
}

SpatialFilter make_spatial_filter(FilterShape shape, double radius, int supersample) {
    check_filter_inputs(radius, supersample);
    double adjust = 1;
    SpatialFilter f;
    f.width = filter_taps(shape, radius, supersample, &adjust);
    std::vector<double> taps(f.width);
    for (int i = 0; i < f.width; ++i)
        taps[i] = spatial_kernel(shape, ((2.0 * i + 1.0) / f.width - 1.0) * adjust);
    std::vector<double> k(static_cast<size_t>(f.width) * f.width);
    double sum = 0;
    for (int j = 0; j < f.width; ++j)
        for (int i = 0; i < f.width; ++i) sum += k[j * f.width + i] = taps[i] * taps[j];
    if (sum == 0)
        throw std::runtime_error("spatial filter of radius " + std::to_string(radius) +
                                 " has no weight");
    f.coefs.resize(k.size());
    for (size_t n = 0; n < k.size(); ++n) f.coefs[n] = static_cast<float>(k[n] / sum);
    return f;
}

DensityBank make_density_bank(double radius, double minimum, double curve, int supersample) {
    if (!(curve > 0) || !std::isfinite(curve))
        throw std::runtime_error("estimator_curve must be > 0, not " + std::to_string(curve));
    if (!(radius >= 0) || !(minimum >= 0) || !std::isfinite(radius) || !std::isfinite(minimum))
        throw std::runtime_error("estimator radii must be finite and >= 0");
    if (radius < minimum)
        throw std::runtime_error("estimator_radius (" + std::to_string(radius) +
                                 ") must not be smaller than estimator_minimum (" +
                                 std::to_string(minimum) + ")");
    if (supersample < 1) throw std::runtime_error("supersample must be >= 1");
    const int thresh = 100;
    // "+1": the distance from a cell to its first neighbour.
    double rmax = radius * supersample + 1, rmin = minimum * supersample + 1;
    double wanted = std::pow(rmax / rmin, 1.0 / curve);
    if (wanted > 1e7)
        throw std::runtime_error("density estimation needs too many kernels (" +
                                 std::to_string(wanted) + "); raise estimator_minimum or curve");
    int n = static_cast<int>(std::ceil(wanted));
    int slots;
    DensityBank bank;
    bank.curve = curve;
    bank.supersample = supersample;
    if (n > thresh) {
        // Past 100 hits, kernels are spaced by hits^curve to keep the bank small.
        slots = static_cast<int>(std::ceil(thresh + std::pow(n - thresh, curve))) + 1;
        bank.max_filtered_counts = static_cast<int>(std::pow(double(slots - thresh), 1.0 / curve)) + thresh;
    } else {
        slots = n;
        bank.max_filtered_counts = n;
    }
    bank.half_width = static_cast<int>(std::ceil(rmax)) - 1;
    const int row = 2 * bank.half_width + 1;
    for (int k = 0; k < slots; ++k) {
        double hits = k < thresh ? k : std::pow(k - thresh, 1.0 / curve) + thresh;
        double h = rmax / std::pow(hits + 1, curve);
        bool last = h <= rmin;
        if (last) h = rmin;
        bank.widths.push_back(h);
        std::vector<double> c(static_cast<size_t>(row) * row, 0.0);
        double sum = 0;
        for (int dy = -bank.half_width; dy <= bank.half_width; ++dy)
            for (int dx = -bank.half_width; dx <= bank.half_width; ++dx) {
                double d = std::sqrt(double(dx * dx + dy * dy)) / h;
                if (d <= 1) sum += c[(dy + bank.half_width) * row + dx + bank.half_width] = gaussian(1.5 * d);
            }
        for (double v : c) bank.coefs.push_back(static_cast<float>(v / sum));
        if (last) break;
    }
    bank.kernel_count = static_cast<int>(bank.widths.size());
    return bank;
}

PostPlan make_post_plan(const Flame& flame, const FramePlan& plan) {
    PostPlan post;
    post.width = plan.width;
    post.height = plan.height;
    post.supersample = plan.supersample;
    post.hist_width = plan.hist_width;
    post.hist_height = plan.hist_height;
    post.gutter = plan.gutter;
    post.de_offset = plan.de_offset;
    if (!(plan.sample_density > 0) || !(plan.ppux > 0) || !(plan.ppuy > 0))
        throw std::runtime_error("post-pass needs a frame plan with positive density and scale");
    // One pass, one temporal sample weight 1, contrast 1 (§3.7).
    post.k1 = flame.brightness * 255.0 * 268.0 / 256.0;
    double area = double(plan.width) * plan.height / (plan.ppux * plan.ppuy);
    post.k2 = double(plan.supersample) * plan.supersample / (area * 255.0 * plan.sample_density);
    if (flame.estimator_radius > 0)
        post.density = make_density_bank(flame.estimator_radius, flame.estimator_minimum,
                                         flame.estimator_curve, plan.supersample);
    post.filter = make_spatial_filter(flame.filter_shape, flame.filter_radius, plan.supersample);
    if (!(flame.gamma > 0) || !std::isfinite(flame.gamma))
        throw std::runtime_error("gamma must be > 0, not " + std::to_string(flame.gamma));
    post.gamma = flame.gamma;
    post.gamma_threshold = flame.gamma_threshold;
    post.vibrancy = flame.vibrancy;
    post.highlight_power = flame.highlight_power;
    for (int i = 0; i < 3; ++i) post.background[i] = flame.background[i];
    return post;
}

}  // namespace fj
