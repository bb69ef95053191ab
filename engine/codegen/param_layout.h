// flamejit — the parameter block: every value a kernel reads, as floats.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The layout is a function of the KernelKey alone, so the stitcher can bake
// offsets into generated code as constants while the values change per frame
// (or per temporal sample) without a recompile. The CPU backend reads the
// same block through the same layout.
//
// Block layout (floats):
//   camera     8    world → histogram-cell affine, rotation included, as
//                   pack_camera stores it (a b c' d e f' c" f": each shift
//                   split into its fraction and its whole part)
//   select     N·R  cumulative normalised xform weights; R = 1 row, or with xaos
//                   N+1 rows (row 0 = first step, row i+1 = after xform i)
//   proposal   N    (xaos only) cumulative proposal for warp-uniform selection
//   accept     N·(N+1) (xaos only) acceptance probability of xform k per row
//   palette    256·4 RGBA
//
// Xaos under warp-uniform selection: the warp draws xform k from a proposal
// q(k) ∝ m(k) = max over rows of p_row(k), and each lane applies it with
// probability p_row(k) / m(k) for its own row, else stays put for the round.
// A lane then moves with probability 1/M (M = Σ m(k)) whatever its row, and
// when it moves it takes k with probability p_row(k): the chain is flam3's,
// made lazy, so its distribution is unchanged (DESIGN.md, decision 7).
// Rare xforms take the same selection (kSpreadBelow below), their m(k)
// raised.
//   xform i    XformLayout::size floats each, then the final xform
#pragma once

#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/variation_registry.h"
#include "genome/flame.h"

namespace fj {

// Offsets inside one xform's record (relative to XformLayout::base).
struct XformLayout {
    static constexpr int kAffine = 0;      // 6 floats, fj::Affine order
    static constexpr int kPost = 6;        // 6 floats
    static constexpr int kColor = 12;
    static constexpr int kColorSpeed = 13;
    // Standard xforms: visibility = opacity^log2(10) (flam3 adjust_percentage).
    // The final xform: its opacity, the probability of applying it (flam3).
    static constexpr int kVisibility = 14;
    // Fractorium's var_color: how much of a colour index changed by @color
    // uses the xform keeps (1: all of it).
    static constexpr int kDirectColor = 15;
    static constexpr int kVariations = 16; // then per variation: weight, params...
    int base = 0;
    int size = 0;
    std::vector<int> weight_offset;  // per variation of the shape, relative to base
    std::vector<int> param_offset;   // per variation, relative to base
};

struct ParamLayout {
    static constexpr int kCamera = 0;
    static constexpr int kCameraSize = 8;
    int xform_count = 0;
    int select = kCameraSize;
    int select_rows = 1;
    int proposal = -1;  // xaos only
    int accept = -1;    // xaos only
    int palette = 0;
    std::vector<XformLayout> xforms;
    XformLayout final_xform;  // size 0 when there is none
    int total = 0;
};

ParamLayout make_param_layout(const KernelKey& key, const VariationRegistry& registry);

// Selection probabilities of one row as flam3 draws them: its 16384-entry
// table maps entry i to the first xform whose cumulative weight exceeds
// i·Σw/16384, so each probability is a multiple of 1/16384.
std::vector<double> selection_probabilities(const std::vector<double>& weights, int row);

// Rare xforms. Drawn for a whole warp, an xform of small probability p
// moves all 32 lanes at once: its applications come in bursts of 32, so
// their count in an image varies 32 times as much as flam3's independent
// draws make it vary, and what that xform draws (often a whole part of the
// picture) brightens and dims from render to render and flickers in an
// animation (electricsheep.244.80725: the mean level's spread over seeds
// 2.2-2.9 times flam3's). A flame with an xform of probability below
// kSpreadBelow takes the lazy selection above (its kernel key's xaos switch,
// set through a marker row: pipeline/frame_structure.h), with m(k) raised
// to min(kSpreadBelow, 32·m(k)) for each such xform: each lane accepts it on
// its own, so its applications come a few lanes at a time, for at most
// kSpreadBelow more idle rounds per rare xform.
constexpr double kSpreadBelow = 1.0 / 16;
// Whether one of the flame's xforms of weight above 0 is drawn (row 0, as
// flam3's table) with probability below kSpreadBelow.
bool has_rare_xform(const Flame& flame);

// Expected rounds per move of a lane under lazy warp-uniform selection: M
// above (1 for a flame whose every row is alike and no xform is rare). Its
// inverse is the fraction of lanes doing work.
double xaos_proposal_mass(const Flame& flame);

// Rounds a lane takes per step of its chain under `key`'s selection: M
// (xaos_proposal_mass) for lazy warp-uniform selection, else 1. Chains count
// steps (fuse, settling); the backends' plans and stall guards count rounds.
double rounds_per_step(const Flame& flame, const KernelKey& key);

// The camera as the kernels read it (iterate/common.h camera_xy), from the
// frame plan's double affine a b c d e f: a b c' d e f' c" f", where c" is
// the whole part of c (its floor) and c' = c − c" its fraction, both taken
// from the double (the same for f). A shift of 2^23 or more keeps c" = 0.
void pack_camera(const double world_to_cell[6], float camera[ParamLayout::kCameraSize]);

// Fills a block for one flame. `world_to_cell` is the camera from the frame plan.
std::vector<float> pack_params(const Flame& flame, const KernelKey& key,
                               const ParamLayout& layout, const double world_to_cell[6]);

}  // namespace fj
