// flamejit — flam3's alignment of control points before interpolation (xform padding).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Contract: align_control_points(first, n) returns copies of the n flames
// starting at `first` that all have the same number of standard xforms and
// either all or none a final xform, as flam3 3.1.1's flam3_align makes them:
//   - missing standard xforms are padding xforms of weight 0 (they fade in),
//     colour index & 1, colour speed 0.5, linear 1, identity affines; a missing
//     final xform is the same with colour speed 0 and animate 0;
//   - unless the sequence is in a compatibility mode (interpolation_type old or
//     older), a padding xform gets an "identity" that suits its non-padding
//     neighbours (the flames before and after it in the list): linear −1 with
//     a half-turn affine against spherical-like variations (log mode only),
//     identity-parameter copies of rectangles/rings2/fan2/blob/perspective/
//     curl/super_shape, or fan/rings with a swapped-axes affine; weights
//     normalised to sum 1;
//   - a parametric variation (flam3 id ≥ 23) unused in one flame takes its
//     parameters from the neighbouring flame that uses it (the previous one,
//     or for the first flame the next), so only its weight changes.
// Chaos rows are extended to the common xform count with 1.
//
// Variations can now be present with weight 0 (kept so parameters travel);
// the lists stay in xform order (Xform::variations). Fractorium's Pre and
// Post uses take part in the parameter copies as Regular ones do; flam3's
// identity rules only ever add Regular ones.
#pragma once

#include <vector>

#include "genome/flame.h"

namespace fj {

std::vector<Flame> align_control_points(const Flame* first, int count);

// The use of variation `id` in `mode` in an xform, or nullptr.
const VariationUse* find_variation(const Xform& xf, int id, VariationMode mode = VariationMode::Regular);
// That use, inserted where it belongs (slot_position) with weight 0 and the
// registry's default parameters when absent. Throws std::logic_error for an
// id the registry does not know.
VariationUse& ensure_variation(Xform& xf, int id, VariationMode mode = VariationMode::Regular);

}  // namespace fj
