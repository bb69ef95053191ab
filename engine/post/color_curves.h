// flamejit — Fractorium's colour curves as the post-pass applies them.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Fractorium evaluates each curve (overall, red, green, blue) with its own
// cubic spline at kCurveEntries evenly spaced inputs in [0, 1], and maps a
// colour channel v (1 = white) through two lookups: v·(kCurveEntries − 1)
// truncated picks an entry of the overall curve, that entry's value scaled
// the same way picks an entry of the channel's own curve, whose value is the
// result (post/tone.h, curve_channel). The spline, in float as Fractorium
// computes it, through points (x_i, y_i), i = 0..n, with widths
// w_i = x_{i+1} − x_i and slopes s_i = (y_{i+1} − y_i)/w_i: second-derivative
// estimates m_0 = m_n = 0, m_{i+1} = 3(s_{i+1} − s_i)/(w_{i+1} + w_i); on
// [x_i, x_{i+1}] with t = x − x_i,
//   y = (m_{i+1} − m_i)/(6 w_i)·t³ + m_i/2·t² + (s_i − w_i(m_{i+1} + 2 m_i)/6)·t + y_i,
// and inputs outside [x_0, x_n] clamped to it.
#pragma once

#include <vector>

#include "genome/flame.h"
#include "post/tone.h"

namespace fj {

inline constexpr int kCurveEntries = FJ_CURVE_ENTRIES;

// Curve `c`'s entry j at [4·j + c] (c: 0 overall, 1 red, 2 green, 3 blue); an
// empty curve maps every entry to its own input. Empty when the curves change
// no colour (none given, or every point on the diagonal).
std::vector<float> color_curve_table(const ColorCurves& curves);

// One curve's spline at x, as the table holds it (for tests).
float color_curve_value(const std::vector<ColorCurves::Point>& points, float x);

}  // namespace fj
