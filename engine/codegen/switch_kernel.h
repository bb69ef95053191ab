// flamejit — the reference the design is measured against: all variations behind a switch.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A renderer that does not generate code per genome compiles one kernel in
// which an xform is data: the xform count, each xform's variation ids,
// weights and parameters are read from the parameter block, and one generic
// xform function loops over the xform's variation slots and switches over
// every variation the registry knows. This file writes that kernel from the
// same snippets, prologue and iteration template as the specialized stitcher
// (stitch_parts.h), so the kernel report (tools/kernel_report.cpp) and
// `bench throughput --kernel switch` compare the two ways of applying an
// xform and nothing else.
//
// Only the key's code switches shape the switch kernel (xaos, final xform
// present, palette mode, shuffle, accumulation, block size, arch); two keys
// that differ only in their xforms give the same source. A key whose form
// is KernelForm::Switch has the renderer build and launch it in place of the
// specialized kernel, for benchmarks on the GPU.
//
// Parameter block (floats), header first so every offset is a value:
//   0   camera        8    as ParamLayout (world → histogram cell)
//   8   xform count   N
//   9   select        offset of the N·R cumulative selection rows
//   10  proposal      offset of the xaos proposal row (0 without xaos)
//   11  accept        offset of the xaos acceptance rows (0 without xaos)
//   12  records       offset of N record offsets, one per xform
//   13  final         offset of the final xform's record (0 when none)
//   14  palette       256·4 RGBA, as ParamLayout
// Record of one xform: the first XformLayout::kVariations floats as in the
// specialized layout (affine, post, colour, colour speed, visibility,
// var_color), then
//   16  1 when the post affine is applied
//   17  1 when the xform passes its transformed point on (XformShape::passes_point)
//   18  slot count of the uses that change the transformed point (flam3's
//       pre_blur, then Fractorium's Pre uses)
//   19  slot count of the Regular uses
//   20  slot count of the Post uses
//   21  slots, in that order: id, weight, 1 when the use zeroes the point
//       or sum it changes first (a replacing Pre or Post use, a Regular use
//       that drops the sum before it; 0: adds to it), then the variation's
//       parameters (as many as its @param annotations)
// Ids and counts are small integers, exact in float.
#pragma once

#include <string>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/snippet_source.h"
#include "codegen/variation_registry.h"
#include "genome/flame.h"

namespace fj {

struct SwitchLayout {
    static constexpr int kCount = ParamLayout::kCameraSize;
    static constexpr int kSelect = kCount + 1;
    static constexpr int kProposal = kCount + 2;
    static constexpr int kAccept = kCount + 3;
    static constexpr int kRecords = kCount + 4;
    static constexpr int kFinal = kCount + 5;
    static constexpr int kPalette = kCount + 6;
    // Inside a record.
    static constexpr int kHasPost = XformLayout::kVariations;
    static constexpr int kPassesPoint = kHasPost + 1;
    static constexpr int kPreSlots = kHasPost + 2;
    static constexpr int kSlots = kHasPost + 3;
    static constexpr int kPostSlots = kHasPost + 4;
    static constexpr int kFirstSlot = kHasPost + 5;
};

// Name of the dispatch function every switch source defines:
//   int fj_apply_variation(int id, const fj::VarIn& in, const float* p, float w,
//                          fj::Rng& rng, float& ox, float& oy, float& c)
// It applies variation `id` as its snippet does and returns the number of
// parameters it read (0 for an id it does not hold, which it leaves alone).
inline constexpr const char* kVariationDispatchName = "fj_apply_variation";

// fj_device.h, iterate/common.h, every variation's snippet and the dispatch
// function: a prefix that any device code (the switch kernel, a test's
// evaluation kernel) can complete.
std::string switch_dispatch_source(const VariationRegistry& registry, const SnippetSource& source);

// The whole switch kernel (entry points fj_seed and fj_iterate, as stitched
// kernels) for the code switches of `key`.
std::string switch_kernel_source(const KernelKey& key, const VariationRegistry& registry,
                                 const SnippetSource& source);

// The switch kernel's parameter block for one flame; `key` must be the
// flame's key (throws std::logic_error otherwise, as pack_params).
std::vector<float> pack_switch_params(const Flame& flame, const KernelKey& key, const VariationRegistry& registry,
                                      const double world_to_cell[6]);

// The programs a key's kernel is compiled from: one for a specialized kernel
// (stitcher.h) or the switch kernel; for a linked one (KernelForm::Linked),
// the program of its entry points first, then one per xform, and the
// register bound of those (stitch_linked_kernel).
struct KernelPrograms {
    std::vector<std::string> sources;
    int part_registers = 0;  // -maxrregcount of sources[1..]
};
KernelPrograms kernel_programs(const KernelKey& key, const ParamLayout& layout, const VariationRegistry& registry,
                               const SnippetSource& source);

// The kernel's source for people to read (--emit-cu): its one program, or a
// linked kernel's programs one after another, each under a banner line (not
// one program: each repeats the helpers).
std::string kernel_source(const KernelKey& key, const ParamLayout& layout, const VariationRegistry& registry,
                          const SnippetSource& source);

// The parameter block of a key's kernel: the specialized layout
// (param_layout.h) for specialized and linked kernels, the switch kernel's
// for a switch key.
std::vector<float> pack_kernel_params(const Flame& flame, const KernelKey& key, const ParamLayout& layout,
                                      const double world_to_cell[6]);

}  // namespace fj
