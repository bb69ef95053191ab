// flamejit — the <xform>, <finalxform> and <symmetry> part of the flam3 reader.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flam3_xform_reader.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <numbers>
#include <string_view>
#include <utility>

#include "codegen/variation_registry.h"
#include "errors.h"

namespace fj::flam3_read {
namespace {

AffineD affine_from_flam3(const std::vector<double>& v) {
    // flam3 order "a d b e c f".
    AffineD m;
    m.a = v[0];
    m.d = v[1];
    m.b = v[2];
    m.e = v[3];
    m.c = v[4];
    m.f = v[5];
    return m;
}

// Parameters flam3 clamps while reading.
double apply_param_quirks(const std::string& name, double value) {
    if (name == "super_shape_rnd") return std::clamp(value, 0.0, 1.0);
    return value;
}

Xform make_default(int array_position) {
    Xform xf;
    xf.color = array_position & 1;
    return xf;
}

// flam3's round6: rounds to 6 decimals, with its own handling of negatives.
double round6(double x) {
    x *= 1e6;
    if (x < 0) x -= 1.0;
    return 1e-6 * static_cast<int>(x + 0.5);
}

double det(const Xform& xf) { return xf.affine.a * xf.affine.e - xf.affine.d * xf.affine.b; }

// flam3's compare_xforms (a qsort comparator): colour speed, then reflections
// first, then angle or determinant.
int compare_xforms(const Xform& a, const Xform& b) {
    double ad = det(a), bd = det(b);
    if (a.color_speed > b.color_speed) return 1;
    if (a.color_speed < b.color_speed) return -1;
    if (a.color_speed != 0) {
        if (ad < 0) return -1;
        if (bd < 0) return 1;
        ad = std::atan2(a.affine.a, a.affine.d);
        bd = std::atan2(b.affine.a, b.affine.d);
    }
    if (ad < bd) return -1;
    if (ad > bd) return 1;
    return 0;
}

// Splits Fractorium's "pre_"/"post_" off `name`: the mode it names (Regular
// when neither) and the rest.
std::string_view strip_mode(std::string_view name, VariationMode* mode) {
    for (VariationMode m : {VariationMode::Pre, VariationMode::Post}) {
        const std::string_view prefix = mode_prefix(m);
        if (name.starts_with(prefix)) {
            *mode = m;
            return name.substr(prefix.size());
        }
    }
    *mode = VariationMode::Regular;
    return name;
}

// The variation an xform attribute names, and how it is used. A registry name
// (flam3's pre_blur among them) is a Regular use; otherwise pre_NAME and
// post_NAME are Fractorium's Pre and Post uses of NAME. In Fractorium's own
// files pre_blur is its blur as a Pre use, and its spelling of flam3's
// pre_blur (pre_gaussian_blur, the same formula) is flam3's pre_blur only
// while no Pre use came before it: flam3's applies first.
const VariationInfo* named_variation(const VariationRegistry& registry, std::string_view name, bool fractorium,
                                     bool pre_seen, VariationMode* mode) {
    *mode = VariationMode::Regular;
    if (!(fractorium && name == "pre_blur"))
        if (const VariationInfo* v = registry.by_name(name); v && !(fractorium && v->pre && pre_seen)) return v;
    const VariationInfo* v = registry.by_name(strip_mode(name, mode));
    return *mode != VariationMode::Regular && v && !v->pre ? v : nullptr;
}

// Fractorium adds an xform's plain uses in its file's order, flamejit in id
// order. A variation that reads the sum of the uses before it (@reads sum)
// or drops it (@discards sum) sees the same sum in both only where the same
// uses come before it. The first that does not, or null.
const VariationInfo* sum_order_conflict(const std::vector<int>& file_order, const std::map<int, double>& weights,
                                        const VariationRegistry& registry, std::string* why) {
    const auto names = [&](const std::vector<int>& ids) {
        std::string out;
        for (int id : ids) out += (out.empty() ? "" : ", ") + registry.by_id(id)->name;
        return out.empty() ? std::string("none") : out;
    };
    for (size_t i = 0; i < file_order.size(); ++i) {
        const VariationInfo* v = registry.by_id(file_order[i]);
        if (!(v->reads_sum || v->discards_sum) || weights.at(v->id) == 0) continue;
        std::vector<int> in_file, by_id;
        for (size_t j = 0; j < i; ++j)
            if (weights.at(file_order[j]) != 0) in_file.push_back(file_order[j]);
        for (const auto& [id, w] : weights)
            if (id < v->id && w != 0) by_id.push_back(id);
        std::vector<int> sorted = in_file;
        std::sort(sorted.begin(), sorted.end());
        if (sorted == by_id) continue;
        // dc_linear and its kind colour by the sum; hexcrop and octapol
        // replace it at the points they crop.
        *why = std::string(!v->reads_sum ? "drops" : v->writes_color ? "colours by" : "crops") +
               " the sum of the variations before it, which flamejit adds in id order (" + names(by_id) +
               " before it) and this file in its own (" + names(in_file) + ")";
        return v;
    }
    return nullptr;
}

}  // namespace

Xform& XformList::add_standard() {
    const int position = static_cast<int>(xforms.size());
    if (has_final) {
        xforms.insert(xforms.end() - 1, make_default(position));
        return xforms[xforms.size() - 2];
    }
    xforms.push_back(make_default(position));
    return xforms.back();
}

Xform& XformList::add_final() {
    xforms.push_back(make_default(static_cast<int>(xforms.size())));
    has_final = true;
    return xforms.back();
}

namespace {

// What an element of xform attributes is: a standard or final xform, or one
// of their <motion> elements, whose numbers are amplitudes (Motion).
enum class XformKind { Standard, Final, Motion };

void read_attributes(const ReadContext& ctx, const pugi::xml_node& element, XformKind kind, const std::string& label,
                     int index, Xform& xf, std::vector<ChaosEntry>* chaos) {
    const VariationRegistry& registry = VariationRegistry::standard();
    const bool motion = kind == XformKind::Motion;
    std::map<int, double> weights;  // Regular uses by registry id; linear starts at 0
    std::vector<int> regular_order;  // their ids in file order
    std::vector<std::pair<VariationSlot, double>> moded;  // Pre and Post uses, in file order
    std::map<std::pair<VariationMode, int>, std::vector<double>> params;  // only those given
    std::map<int, double> unknown_weights;  // flam3 ids from var="…" we do not know
    const auto pre_seen = [&] {
        return std::any_of(moded.begin(), moded.end(), [](const auto& m) { return m.first.mode == VariationMode::Pre; });
    };

    for (pugi::xml_attribute attr : element.attributes()) {
        const std::string name = attr.name();
        const char* value = attr.value();
        const std::string where = label + " attribute \"" + name + "\"";
        if (name == "weight") {
            xf.weight = parse_double(ctx, where, value);
        } else if (name == "color") {
            // "c1 c2" is an old two-coordinate form; flam3 keeps c1.
            const std::vector<double> c = parse_doubles(ctx, where, value);
            if (c.size() != 1 && c.size() != 2) ctx.fail(where, "expected 1 or 2 numbers, got " + std::to_string(c.size()));
            xf.color = c[0];
        } else if (name == "color_speed") {
            xf.color_speed = parse_double(ctx, where, value);
        } else if (name == "symmetry") {
            // Deprecated spelling of colour speed and animate.
            const double s = parse_double(ctx, where, value);
            xf.color_speed = (1.0 - s) / 2.0;
            xf.animate = s > 0 ? 0 : 1;
        } else if (name == "animate") {
            xf.animate = parse_double(ctx, where, value);
        } else if (name == "opacity") {
            xf.opacity = parse_double(ctx, where, value);
        } else if (name == "plotmode") {
            if (motion) ctx.fail(where, "a <motion> element has no plot mode");
            if (std::strcmp(value, "off") == 0) xf.opacity = 0;
        } else if (name == "coefs") {
            xf.affine = affine_from_flam3(parse_doubles(ctx, where, value, 6));
        } else if (name == "post") {
            xf.post = affine_from_flam3(parse_doubles(ctx, where, value, 6));
        } else if (name == "chaos") {
            if (kind != XformKind::Standard) ctx.fail(where, "only a standard xform has a chaos row");
            const std::vector<double> row = parse_doubles(ctx, where, value);
            for (size_t to = 0; to < row.size(); ++to) {
                if (row[to] < 0) ctx.fail(where, "chaos entries must not be negative");
                if (row[to] != 1.0) chaos->push_back({index, static_cast<int>(to), row[to]});
            }
        } else if (name == "var" || name == "var1") {
            weights.clear();
            regular_order.clear();
            unknown_weights.clear();
            std::vector<double> all(kFlam3Ids, 0.0);
            if (name == "var") {
                all = parse_doubles(ctx, where, value, kFlam3Ids);
            } else {
                const int k = parse_int(ctx, where, value);
                if (k < 0 || k >= kFlam3Ids) ctx.fail(where, "no variation number " + std::to_string(k));
                all[k] = 1.0;
            }
            for (int id = 0; id < kFlam3Ids; ++id) {
                if (all[id] == 0) continue;
                (registry.by_id(id) ? weights : unknown_weights)[id] = all[id];
                if (registry.by_id(id)) regular_order.push_back(id);
            }
        } else if (name == "motion_frequency" || name == "motion_function") {
            if (!motion) ctx.fail(where, "motion attributes belong in a <motion> element");
            // read by read_motion
        } else if (name == "var_color") {
            // Fractorium's; it clamps the value as here (an amplitude moves
            // it, and the value it moves is clamped: genome/sheep.h).
            const double v = parse_double(ctx, where, value);
            xf.direct_color = motion ? v : std::clamp(v, 0.0, 1.0);
        } else if (name == "name") {
            // Apophysis/Fractorium xform names: flam3 ignores them (with a
            // warning), and so do we, silently.
        } else if (VariationMode mode; const VariationInfo* v = named_variation(
                       registry, name, ctx.fractorium, pre_seen(), &mode)) {
            const double w = parse_double(ctx, where, value);
            const VariationSlot slot{v->id, mode};
            auto same = std::find_if(moded.begin(), moded.end(), [&](const auto& m) { return m.first == slot; });
            if (mode == VariationMode::Regular) {
                if (weights.emplace(v->id, w).second)
                    regular_order.push_back(v->id);
                else
                    weights[v->id] = w;
            } else if (v->reads_sum) {
                // Its sum would be the point it replaces, which the snippet
                // does not see.
                ctx.unsupported(where, v->name + " is read only as a plain use");
            } else if (same != moded.end())  // two spellings of one use: the last counts, as for weights
                same->second = w;
            else
                moded.emplace_back(slot, w);
        } else {
            // A parameter, of a Regular use or (with Fractorium's prefix) of a
            // Pre or Post one. Parameter names never start with pre_ or post_.
            std::string_view bare = strip_mode(name, &mode);
            if (const IgnoredParam* ignored = registry.ignored_param(bare)) {
                // Another renderer's parameter that changes nothing here,
                // unless it leaves the value the formula assumes.
                const double v = parse_double(ctx, where, value);
                if (!ignored->any_value && std::fabs(v - ignored->value) > 1e-5 * std::fabs(ignored->value))
                    ctx.unsupported(where, name + " " + quote(value) + " is not rendered (only " +
                                               message_number(ignored->value) + ")");
                continue;
            }
            int p = 0;
            const VariationInfo* owner = registry.param_owner(bare, &p);
            if (!owner) {
                ctx.unknown_variation(label, name);
                continue;
            }
            auto [it, fresh] = params.try_emplace({mode, owner->id});
            if (fresh)
                for (const ParamInfo& info : owner->params) it->second.push_back(motion ? 0.0 : info.default_value);
            it->second[p] = apply_param_quirks(owner->params[p].name, parse_double(ctx, where, value));
        }
    }

    for (const auto& [id, w] : unknown_weights)
        ctx.unknown_variation(label + " attribute \"var\"", "number " + std::to_string(id));
    std::string why;
    while (const VariationInfo* v = motion ? nullptr : sum_order_conflict(regular_order, weights, registry, &why)) {
        ctx.unsupported(label + " attribute " + quote(v->name), v->name + " " + why);
        weights[v->id] = 0;  // dropped (--drop-unknown)
    }

    // Xform order (Xform::variations).
    xf.variations.clear();
    // In a <motion> element a variation may move its parameters alone.
    if (motion)
        for (const auto& [key, values] : params) {
            const VariationSlot slot{key.second, key.first};
            if (slot.mode == VariationMode::Regular) {
                if (weights.emplace(slot.id, 0.0).second) regular_order.push_back(slot.id);
            } else if (std::none_of(moded.begin(), moded.end(), [&](const auto& m) { return m.first == slot; })) {
                moded.emplace_back(slot, 0.0);
            }
        }
    const auto add = [&](VariationSlot slot, double w) {
        auto given = params.find({slot.mode, slot.id});
        if (w == 0 && !(motion && given != params.end())) return;
        VariationUse use;
        use.id = slot.id;
        use.mode = slot.mode;
        use.weight = w;
        if (given != params.end()) {
            use.params = given->second;
        } else {
            for (const ParamInfo& info : registry.by_id(slot.id)->params)
                use.params.push_back(motion ? 0.0 : info.default_value);
        }
        xf.variations.push_back(std::move(use));
    };
    for (const auto& [slot, w] : moded)
        if (slot.mode == VariationMode::Pre) add(slot, w);
    for (const auto& [id, w] : weights) add({id, VariationMode::Regular}, w);  // std::map: sorted by id
    for (const auto& [slot, w] : moded)
        if (slot.mode == VariationMode::Post) add(slot, w);
}

// A <motion> element of `owner` (flam3's parse_xform_xml with motionxf set).
Motion read_motion(const ReadContext& ctx, const pugi::xml_node& element, const std::string& owner) {
    const std::string label = owner + " <motion>";
    if (!element.first_attribute()) ctx.fail(label, "element has no attributes");
    Motion m;
    read_attributes(ctx, element, XformKind::Motion, label, 0, m.amplitude, nullptr);
    if (pugi::xml_attribute f = element.attribute("motion_frequency"))
        m.frequency = parse_int(ctx, label + " attribute \"motion_frequency\"", f.value());
    if (pugi::xml_attribute f = element.attribute("motion_function")) {
        const std::string_view name = f.value();
        if (name == "sin") m.function = MotionFunction::Sin;
        else if (name == "triangle") m.function = MotionFunction::Triangle;
        else if (name == "hill") m.function = MotionFunction::Hill;
        else ctx.fail(label + " attribute \"motion_function\"", "must be sin, triangle or hill, not " + quote(name));
    }
    return m;
}

}  // namespace

void read_xform(const ReadContext& ctx, const pugi::xml_node& element, bool is_final, int index, Xform& xf,
                std::vector<ChaosEntry>* chaos) {
    const std::string label = is_final ? "<finalxform>" : "<xform " + std::to_string(index) + ">";
    read_attributes(ctx, element, is_final ? XformKind::Final : XformKind::Standard, label, index, xf, chaos);
    for (pugi::xml_node child : element.children("motion")) xf.motions.push_back(read_motion(ctx, child, label));
}

void add_symmetry(XformList& list, int kind) {
    if (kind == 0 || kind == 1) return;
    const VariationInfo* linear = VariationRegistry::standard().by_name("linear");
    const int linear_id = linear ? linear->id : 0;
    auto add = [&](double color, const AffineD& affine) {
        Xform& xf = list.add_standard();
        xf.weight = 1.0;
        xf.color_speed = 0.0;
        xf.animate = 0.0;
        xf.color = color;
        xf.affine = affine;
        xf.variations = {VariationUse{linear_id, 1.0, {}}};
    };
    int added = 0;
    if (kind < 0) {
        AffineD mirror;
        mirror.a = -1.0;
        add(1.0, mirror);
        ++added;
        kind = -kind;
    }
    const double step = 2 * std::numbers::pi / kind;
    for (int k = 1; k < kind; ++k) {
        AffineD rot;
        rot.a = round6(std::cos(k * step));
        rot.d = round6(std::sin(k * step));
        rot.b = round6(-rot.d);
        rot.e = rot.a;
        // Debian's flam3 is built with -ffast-math, which turns this division
        // into a multiplication by the reciprocal (3/5 reads 0.6000000000000001).
        add(kind < 3 ? 0.0 : (k - 1.0) * (1.0 / (kind - 2.0)), rot);
        ++added;
    }
    // flam3 sorts the last `added` entries of its array; with a final xform
    // present that window is shifted by one (it takes in the final xform and
    // leaves out the first added one). glibc's qsort is a merge sort here.
    auto end = list.xforms.end();
    std::stable_sort(end - added, end,
                     [](const Xform& a, const Xform& b) { return compare_xforms(a, b) < 0; });
}

}  // namespace fj::flam3_read
