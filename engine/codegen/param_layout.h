// flamejit — the parameter block: every value a kernel reads, as floats.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The layout is a function of the KernelKey alone, so the stitcher can bake
// offsets into generated code as constants while the values change per frame
// (or per temporal sample) without a recompile. The CPU backend reads the
// same block through the same layout.
//
// Block layout (floats):
//   camera     6    world → histogram-cell affine (a b c d e f), rotation included
//   select     N·R  cumulative normalised xform weights; R = 1 row, or with xaos
//                   N+1 rows (row 0 = first step, row i+1 = after xform i)
//   palette    256·4 RGBA
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
    static constexpr int kVariations = 15; // then per variation: weight, params...
    int base = 0;
    int size = 0;
    std::vector<int> weight_offset;  // per variation of the shape, relative to base
    std::vector<int> param_offset;   // per variation, relative to base
};

struct ParamLayout {
    static constexpr int kCamera = 0;
    int xform_count = 0;
    int select = 6;
    int select_rows = 1;
    int palette = 0;
    std::vector<XformLayout> xforms;
    XformLayout final_xform;  // size 0 when there is none
    int total = 0;
};

ParamLayout make_param_layout(const KernelKey& key, const VariationRegistry& registry);

// Fills a block for one flame. `world_to_cell` is the camera from the frame plan.
std::vector<float> pack_params(const Flame& flame, const KernelKey& key,
                               const ParamLayout& layout, const double world_to_cell[6]);

}  // namespace fj
