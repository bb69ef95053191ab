// flamejit — the post-pass plan: filter kernels, DE bank and tone values.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "post/post_plan.h"

#include <cmath>
#include <stdexcept>
#include <string>

#include "errors.h"
#include "pipeline/frame_plan.h"
#include "post/color_curves.h"

namespace fj {
namespace {

// The most memory the density-estimation kernels may take.
constexpr double kMaxDensityBankBytes = 1024.0 * 1024 * 1024;

// flam3's filter-name scramble (reference §3.9): the parser numbers the names
// in one order, the kernel switch and support table use another. Indexed by
// FilterShape, i.e. by the number the parser gives the name.
double spatial_support(FilterShape shape) {
    static const double support[14] = {1.5, 1.0, 0.5, 1.0, 1.5, 2.0, 2.0,
                                       1.0, 2.0, 1.0, 1.0, 3.0, 2.0, 1.5};
    return support[static_cast<int>(shape)];
}

// The kernels below evaluate in the order of operations of the libflam3
// build the reference renders come from (Debian 3.1.1, built with
// -ffast-math: divisions by constants became multiplications, sums were
// regrouped). Usually that changes the last bit only, but the outermost taps
// of several kernels are ±1e-17 residues of sin(kπ) and the like, and their
// sign decides whether a far pixel's filtered value is slightly negative,
// which flam3 draws white (snippets/post/tone.h). So the taps must carry
// flam3's signs, not just its values.
double sinc(double x) {
    const double y = x * M_PI;
    return y != 0 ? std::sin(y) / y : 1.0;
}

double gaussian(double x) { return std::exp((x * x) * -2.0) * std::sqrt(2.0 / M_PI); }

double mitchell(double x) {  // Mitchell–Netravali, B = C = 1/3
    const double xx = x * x, t = std::fabs(x);
    if (t < 1) return ((t * 7.0 - 12.0) * xx + 16.0 / 3.0) * (1.0 / 6.0);
    if (t < 2) return ((t * (-7.0 / 3.0) + 12.0) * xx + (t * -20.0 + 32.0 / 3.0)) * (1.0 / 6.0);
    return 0;
}

double catmull_rom(double x) {
    if (x < -2) return 0;
    if (x < -1) return (((x + 5.0) * x + 8.0) * x + 4.0) * 0.5;
    if (x < 0) return ((-5.0 - x * 3.0) * (x * x) + 2.0) * 0.5;
    if (x < 1) return ((x * 3.0 - 5.0) * (x * x) + 2.0) * 0.5;
    if (x < 2) return (((5.0 - x) * x - 8.0) * x + 4.0) * 0.5;
    return 0;
}

double lanczos(double x, double lobes) {
    const double t = std::fabs(x);
    return t < lobes ? sinc(t) * sinc(t * (1.0 / lobes)) : 0.0;
}

// The function flam3 actually evaluates for a parsed filter number.
double spatial_kernel(FilterShape shape, double x) {
    const double t = std::fabs(x);
    switch (shape) {
        case FilterShape::Gaussian: return gaussian(x);
        case FilterShape::Hermite: return t < 1 ? (x * x) * ((t + t) - 3.0) + 1.0 : 0;
        case FilterShape::Box: return (x > -0.5 && x <= 0.5) ? 1 : 0;
        case FilterShape::Triangle: return t < 1 ? 1 - t : 0;
        case FilterShape::Bell:
            if (t < 0.5) return 0.75 - x * x;
            if (t < 1.5) return ((t - 1.5) * (t - 1.5)) * 0.5;
            return 0;
        case FilterShape::Bspline:
            if (t < 1) return 0.5 * ((x * x) * t) + (2.0 / 3.0 - x * x);
            if (t < 2) return ((1.0 / 6.0) * (2 - t)) * ((2 - t) * (2 - t));
            return 0;
        case FilterShape::Lanczos3: return mitchell(x);
        case FilterShape::Lanczos2:  // sinc · Blackman window
            return sinc(x) * ((std::cos(x * M_PI) * 0.5 + std::cos(x * (2 * M_PI)) * 0.08) + 0.42);
        case FilterShape::Mitchell: return catmull_rom(x);
        case FilterShape::Blackman: return sinc(x) * ((std::cos(x * M_PI) + 1.0) * 0.5);    // sinc · Hanning
        case FilterShape::Catrom: return sinc(x) * (std::cos(x * M_PI) * 0.46 + 0.54);     // sinc · Hamming
        case FilterShape::Hamming: return lanczos(x, 3) * sinc(x * (1.0 / 3.0));
        case FilterShape::Hanning: return lanczos(x, 2) * sinc(x * 0.5);
        case FilterShape::Quadratic:
            if (x < -1.5) return 0;
            if (x < -0.5) return ((x + 1.5) * (x + 1.5)) * 0.5;
            if (x < 0.5) return 0.75 - x * x;
            if (x < 1.5) return ((x - 1.5) * (x - 1.5)) * 0.5;
            return 0;
    }
    return 0;
}

// The spatial filter's taps a side at most: its table of doubles within 1 GiB.
constexpr int kMaxFilterTaps = 11584;

// Taps per axis, and the factor mapping tap centres onto the kernel support
// (flam3's grouping of the products, see above).
int filter_taps(FilterShape shape, double radius, int supersample, double aspect, double* adjust) {
    const double support = spatial_support(shape);
    const double fw = (double(supersample) * support) * (radius + radius) / aspect;
    // A table past 1 GiB (and as many multiply-adds per pixel): a radius
    // near 1000 at a large supersample, or a thin pixel aspect.
    if (!(fw < kMaxFilterTaps))
        throw std::runtime_error("spatial filter of radius " + message_number(radius) + " at supersample " +
                                 std::to_string(supersample) +
                                 (aspect != 1 ? " and pixel aspect " + message_number(aspect) : std::string()) +
                                 " needs " + std::to_string(static_cast<long long>(fw) + 1) +
                                 " taps a side, more than " + std::to_string(kMaxFilterTaps) +
                                 "; lower filter or supersample");
    int width = static_cast<int>(fw) + 1;
    // Same parity as the supersample, so the window is centred on the cells
    // that make up one output pixel.
    if ((width ^ supersample) & 1) ++width;
    if (adjust) *adjust = fw > 0 ? (double(width) * support) / fw : 1.0;
    return width;
}

void check_filter_inputs(double radius, int supersample) {
    if (!(radius >= 0) || !std::isfinite(radius) || radius > 1000)
        throw std::runtime_error("spatial filter radius must be between 0 and 1000, not " +
                                 message_number(radius));
    if (supersample < 1 || supersample > 64)
        throw std::runtime_error("supersample must be between 1 and 64, not " +
                                 std::to_string(supersample));
}

}  // namespace

int spatial_filter_width(const Flame& flame, double pixel_aspect) {
    check_filter_inputs(flame.filter_radius, flame.supersample);
    return filter_taps(flame.filter_shape, flame.filter_radius, flame.supersample, pixel_aspect, nullptr);
}

SpatialFilter make_spatial_filter(FilterShape shape, double radius, int supersample, double pixel_aspect,
                                  bool field) {
    check_filter_inputs(radius, supersample);
    double adjust = 1;
    SpatialFilter f;
    f.width = filter_taps(shape, radius, supersample, pixel_aspect, &adjust);
    // Rows' taps (flam3's jj) are doubled for a field and divided by the
    // pixel aspect, as flam3's build does it: times its reciprocal (which
    // puts a box filter's edge taps on the side flam3 puts them).
    std::vector<double> taps(f.width), row_taps(f.width);
    const double step = 1.0 / f.width, row_scale = 1.0 / pixel_aspect;
    for (int i = 0; i < f.width; ++i) {
        const double x = ((double(i) + double(i) + 1.0) * step - 1.0) * adjust;
        taps[i] = spatial_kernel(shape, x);
        const double row_x = field ? x * 2.0 : x;
        row_taps[i] = pixel_aspect == 1 && !field ? taps[i] : spatial_kernel(shape, row_x * row_scale);
    }
    std::vector<double> k(static_cast<size_t>(f.width) * f.width);
    double sum = 0;
    for (int j = 0; j < f.width; ++j)
        for (int i = 0; i < f.width; ++i) sum += k[j * f.width + i] = taps[i] * row_taps[j];
    if (sum == 0)
        throw std::runtime_error("spatial filter of radius " + message_number(radius) +
                                 " has no weight");
    f.coefs.resize(k.size());
    const double inverse = 1.0 / sum;
    for (size_t n = 0; n < k.size(); ++n) f.coefs[n] = k[n] * inverse;
    return f;
}

DensityBank make_density_bank(double radius, double minimum, double curve, int supersample) {
    if (!(curve > 0) || !std::isfinite(curve))
        throw std::runtime_error("estimator_curve must be > 0, not " + message_number(curve));
    if (!(radius >= 0) || !(minimum >= 0) || !std::isfinite(radius) || !std::isfinite(minimum))
        throw std::runtime_error("estimator radii must be finite and >= 0");
    if (radius < minimum)
        throw std::runtime_error("estimator_radius (" + message_number(radius) +
                                 ") must not be smaller than estimator_minimum (" +
                                 message_number(minimum) + ")");
    if (supersample < 1) throw std::runtime_error("supersample must be >= 1");
    const int thresh = 100;
    // "+1": the distance from a cell to its first neighbour.
    double rmax = radius * supersample + 1, rmin = minimum * supersample + 1;
    double wanted = std::pow(rmax / rmin, 1.0 / curve);
    if (wanted > 1e7)
        throw std::runtime_error("density estimation needs too many kernels (" +
                                 message_number(wanted) + "); raise estimator_minimum or curve");
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
        if (last) break;
    }
    // Every kernel is a (2·radius·supersample)² square: a large radius at a
    // large supersample would need terabytes (the histogram limits only
    // the radius), and the post-pass could not use them in any time.
    const double bytes = double(bank.widths.size()) * row * row * sizeof(float);
    if (bytes > kMaxDensityBankBytes)
        throw std::runtime_error("density estimation with estimator_radius " + message_number(radius) +
                                 " at supersample " + std::to_string(supersample) + " needs " +
                                 message_number(bytes / (1 << 20)) + " MiB of kernels, more than " +
                                 std::to_string(static_cast<int>(kMaxDensityBankBytes / (1 << 20))) +
                                 " MiB; lower estimator_radius or supersample, or raise estimator_minimum");
    bank.coefs.reserve(bank.widths.size() * row * row);
    for (const double h : bank.widths) {
        std::vector<double> c(static_cast<size_t>(row) * row, 0.0);
        double sum = 0;
        for (int dy = -bank.half_width; dy <= bank.half_width; ++dy)
            for (int dx = -bank.half_width; dx <= bank.half_width; ++dx) {
                double d = std::sqrt(double(dx * dx + dy * dy)) / h;
                if (d <= 1) sum += c[(dy + bank.half_width) * row + dx + bank.half_width] = gaussian(1.5 * d);
            }
        for (double v : c) bank.coefs.push_back(static_cast<float>(v / sum));
    }
    bank.kernel_count = static_cast<int>(bank.widths.size());
    return bank;
}

