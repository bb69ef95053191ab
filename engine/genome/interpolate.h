// flamejit — a sequence of control points evaluated at any time, as flam3 does.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Contract: interpolate(keyframes, t, stagger) equals flam3 3.1.1's
// flam3_interpolate(keyframes, n, t, stagger) field by field:
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
//     sweep), chaos clamped ≥ 0, weights ≥ 0, colours in [0,1];
//   - with stagger > 0 on a linear segment, standard xform i of n blends
//     with its own first-flame share: its change starts
//     stagger·(n−1)/n·(n−1−i)/(n−1) of the way through the segment (the
//     last xform first) and takes the rest of a window 1 − stagger·(n−1)/n
//     long, eased by smoothstep; stagger 0 changes all together, stagger 1
//     one after another. flam3-animate always interpolates with 0;
//     flam3-genome's transitions take it from its `stagger` setting.
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

#include <array>
#include <vector>

#include "genome/flame.h"

namespace fj {

// flam3's reference angles (its xforms' `wind`) for a transition between two
// flames (genome/sheep.h): per standard xform of the aligned flames, per
// column of its affine, an angle w of the second flame. Where w > 0, both
// flames' angles of that column are put within [w − 2π, w] before they
// blend in log mode, instead of the second within half a turn of the first:
// an xform that turns in one flame and not in the other then winds the way
// the turning one goes. 0: no reference.
using ReferenceAngles = std::vector<std::array<double, 2>>;

// `keyframes` sorted by strictly increasing time (genome/sequence.h checks).
// `reference`, when given, needs two keyframes and an entry per standard
// xform once they are aligned. Throws InputError, naming the time and the
// value, where the blend overflows (far outside the keyframes' times, say).
Flame interpolate(const std::vector<Flame>& keyframes, double time, double stagger = 0,
                  const ReferenceAngles* reference = nullptr);

// The segment interpolate() blends for `time` (its left keyframe's index,
// 0 to n − 2, as the contract above picks it; 0 for one keyframe).
int keyframe_segment(const std::vector<Flame>& keyframes, double time);

// 3t² − 2t³: flam3's smoother, which eases a transition in and out.
double smoothstep(double t);

// Catmull-Rom weights of the four control points around a segment at
// fraction t of it (flam3's smooth interpolation).
void catmull_rom_weights(double t, double out[4]);

}  // namespace fj
