// flamejit — the variation snippets compiled into the host binary.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// One entry per file in snippets/variations/ (the build generates the list),
// each with the plain function and a 32-lane batch form in which the snippet is
// inlined into the loop, so the CPU backend pays one indirect call per warp,
// not per point.
#pragma once

#include <string_view>

#include "fj_device.h"

namespace fj::cpu {

inline constexpr int kLanes = 32;

// Structure-of-arrays view of one warp's points for a batch call. What the
// batch writes (ox, oy, c, rng) overlaps nothing else it reads: the batch
// takes them as restrict.
struct LaneBatch {
    const float* x;            // the points it evaluates at, kLanes each
    const float* y;
    float* ox;                 // what it adds its values to (FJ_VARIATION), kLanes each
    float* oy;
    float* c;                  // colour indices (FJ_VARIATION's color), kLanes
    fj::Rng* rng;              // per-lane streams
    const fj::Affine* aff;     // the xform's pre-affine
    const float* params;       // the variation's parameters
    float weight;
    int count;                 // lanes in use (≤ kLanes)
};

using VariationFn = void (*)(const fj::VarIn&, const float*, float, fj::Rng&, float&, float&, float&);
using BatchFn = void (*)(const LaneBatch&);

struct VariationEntry {
    const char* name;
    VariationFn fn;
    BatchFn batch;
};

// Null when no snippet of that name was compiled in.
const VariationEntry* find_variation(std::string_view name);
int variation_count();
const VariationEntry& variation_at(int index);

}  // namespace fj::cpu
