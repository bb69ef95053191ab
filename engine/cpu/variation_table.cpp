// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpu/variation_table.h"

// Every variation snippet, included once into this translation unit.
#include "cpu_variation_includes.inc"

namespace fj::cpu {
namespace {

// What the batch writes is written through nothing else it reads (the
// worker's arrays are apart, the parameters read-only): said with restrict,
// so that the parameters and the affine are loaded once, not after every
// store, and the loop can vectorize.
template <VariationFn F>
void run_batch(const LaneBatch& b) {
    float* __restrict__ ox = b.ox;
    float* __restrict__ oy = b.oy;
    float* __restrict__ c = b.c;
    fj::Rng* __restrict__ rng = b.rng;
    const int n = b.count;
    for (int i = 0; i < n; ++i) {
        const fj::VarIn in = fj::make_var_in(b.x[i], b.y[i], b.aff);
        F(in, b.params, b.weight, rng[i], ox[i], oy[i], c[i]);
    }
}

#define FJ_CPU_VARIATION(name) {#name, &fj_var_##name, &run_batch<&fj_var_##name>},
const VariationEntry kTable[] = {
#include "cpu_variations.inc"
};
#undef FJ_CPU_VARIATION

}  // namespace

const VariationEntry* find_variation(std::string_view name) {
    for (const auto& e : kTable)
        if (name == e.name) return &e;
    return nullptr;
}

int variation_count() { return static_cast<int>(sizeof kTable / sizeof kTable[0]); }
const VariationEntry& variation_at(int index) { return kTable[index]; }

}  // namespace fj::cpu
