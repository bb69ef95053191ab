// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/kernel_key.h"

#include <algorithm>
#include <sstream>

#include "errors.h"

namespace fj {
namespace {

XformShape shape_of(const Xform& xf) {
    XformShape shape;
    for (const auto& v : xf.variations) shape.variations.push_back(v.slot());
    shape.has_post = !xf.post.is_identity();
    return shape;
}

void write_shape(std::ostringstream& out, const XformShape& shape) {
    out << '[';
    // Regular slots as bare ids, so flam3 genomes' keys keep their text.
    for (size_t i = 0; i < shape.variations.size(); ++i)
        out << (i ? "," : "") << mode_prefix(shape.variations[i].mode) << shape.variations[i].id;
    out << ']' << (shape.has_post ? "+post" : "");
}

}  // namespace

std::set<int> XformShape::variation_ids() const {
    std::set<int> ids;
    for (const VariationSlot& slot : variations) ids.insert(slot.id);
    return ids;
}

bool XformShape::passes_point() const {
    bool pre = false;
    for (const VariationSlot& s : variations) {
        if (s.mode == VariationMode::Regular) return false;
        pre = pre || s.mode == VariationMode::Pre;
    }
    return pre;
}

UseEffect use_effect(const VariationSlot& slot, const VariationInfo& info) {
    switch (slot.mode) {
        case VariationMode::Regular:
            return info.pre ? UseEffect::AddPoint : info.discards_sum ? UseEffect::ResetSum : UseEffect::Sum;
        case VariationMode::Pre: return info.pre_post_sum ? UseEffect::AddPoint : UseEffect::SetPoint;
        case VariationMode::Post: return info.pre_post_sum ? UseEffect::AddSum : UseEffect::SetSum;
    }
    return UseEffect::Sum;
}

std::vector<size_t> application_order(const XformShape& shape, const VariationRegistry& registry) {
    std::vector<size_t> order(shape.variations.size());
    for (size_t v = 0; v < order.size(); ++v) order[v] = v;
    std::stable_partition(order.begin(), order.end(), [&](size_t v) {
        const VariationInfo* info = registry.by_id(shape.variations[v].id);
        return shape.variations[v].mode == VariationMode::Regular && info && info->pre;
    });
    return order;
}

bool writes_color(const XformShape& shape, const VariationRegistry& registry) {
    return std::any_of(shape.variations.begin(), shape.variations.end(), [&](const VariationSlot& slot) {
        const VariationInfo* info = registry.by_id(slot.id);
        return info && info->writes_color;
    });
}

const char* to_string(Shuffle s) {
    switch (s) {
        case Shuffle::None: return "none";
        case Shuffle::Ring: return "ring";
        case Shuffle::Full: return "full";
        case Shuffle::Divergent: return "divergent";
        case Shuffle::Sorted: return "sorted";
    }
    return "?";
}

bool parse_shuffle(const std::string& text, Shuffle* out) {
    for (Shuffle s : {Shuffle::None, Shuffle::Ring, Shuffle::Full, Shuffle::Divergent, Shuffle::Sorted})
        if (text == to_string(s)) {
            *out = s;
            return true;
        }
    return false;
}

const char* to_string(Accumulation a) {
    switch (a) {
        case Accumulation::Atomic: return "atomic";
        case Accumulation::Scalar: return "scalar";
        case Accumulation::Warp: return "warp";
        case Accumulation::Shared: return "shared";
        case Accumulation::Packed: return "packed";
        case Accumulation::None: return "none";
    }
    return "?";
}

bool parse_accumulation(const std::string& text, Accumulation* out) {
    for (Accumulation a : {Accumulation::Atomic, Accumulation::Scalar, Accumulation::Warp, Accumulation::Shared,
                           Accumulation::Packed, Accumulation::None})
        if (text == to_string(a)) {
            *out = a;
            return true;
        }
    return false;
}

const char* to_string(KernelForm f) {
    switch (f) {
        case KernelForm::Specialized: return "specialized";
        case KernelForm::Linked: return "linked";
        case KernelForm::Switch: return "switch";
    }
    return "?";
}

bool parse_kernel_form(const std::string& text, KernelForm* out) {
    for (KernelForm f : {KernelForm::Specialized, KernelForm::Linked, KernelForm::Switch})
        if (text == to_string(f)) {
            *out = f;
            return true;
        }
    return false;
}

bool valid_linked_registers(int registers, int block_size) {
    return registers >= 32 && registers <= 128 && registers % 8 == 0 && registers * block_size <= 65536;
}

std::string KernelKey::canonical() const {
    std::ostringstream out;
    out << "xforms=" << xforms.size() << ':';
    for (const auto& s : xforms) write_shape(out, s);
    if (has_final) {
        out << " final=";
        write_shape(out, final_xform);
    }
    out << " xaos=" << xaos << " palette=" << (palette_mode == PaletteMode::Linear ? "linear" : "step")
        << " shuffle=" << to_string(shuffle) << " block=" << block_size << " arch=" << arch;
    // Written only when not the default, so existing keys keep their text.
    if (accumulation != Accumulation::Atomic) out << " accumulate=" << to_string(accumulation);
    if (density_count) out << " count=1";
    if (time_steps) out << " steps=1";
    if (atomic_ceiling) out << " ceiling=1";
    if (form != KernelForm::Specialized) out << " kernel=" << to_string(form);
    if (form == KernelForm::Linked && linked_registers != kLinkedRegisters) out << " registers=" << linked_registers;
    return out.str();
}

std::set<int> KernelKey::variation_ids() const {
    std::set<int> ids;
    for (const auto& s : xforms) ids.merge(s.variation_ids());
    if (has_final) ids.merge(final_xform.variation_ids());
    return ids;
}

KernelKey make_kernel_key(const Flame& flame, const KernelOptions& options) {
    if (flame.xforms.size() > static_cast<size_t>(kMaxXforms))
        throw InputError("the flame has " + std::to_string(flame.xforms.size()) + " xforms; at most " +
                         std::to_string(kMaxXforms) + " can be rendered");
    const int n = static_cast<int>(flame.xforms.size());
    // The switch kernel reads its xform count from the parameter block; the
    // sort's tables are sized by it at compile time.
    if (options.shuffle == Shuffle::Sorted && options.form == KernelForm::Switch)
        throw InputError("--shuffle sorted needs the xform count in the kernel: not with --kernel switch");
    if (options.shuffle == Shuffle::Sorted && sorted_shared_bytes(n, options.block_size) > kMaxStaticShared)
        throw InputError("--shuffle sorted: " + std::to_string(n) + " xforms in blocks of " +
                         std::to_string(options.block_size) + " threads need " +
                         std::to_string(sorted_shared_bytes(n, options.block_size)) +
                         " bytes of shared memory, above " + std::to_string(kMaxStaticShared) +
                         "; use a smaller --block or another --shuffle");
    KernelKey key;
    for (const auto& xf : flame.xforms) key.xforms.push_back(shape_of(xf));
    key.has_final = flame.has_final;
    if (flame.has_final) key.final_xform = shape_of(flame.final_xform);
    key.xaos = flame.has_xaos();
    key.palette_mode = flame.palette_mode;
    key.shuffle = options.shuffle;
    key.block_size = options.block_size;
    key.arch = options.arch;
    key.accumulation = options.accumulation;
    key.form = options.form;
    key.linked_registers = options.linked_registers;
    return key;
}

KernelOptions kernel_options_of(const KernelKey& key) {
    KernelOptions options;
    options.shuffle = key.shuffle;
    options.block_size = key.block_size;
    options.arch = key.arch;
    options.accumulation = key.accumulation;
    options.form = key.form;
    options.linked_registers = key.linked_registers;
    return options;
}

}  // namespace fj
