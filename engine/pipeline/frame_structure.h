// flamejit — one kernel structure for all time samples of a frame.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The time samples of a motion-blurred frame may straddle a keyframe, where
// the interpolated structure changes (another segment pads differently, a
// post affine or xaos appears, a variation's weight reaches exactly 0). One
// frame uses one kernel, so the samples are brought to the union of their
// structures with changes that do not alter what is drawn:
//   - missing variations get weight 0 (listed, never contributing);
//   - missing standard xforms get weight 0 (never selected);
//   - a missing final xform becomes one with opacity 0 (never applied);
//   - a post affine or chaos row that the union needs but a sample has as
//     exactly the identity / all ones gets a 1 + 2⁻⁵² entry, which packs to
//     the same floats (1.0f);
//   - a rare xform (codegen/param_layout.h) in a keyframe of a segment that
//     a sample falls in gives the whole frame the lazy selection (xaos's,
//     through that chaos marker), so that the frames of a segment
//     share their key whatever the weights in between;
//   - the palette lookup mode is the frame centre's for all samples;
//   - Fractorium's Pre and Post uses apply in one order for all samples, the
//     order of the first sample that has them.
// Only the last two are approximations, and only for frames that straddle
// two keyframes with different palette modes or that order the same Pre (or
// Post) uses differently.
#pragma once

#include <vector>

#include "codegen/kernel_key.h"
#include "genome/flame.h"

namespace fj {

struct SlotShape {
    std::vector<VariationSlot> variations;  // in xform order (Xform::variations)
    bool post = false;
};

struct FrameStructure {
    std::vector<SlotShape> xforms;
    bool has_final = false;
    SlotShape final_xform;
    bool xaos = false;
    PaletteMode palette_mode = PaletteMode::Step;
};

// The union of the flames' structures; `palette_mode` is the frame's.
FrameStructure union_structure(const std::vector<const Flame*>& flames, PaletteMode palette_mode);

// `flame` with the lazy selection where it has a rare xform and no xaos
// (the chaos marker above): a still's flame as its kernel draws from it.
Flame spread_rare_xforms(const Flame& flame);

// Whether keyframe `segment` or the one after it has a rare xform.
bool segment_has_rare_xform(const std::vector<Flame>& keyframes, int segment);

// The sorted exchange in place of the ring (KernelOptions::sort_idle_frames)
// from this share of idle lane-rounds up (1 - 1/M, param_layout.h). On the
// CPU backend the sort ran 1.2-2.4 times as fast as the ring on every lazy
// corpus flame that idles 38 % or more and on xaos.flam3 (47.5 %), 0.8-1.2
// times on those idling 26-29 %, and mostly slower below 16 %
// (benchmarks/README.md, "The sorted exchange"): the line lies between.
constexpr double kSortFromIdle = 1.0 / 3;

// The share of lane-rounds the ring's lazy selection leaves idle for `flame`
// (1 - 1/M, its rare xforms' proposals raised; param_layout.h): 0 where every
// lane moves each round, and where its rows cannot be drawn (the flame is
// refused when it is packed).
double ring_idle_share(const Flame& flame);

// `options` for the frame drawn from `flames` (a still's flame, or the
// keyframes of the segments an animation frame's time steps fall in, so
// that the frames of a segment share their key): its ring made sorted where
// options.sort_idle_frames asks and one of `flames` would idle that share
// under the ring's lazy selection, and the sort's tables fit (shared
// memory); else as given.
KernelOptions frame_kernel_options(const std::vector<const Flame*>& flames, const KernelOptions& options);

// `flame` changed as above so that its kernel key is the structure's.
// Throws std::logic_error when the flame has more xforms than the structure.
Flame conform(const Flame& flame, const FrameStructure& structure);

}  // namespace fj
