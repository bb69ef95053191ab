// flamejit — frame planning: histogram geometry, camera and sample budget.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/frame_plan.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "errors.h"
#include "post/post_plan.h"

namespace fj {
namespace {

void require(bool ok, const std::string& what) {
    if (!ok) throw std::runtime_error(what);
}

}  // namespace

FramePlan plan_frame(const Flame& flame, double quality_override, double pixel_aspect, Field field) {
    require(flame.width >= 1 && flame.height >= 1 && flame.width <= kMaxImageSide && flame.height <= kMaxImageSide,
            "image size must be between 1x1 and " + std::to_string(kMaxImageSide) + "x" +
                std::to_string(kMaxImageSide) + ", not " + std::to_string(flame.width) + "x" +
                std::to_string(flame.height));
    require(flame.supersample >= 1 && flame.supersample <= 64,
            "supersample must be between 1 and 64, not " + std::to_string(flame.supersample));
    require(std::isfinite(flame.scale) && flame.scale > 0, "scale must be > 0, not " + message_number(flame.scale));
    require(std::isfinite(flame.zoom) && std::fabs(flame.zoom) < 64, "zoom must be finite and |zoom| < 64, not " + message_number(flame.zoom));
    require(std::isfinite(flame.center_x) && std::isfinite(flame.center_y), "center must be finite");
    require(std::isfinite(flame.rotate), "rotate must be finite");
    require(std::isfinite(flame.estimator_radius) && flame.estimator_radius >= 0 &&
                flame.estimator_radius <= 1000,
            "estimator_radius must be between 0 and 1000, not " + message_number(flame.estimator_radius));
    require(pixel_aspect >= kMinPixelAspect && pixel_aspect <= kMaxPixelAspect,
            "pixel aspect must be between " + message_number(kMinPixelAspect) + " and " +
                message_number(kMaxPixelAspect) + ", not " + message_number(pixel_aspect));
    require(field == Field::Both || flame.height % 2 == 0,
            "interlaced fields need an even image height, not " + std::to_string(flame.height));
    double quality = quality_override > 0 ? quality_override : flame.quality;
    require(std::isfinite(quality) && quality > 0, "quality must be > 0, not " + message_number(quality));

    FramePlan p;
    p.width = flame.width;
    p.height = field == Field::Both ? flame.height : flame.height / 2;
    p.field = field;
    const int os = p.supersample = flame.supersample;

    // Gutter: room for the spatial filter around the image, or for the widest
    // DE kernel (plus os-1 for the density neighbourhood) if that is wider; in
    // that case the filter starts de_offset cells in (flam3 render_rectangle).
    p.pixel_aspect = pixel_aspect;
    const int filter_width = spatial_filter_width(flame, pixel_aspect);
    p.filter_width = filter_width;
    p.gutter = (filter_width - os) / 2;
    long long de_width = static_cast<long long>(std::ceil(flame.estimator_radius)) * os;
    if (de_width > 0) de_width += os - 1;
    if (de_width > p.gutter) {
        p.de_offset = static_cast<int>(de_width - p.gutter);
        p.gutter = static_cast<int>(de_width);
    }
    // Below 2^23 cells a side, so that the camera's float rows and columns
    // are exact integers apart (iterate/common.h camera_xy); sizes, radii and
    // supersampling within their bounds stay below it.
    const long long side = 2LL * p.gutter + static_cast<long long>(os) * std::max(p.width, p.height);
    require(side < (1 << 23), "histogram side of " + std::to_string(side) + " cells is too large (size " +
                                  std::to_string(p.width) + "x" + std::to_string(p.height) + ", supersample " +
                                  std::to_string(os) + ")");
    p.hist_width = os * p.width + 2 * p.gutter;
    p.hist_height = os * p.height + 2 * p.gutter;
    p.frame_height = p.height;

    // Camera (§3.5): rotate about the centre, then cell = os·(ppu·(p − centre)
    // + size/2) + gutter. +y points down: row 0 holds the smallest y.
    const double zoom_scale = std::pow(2.0, flame.zoom);
    p.ppuy = flame.scale * zoom_scale;
    p.ppux = p.ppuy / pixel_aspect;
    if (field != Field::Both) p.ppuy /= 2;
    const double theta = flame.rotate * M_PI / 180.0;
    const double c = std::cos(theta), s = std::sin(theta);
    const double sx = os * p.ppux, sy = os * p.ppuy;
    double* m = p.world_to_cell;
    m[0] = sx * c;
    m[1] = -sx * s;
    m[3] = sy * s;
    m[4] = sy * c;
    m[2] = -(m[0] * flame.center_x + m[1] * flame.center_y) + 0.5 * os * p.width + p.gutter;
    m[5] = -(m[3] * flame.center_x + m[4] * flame.center_y) + 0.5 * os * p.height + p.gutter;
    if (field != Field::Both) m[5] -= sy * (field == Field::Even ? -0.5 : 0.5) / p.ppux;

    // Samples count output pixels, not cells: supersampling adds none (§3.6).
    p.sample_density = quality * zoom_scale * zoom_scale;
    double samples = p.sample_density * p.width * p.height;
    require(std::isfinite(samples) && samples < 1.8e19,
            "sample count " + message_number(samples) + " is too large");
    p.samples = static_cast<uint64_t>(samples);
    return p;
}

FramePlan band_plan(const FramePlan& frame, int first_row, int rows) {
    if (frame.first_row != 0 || frame.hist_row0 != 0 || frame.height != frame.frame_height)
        throw std::logic_error("band_plan: the plan is a strip already");
    if (first_row < 0 || rows < 1 || first_row + rows > frame.height)
        throw std::logic_error("band_plan: rows outside the image");
    // The filter of image row y reads filter_width cell rows from
    // de_offset + y·os on.
    const int os = frame.supersample;
    const int read_lo = frame.de_offset + first_row * os;
    const int read_hi = frame.de_offset + (first_row + rows - 1) * os + frame.filter_width;
    FramePlan band = frame;
    band.first_row = first_row;
    band.height = rows;
    band.hist_row0 = std::max(0, read_lo - frame.gutter);
    band.hist_height = std::min(frame.hist_height, read_hi + frame.gutter) - band.hist_row0;
    return band;
}

double histogram_cells(const FramePlan& plan) {
    return static_cast<double>(plan.hist_width) * static_cast<double>(plan.hist_height);
}

double point_grid_cells(const Flame& flame, const FramePlan& plan) {
    // A field's rows are half as many at half ppuy: the same reach.
    const double reach = std::hypot(0.5 * plan.width / plan.ppux, 0.5 * plan.height / plan.ppuy);
    const double largest = std::max(std::fabs(flame.center_x), std::fabs(flame.center_y)) + reach;
    int exponent;
    std::frexp(largest, &exponent);
    // Floats in [2^(e-1), 2^e) lie 2^(e-24) apart.
    return std::ldexp(1.0, exponent - 24) * plan.supersample * std::max(plan.ppux, plan.ppuy);
}

}  // namespace fj
