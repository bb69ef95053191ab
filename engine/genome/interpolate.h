// flamejit — a sequence of control points evaluated at any time, as flam3 does.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Contract: interpolate(keyframes, t) equals flam3 3.1.1's
// flam3_interpolate(keyframes, n, t, stagger 0) field by field:
//   - segment: the first keyframe pair whose right time is ≥ t (so a time on
//     an interior keyframe belongs to the segment that ends there); times
//     before the first or after the last keyframe extrapolate the first or
//     last segment linearly; one keyframe is returned as it is;
//   - the segment's flames are aligned (genome/xform_align.h), two of them,
//     or four with Catmull-Rom weights when the left keyframe says
//     interpolation="smooth" (on the first and last segment flam3 reads past
//     its array; here they fall back to linear, which its parser arranges
//     anyway);
//   - scalars blend linearly with the weights (sizes, supersample, passes and
//     temporal samples rounded), enums come from the first aligned flame,
//     affines per interpolation_type (log: per column, angle linear after
//     unwrapping, magnitude geometric unless tiny, translation linear; the
//     other three element-wise), palettes per palette_interpolation (hsv,
//     hsv_circular with its short-way hue and hsv_rgb_palette_blend, rgb,
//     sweep), chaos clamped ≥ 0, weights ≥ 0, colours in [0,1].
// The result has interpolation linear, palette_index −1, symmetry 0 and no
// edit: a blend of keyframes is a genome of its own whose genealogy no
// keyframe's <edit> describes (flam3-animate embeds none either, even at a
// keyframe's time). One keyframe alone is returned whole, edit included.
//
// Structure: every xform of the result lists each variation that has a
// non-zero weight in any aligned flame of the segment, even where its
// interpolated weight is 0, so all times of one segment share one kernel key.
// Fractorium's Pre and Post uses apply in the order of the segment's first
// flame that has them (where two keyframes order the same uses differently,
// the right one's order holds only from the next segment on).
#pragma once

#include <vector>

#include "genome/flame.h"

namespace fj {

// `keyframes` sorted by strictly increasing time (genome/sequence.h checks).
Flame interpolate(const std::vector<Flame>& keyframes, double time);

// Catmull-Rom weights of the four control points around a segment at
// fraction t of it (flam3's smooth interpolation).
void catmull_rom_weights(double t, double out[4]);

}  // namespace fj
