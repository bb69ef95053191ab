// flamejit — flam3's alignment of control points before interpolation (xform padding).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/xform_align.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "codegen/variation_registry.h"

namespace fj {
namespace {

// flam3 only looks for parameters to copy from this id on: below it no
// variation has parameters.
constexpr int kFirstParametricId = 23;

int id_of(const char* name) {
    const VariationInfo* v = VariationRegistry::standard().by_name(name);
    return v ? v->id : -1;
}

// The variations flam3_align's identity rules name, by registry id (-1 when
// the registry lacks one, which then never matches).
struct IdentityIds {
    int linear = id_of("linear");
    int holes[7] = {id_of("spherical"), id_of("ngon"), id_of("julian"), id_of("juliascope"),
                    id_of("polar"), id_of("wedge_sph"), id_of("wedge_julia")};
    int rectangles = id_of("rectangles"), rings2 = id_of("rings2"), fan2 = id_of("fan2"), blob = id_of("blob"),
        perspective = id_of("perspective"), curl = id_of("curl"), super_shape = id_of("super_shape");
    int fan = id_of("fan"), rings = id_of("rings");
    int amw = id_of("amw"), flower = id_of("flower");
};

const IdentityIds& ids() {
    static const IdentityIds value;
    return value;
}

double weight_of(const Xform& xf, int id, VariationMode mode = VariationMode::Regular) {
    const VariationUse* v = id < 0 ? nullptr : find_variation(xf, id, mode);
    return v ? v->weight : 0.0;
}

void set_param(VariationUse& use, const char* name, double value) {
    const VariationInfo* info = VariationRegistry::standard().by_id(use.id);
    for (size_t p = 0; p < info->params.size(); ++p)
        if (info->params[p].name == name) use.params[p] = value;
}

// flam3_copy_params: a variation's parameters from another xform, with its
// two omissions kept (amw's are never copied; flower copies its petals only,
// its holes being left out by a typo).
void copy_params(Xform& to, const Xform& from, int id, VariationMode mode) {
    const VariationUse* src = find_variation(from, id, mode);
    if (!src || id == ids().amw) return;
    VariationUse& dst = ensure_variation(to, id, mode);
    if (id == ids().flower) {
        dst.params[0] = src->params[0];
        return;
    }
    dst.params = src->params;
}

// A fresh xform as flam3's initialize_xforms leaves it at array position `index`.
Xform fresh_xform(int index) {
    Xform xf;
    xf.weight = 0;
    xf.color = index & 1;
    xf.color_speed = 0.5;
    xf.animate = 1;
    xf.opacity = 1;
    ensure_variation(xf, ids().linear).weight = 1;
    return xf;
}

struct Slot {
    Xform* xf;
    bool padding;
};

// The xform slots of an aligned flame: standard xforms, then the final one.
std::vector<Slot> slots(Flame& f, const std::vector<bool>& padding) {
    std::vector<Slot> out;
    for (size_t i = 0; i < f.xforms.size(); ++i) out.push_back({&f.xforms[i], padding[i]});
    if (f.has_final) out.push_back({&f.final_xform, padding.back()});
    return out;
}

// The identity rules for padding xform `xf` of flame i (flam3_align), given
// the same slot of its neighbours.
void choose_identity(Xform& xf, const std::vector<const Slot*>& neighbours, bool log_mode) {
    const IdentityIds& id = ids();
    ensure_variation(xf, id.linear).weight = 0;
    int found = 0;
    if (log_mode) {
        for (const Slot* n : neighbours) {
            bool hole = false;
            for (int h : id.holes) hole = hole || weight_of(*n->xf, h) > 0;
            if (!hole) continue;
            ensure_variation(xf, id.linear).weight = -1;
            xf.affine = {-1, 0, 0, 0, -1, 0};
            found = -1;
        }
    }
    if (found == 0) {
        auto adopt = [&](const Xform& n, int v, std::initializer_list<std::pair<const char*, double>> params) {
            if (v < 0 || !(weight_of(n, v) > 0)) return;
            VariationUse& use = ensure_variation(xf, v);
            use.weight = 1;
            for (const auto& [name, value] : params) set_param(use, name, value);
            ++found;
        };
        for (const Slot* n : neighbours) {
            adopt(*n->xf, id.rectangles, {{"rectangles_x", 0}, {"rectangles_y", 0}});
            adopt(*n->xf, id.rings2, {{"rings2_val", 0}});
            adopt(*n->xf, id.fan2, {{"fan2_x", 0}, {"fan2_y", 0}});
            adopt(*n->xf, id.blob, {{"blob_low", 1}, {"blob_high", 1}, {"blob_waves", 1}});
            adopt(*n->xf, id.perspective, {{"perspective_angle", 0}});
            adopt(*n->xf, id.curl, {{"curl_c1", 0}, {"curl_c2", 0}});
            adopt(*n->xf, id.super_shape,
                  {{"super_shape_n1", 2}, {"super_shape_n2", 2}, {"super_shape_n3", 2}, {"super_shape_rnd", 0},
                   {"super_shape_holes", 0}});
        }
    }
    if (found == 0) {
        for (const Slot* n : neighbours)
            for (int v : {id.fan, id.rings})
                if (v >= 0 && weight_of(*n->xf, v) > 0) {
                    ensure_variation(xf, v).weight = 1;
                    ++found;
                }
        // x' = y, y' = x: fan and rings read the affine's translation, so they
        // are given a swap rather than the identity (flam3's choice).
        if (found > 0) xf.affine = {0, 1, 0, 1, 0, 0};
    }
    if (found == 0) {
        ensure_variation(xf, id.linear).weight = 1;
    } else if (found > 0) {
        double sum = 0;
        for (const auto& v : xf.variations) sum += v.weight;
        for (auto& v : xf.variations) v.weight /= sum;
    }
}

}  // namespace

const VariationUse* find_variation(const Xform& xf, int id, VariationMode mode) {
    for (const auto& v : xf.variations)
        if (v.id == id && v.mode == mode) return &v;
    return nullptr;
}

VariationUse& ensure_variation(Xform& xf, int id, VariationMode mode) {
    for (auto& v : xf.variations)
        if (v.id == id && v.mode == mode) return v;
    const VariationInfo* info = VariationRegistry::standard().by_id(id);
    if (!info) throw std::logic_error("ensure_variation: no variation with id " + std::to_string(id));
    std::vector<VariationSlot> slots;
    for (const auto& v : xf.variations) slots.push_back(v.slot());
    VariationUse use;
    use.id = id;
    use.mode = mode;
    for (const auto& p : info->params) use.params.push_back(p.default_value);
    return *xf.variations.insert(xf.variations.begin() + static_cast<std::ptrdiff_t>(slot_position(slots, use.slot())),
                                 std::move(use));
}

std::vector<Flame> align_control_points(const Flame* first, int count) {
    size_t max_std = first[0].xforms.size();
    bool any_final = first[0].has_final, already_aligned = true;
    for (int i = 1; i < count; ++i) {
        if (first[i].xforms.size() != max_std) already_aligned = false;
        if (first[i].has_final != first[0].has_final) already_aligned = false;
        max_std = std::max(max_std, first[i].xforms.size());
        any_final = any_final || first[i].has_final;
    }

    std::vector<Flame> out(first, first + count);
    std::vector<std::vector<bool>> padding(count);
    for (int i = 0; i < count; ++i) {
        Flame& f = out[i];
        const size_t own = f.xforms.size();
        for (size_t x = own; x < max_std; ++x) f.xforms.push_back(fresh_xform(static_cast<int>(x)));
        for (size_t x = 0; x < max_std; ++x) {
            auto& chaos = f.xforms[x].chaos;
            if (x >= own) chaos.clear();
            chaos.resize(max_std, 1.0);
        }
        padding[i].assign(max_std + (any_final ? 1 : 0), false);
        for (size_t x = own; x < max_std; ++x) padding[i][x] = true;
        if (any_final && !f.has_final) {
            f.has_final = true;
            f.final_xform = fresh_xform(static_cast<int>(max_std));
            f.final_xform.color_speed = 0;
            f.final_xform.animate = 0;
            padding[i].back() = true;
        }
    }

    // flam3 decides compatibility mode from one flame: the first of two, the
    // second of four (the left end of the segment being interpolated).
    const AffineInterpolation mode = out[count / 2 - 1].interpolation_type;
    if (mode == AffineInterpolation::Old || mode == AffineInterpolation::Older) return out;

    std::vector<std::vector<Slot>> all(count);
    for (int i = 0; i < count; ++i) all[i] = slots(out[i], padding[i]);
    const size_t nslots = all[0].size();
    // In flam3's order: flame by flame, slot by slot, so a copy or identity
    // made for flame i is what flame i+1 then sees.
    for (int i = 0; i < count; ++i) {
        for (size_t x = 0; x < nslots; ++x) {
            Xform& xf = *all[i][x].xf;
            const int from = i > 0 ? i - 1 : (i < count - 1 ? i + 1 : -1);
            if (from >= 0) {
                const Xform& other = *all[from][x].xf;
                for (const auto& v : other.variations)
                    if (v.id >= kFirstParametricId && v.weight != 0 && weight_of(xf, v.id, v.mode) == 0)
                        copy_params(xf, other, v.id, v.mode);
            }
            if (!all[i][x].padding || already_aligned) continue;
            std::vector<const Slot*> neighbours;
            for (int n : {i - 1, i + 1})
                if (n >= 0 && n < count && !all[n][x].padding) neighbours.push_back(&all[n][x]);
            const AffineInterpolation left =
                i == 0 ? out[i].interpolation_type : out[i - 1].interpolation_type;
            choose_identity(xf, neighbours, left == AffineInterpolation::Log);
        }
    }
    return out;
}

}  // namespace fj