double flam3_k1(double brightness, int passes) {
    return brightness * 255.0 * 268.0 / 256.0 / passes;
}

bool density_estimation_enabled(double radius, double minimum) {
    return radius > 0 && radius > minimum;
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
    post.first_row = plan.first_row;
    post.hist_row0 = plan.hist_row0;
    if (!(plan.sample_density > 0) || !(plan.ppux > 0) || !(plan.ppuy > 0))
        throw std::runtime_error("post-pass needs a frame plan with positive density and scale");
    // One pass, one temporal sample weight 1, contrast 1 (§3.7); a strip
    // has the whole frame's samples, so the whole frame's area.
    post.k1 = flam3_k1(flame.brightness, 1);
    double area = double(plan.width) * plan.frame_height / (plan.ppux * plan.ppuy);
    post.k2 = double(plan.supersample) * plan.supersample / (area * 255.0 * plan.sample_density);
    if (flame.estimator_radius > 0)
        post.density = make_density_bank(flame.estimator_radius, flame.estimator_minimum,
                                         flame.estimator_curve, plan.supersample);
    post.filter = make_spatial_filter(flame.filter_shape, flame.filter_radius, plan.supersample, plan.pixel_aspect,
                                      plan.field != Field::Both);
    if (!(flame.gamma > 0) || !std::isfinite(flame.gamma))
        throw std::runtime_error("gamma must be > 0, not " + message_number(flame.gamma));
    post.gamma = flame.gamma;
    post.gamma_threshold = flame.gamma_threshold;
    post.vibrancy = flame.vibrancy;
    post.highlight_power = flame.highlight_power;
    for (int i = 0; i < 3; ++i) post.background[i] = flame.background[i];
    post.curves = color_curve_table(flame.curves);
    return post;
}

}  // namespace fj
