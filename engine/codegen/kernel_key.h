// flamejit — what a generated kernel depends on: a genome's structure only.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Two flames with equal keys share one compiled kernel. The key holds the
// xform count, each xform's ordered variation slots (id and pre/post mode)
// and whether it has a post affine, the final xform's, and the switches that
// change code. Weights, affines, colours and parameters are values: they
// travel in the parameter block (codegen/param_layout.h), so an animation
// compiles once.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "codegen/variation_registry.h"
#include "genome/flame.h"

namespace fj {

// How points move between the warps of a block after each round.
//   none       warp-uniform selection, no exchange
//   ring       warp-uniform selection, lanes rotate between warps by offsets
//              that change every round (bank-conflict-free)
//   full       warp-uniform selection, a fresh pseudo-random permutation of
//              the whole block every round
//   divergent  every thread selects its own xform, no exchange
//   sorted     every thread selects its own xform, then the block's points
//              are sorted by it, so that warps apply one xform each but at
//              the sort's bucket edges (no lazy rounds under xaos)
enum class Shuffle { None, Ring, Full, Divergent, Sorted };

const char* to_string(Shuffle s);
bool parse_shuffle(const std::string& text, Shuffle* out);
// Whether every thread draws its own xform from its point's row (divergent,
// sorted): flam3's chain as it is, without lazy rounds.
inline bool selects_per_thread(Shuffle s) { return s == Shuffle::Divergent || s == Shuffle::Sorted; }
// Static shared memory of the sorted exchange (iterate_kernel.cuh's
// FjSortShared): five words a thread and two tables of a word per xform and
// warp. A kernel's static shared memory must stay within 48 KiB.
inline int sorted_shared_bytes(int xforms, int block_size) {
    return 4 * (5 * block_size + 2 * xforms * (block_size / 32));
}
inline constexpr int kMaxStaticShared = 48 * 1024;

// How a hit reaches the accumulator. All but `packed` and `none` are exact:
// hits are integers (flam3's truncation), so float sums are exact below 2^24
// per channel and the order of additions does not matter.
//   atomic  float4 vector atomics where the arch has them (sm_90), else four scalar ones
//   scalar  four scalar float atomics on every arch
//   warp    lanes of a warp that hit the same cell add their hits first
//           (__match_any_sync), one lane adds the sum
//   shared  a per-block hashed cache of cells in shared memory; a hit whose
//           cell has (or claims) a slot adds there, others go to the grid;
//           each block adds its slots to the grid once, at the end of a launch
//   packed  one 64-bit atomic per hit into a grid of packed integer words,
//           flushed to the float grid near overflow and after the launches;
//           loses counts only when a cell takes 128 or more hits within the
//           round trip of one flush (iterate/common.h), and counts each loss
//   none    no adds (every hit's cell and amounts still computed): the compute
//           ceiling of a genome, for benchmarks
enum class Accumulation { Atomic, Scalar, Warp, Shared, Packed, None };

const char* to_string(Accumulation a);
bool parse_accumulation(const std::string& text, Accumulation* out);

// What code a key's kernel is made of.
//   specialized  one program: an inlined function per xform holding only its
//                variations (stitcher.h)
//   linked       the same functions, each xform compiled as an NVRTC program
//                of its own, in parallel with the one holding the entry
//                points, and linked (nvJitLink): a cold compile takes about
//                as long as its slowest program, and the kernel calls each
//                xform's function instead of inlining it
//   switch       every variation behind a switch, xforms read from the
//                parameter block (codegen/switch_kernel.h), same hits: the
//                reference the design is measured against, for benchmarks
//                on the GPU; the CPU backend runs specialized code only
enum class KernelForm { Specialized, Linked, Switch };

const char* to_string(KernelForm f);
bool parse_kernel_form(const std::string& text, KernelForm* out);

// A linked kernel's register bound per thread, by default: full occupancy's
// (an SM's 65536 registers over the 2048 threads it holds). Each call to an
// xform function then saves and restores 13-17 registers; under 64 (half the
// threads) almost none (benchmarks/README.md, "The linked kernel").
inline constexpr int kLinkedRegisters = 32;
// Whether `registers` can bound a linked kernel of `block_size` threads a
// block: a multiple of 8 (ptxas allocates by eights) from 32 to 128 that
// leaves room for at least one block on an SM.
bool valid_linked_registers(int registers, int block_size);

struct XformShape {
    std::vector<VariationSlot> variations;  // in xform order (Xform::variations)
    bool has_post = false;
    bool operator==(const XformShape&) const = default;
    // The ids of the variations it uses, in any mode.
    std::set<int> variation_ids() const;
    // Fractorium's rule for an xform with Pre uses and no Regular ones: its
    // transformed point is the sum (flam3, lacking Pre uses, would give 0).
    bool passes_point() const;
};

// What one use does with its variation's value. The stitcher, the CPU worker
// and the switch kernel all apply uses by use_effect and the tests below it.
enum class UseEffect {
    Sum,       // a Regular use: added to the xform's sum
    ResetSum,  // a Regular use that drops the sum before it (@discards sum), then adds
    AddPoint,  // flam3's pre_blur, or a Pre use that sums (@assign sum): added to the transformed point
    SetPoint,  // a Pre use: replaces the transformed point
    AddSum,    // a Post use that sums: added to the sum
    SetSum,    // a Post use: replaces the sum
};
UseEffect use_effect(const VariationSlot& slot, const VariationInfo& info);
inline bool changes_point(UseEffect e) { return e == UseEffect::AddPoint || e == UseEffect::SetPoint; }
inline bool replaces(UseEffect e) { return e == UseEffect::SetPoint || e == UseEffect::SetSum; }
// Evaluated at the transformed point and added to the sum (a Regular use).
inline bool adds_at_point(UseEffect e) { return e == UseEffect::Sum || e == UseEffect::ResetSum; }

// The indices of `shape.variations` in the order they apply: flam3's
// pre_blur, then the rest in xform order (Pre, Regular, Post).
std::vector<size_t> application_order(const XformShape& shape, const VariationRegistry& registry);

// Whether any use of the xform may change the colour index (@color). Only such
// xforms mix the changed index with the blended one by their var_color
// weight, as Fractorium does; the others leave the blended index alone.
bool writes_color(const XformShape& shape, const VariationRegistry& registry);

struct KernelOptions {
    Shuffle shuffle = Shuffle::Ring;
    int block_size = 256;       // threads per block, a multiple of 32
    std::string arch = "sm_90"; // NVRTC target
    Accumulation accumulation = Accumulation::Atomic;
    KernelForm form = KernelForm::Specialized;
    // A linked kernel's register bound per thread (linked and auto's stand-in).
    int linked_registers = kLinkedRegisters;
    // Not part of the key: how the CUDA backend gets a specialized kernel
    // that is not cached yet (--kernel auto, CudaBackendOptions).
    bool start_linked = false;
    // Not part of the key: under `shuffle` ring, a frame whose lazy selection
    // would leave many of its lanes idle takes the sorted exchange
    // instead (pipeline/frame_structure.h, frame_kernel_options). --shuffle
    // auto sets it where the exchange was measured to pay: the CPU backend's
    // (Renderer::frame_options).
    bool sort_idle_frames = false;
};

struct KernelKey {
    std::vector<XformShape> xforms;
    bool has_final = false;
    XformShape final_xform;
    bool xaos = false;
    PaletteMode palette_mode = PaletteMode::Step;
    Shuffle shuffle = Shuffle::Ring;
    int block_size = 256;
    std::string arch = "sm_90";
    Accumulation accumulation = Accumulation::Atomic;
    // Hits also add to a separate count buffer, flam3's count channel, which
    // chooses density-estimation kernels. Only set for frames where it can
    // differ from alpha/255 (a palette alpha or temporal weight other than 1,
    // with density estimation on), so other frames pay nothing for it.
    bool density_count = false;
    // An iterate call holds several time steps (a motion-blurred frame,
    // backend.h's IterationRequest::steps): blocks count their samples and
    // move between steps (iterate_kernel.cuh), which costs registers that
    // other frames do not pay.
    bool time_steps = false;
    // The module also holds fj_atomic_ceiling, the accumulator's update-rate
    // kernel that `bench throughput` times; renders leave it out (it costs
    // about 8 % of a cold compile, benchmarks/README.md "Compile path").
    bool atomic_ceiling = false;
    KernelForm form = KernelForm::Specialized;
    // The bound of a linked kernel's xform functions and so of its entry
    // (stitcher.h, linked_xform_registers); written in the text only for
    // linked keys and when not the default.
    int linked_registers = kLinkedRegisters;

    // A stable one-line text form; equal keys give equal text.
    std::string canonical() const;
    // The ids of the variations its xforms (and final xform) use, in any mode.
    std::set<int> variation_ids() const;
    bool operator==(const KernelKey&) const = default;
};

KernelKey make_kernel_key(const Flame& flame, const KernelOptions& options);
// The options make_kernel_key copies into `key`, so that another flame's key
// can be made with the same switches.
KernelOptions kernel_options_of(const KernelKey& key);

}  // namespace fj
