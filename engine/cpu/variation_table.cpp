// SPDX-License-Identifier: GPL-3.0-or-later
#include "cpu/variation_table.h"

// Every variation snippet, included once into this translation unit.
#include "cpu_variation_includes.inc"

namespace fj::cpu {
namespace {

template <VariationFn F>
void run_batch(const LaneBatch& b) {
    for (int i = 0; i < b.count; ++i) {
        const fj::VarIn in = fj::make_var_in(b.x[i], b.y[i], b.aff);
        F(in, b.params, b.weight, b.rng[i], b.ox[i], b.oy[i], b.c[i]);
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
