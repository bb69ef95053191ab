// SPDX-License-Identifier: GPL-3.0-or-later
#include "post/color_curves.h"

namespace fj {
namespace {

// The spline's cubic on each interval, in float (color_curves.h).
struct CurveSpline {
    std::vector<float> x, y, a, b, c;

    explicit CurveSpline(const std::vector<ColorCurves::Point>& points) {
        for (const ColorCurves::Point& p : points) {
            x.push_back(static_cast<float>(p[0]));
            y.push_back(static_cast<float>(p[1]));
        }
        const size_t n = x.size() - 1;
        std::vector<float> w(n), s(n), m(n + 1, 0.0f);
        for (size_t i = 0; i < n; ++i) {
            w[i] = x[i + 1] - x[i];
            s[i] = (y[i + 1] - y[i]) / w[i];
        }
        for (size_t i = 0; i + 1 < n; ++i) m[i + 1] = 3.0f * (s[i + 1] - s[i]) / (w[i + 1] + w[i]);
        a.resize(n);
        b.resize(n);
        c.resize(n);
        for (size_t i = 0; i < n; ++i) {
            a[i] = (m[i + 1] - m[i]) / (6.0f * w[i]);
            b[i] = m[i] / 2.0f;
            c[i] = s[i] - w[i] * (m[i + 1] + 2.0f * m[i]) / 6.0f;
        }
    }

    float operator()(float at) const {
        const size_t n = x.size() - 1;
        at = at < x[0] ? x[0] : (at > x[n] ? x[n] : at);
        size_t j = 0;
        while (j < n - 1 && at > x[j + 1]) ++j;
        const float t = at - x[j];
        return a[j] * (t * t * t) + b[j] * (t * t) + c[j] * t + y[j];
    }
};

}  // namespace

float color_curve_value(const std::vector<ColorCurves::Point>& points, float x) { return CurveSpline(points)(x); }

std::vector<float> color_curve_table(const ColorCurves& curves) {
    if (curves.identity()) return {};
    std::vector<float> table(4 * static_cast<size_t>(kCurveEntries));
    const float step = 1.0f / static_cast<float>(kCurveEntries - 1);
    for (int k = 0; k < 4; ++k) {
        const auto& points = curves.points[k];
        if (points.size() < 2) {
            for (int j = 0; j < kCurveEntries; ++j) table[4 * static_cast<size_t>(j) + k] = static_cast<float>(j) * step;
            continue;
        }
        const CurveSpline spline(points);
        for (int j = 0; j < kCurveEntries; ++j) table[4 * static_cast<size_t>(j) + k] = spline(static_cast<float>(j) * step);
    }
    return table;
}

}  // namespace fj
