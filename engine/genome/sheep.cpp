// flamejit — Electric Sheep loops and transitions, as flam3-genome makes them.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/sheep.h"

#include <cmath>
#include <cstdio>
#include <sstream>

#include <pugixml.hpp>

#include "errors.h"
#include "genome/interpolate.h"
#include "genome/xform_align.h"

namespace fj {
namespace {

// flam3's EPS: a half-turn difference counts as clockwise.
constexpr double kEps = 1e-10;

double clamp01(double v) { return v < 0 ? 0 : (v > 1 ? 1 : v); }

void add_scaled(AffineD& to, const AffineD& amplitude, double f) {
    to.a += amplitude.a * f;
    to.b += amplitude.b * f;
    to.c += amplitude.c * f;
    to.d += amplitude.d * f;
    to.e += amplitude.e * f;
    to.f += amplitude.f * f;
}

// The flame with its xforms' motion applied at `blend`; the motions kept.
Flame with_motion(const Flame& flame, double blend) {
    Flame out = flame;
    for (Xform& xf : out.xforms)
        if (!xf.motions.empty()) xf = apply_motion(xf, blend);
    if (out.has_final && !out.final_xform.motions.empty()) out.final_xform = apply_motion(out.final_xform, blend);
    return out;
}

void drop_motions(Flame& flame) {
    for (Xform& xf : flame.xforms) xf.motions.clear();
    flame.final_xform.motions.clear();
}

// flam3_rotate: standard xforms whose animate is not 0 turn by `degrees`
// (padding xforms, marked in `padding`, only in log mode).
void turn(Flame& flame, double degrees, AffineInterpolation mode, const std::vector<bool>& padding) {
    const double angle = degrees * 2.0 * M_PI / 360.0;
    const double c = std::cos(angle), s = std::sin(angle);
    for (size_t i = 0; i < flame.xforms.size(); ++i) {
        AffineD& m = flame.xforms[i].affine;
        if (flame.xforms[i].animate == 0.0) continue;
        if (padding[i] && mode != AffineInterpolation::Log) continue;
        const AffineD t = m;
        m.a = c * t.a + -s * t.d;
        m.b = c * t.b + -s * t.e;
        m.d = s * t.a + c * t.d;
        m.e = s * t.b + c * t.e;
    }
}

// Which standard xforms of `aligned` were added by alignment to `original`.
std::vector<bool> padding_of(const Flame& original, const Flame& aligned) {
    std::vector<bool> padding(aligned.xforms.size(), false);
    for (size_t i = original.xforms.size(); i < padding.size(); ++i) padding[i] = true;
    return padding;
}

// flam3's establish_asymmetric_refangles for two aligned flames: where an
// xform turns (animate ≠ 0) in one and not in the other, the turning one's
// angle, a turn up, as the pair's reference for each column.
ReferenceAngles reference_angles(const Flame& a, const Flame& b) {
    ReferenceAngles out(a.xforms.size(), {0.0, 0.0});
    for (size_t i = 0; i < a.xforms.size(); ++i) {
        const AffineD& m0 = a.xforms[i].affine;
        const AffineD& m1 = b.xforms[i].affine;
        double ang0[2] = {std::atan2(m0.d, m0.a), std::atan2(m0.e, m0.b)};
        double ang1[2] = {std::atan2(m1.d, m1.a), std::atan2(m1.e, m1.b)};
        const bool still0 = a.xforms[i].animate == 0;
        const bool still1 = b.xforms[i].animate == 0;
        for (int c = 0; c < 2; ++c) {
            const double d = ang1[c] - ang0[c];
            if (d > M_PI + kEps) ang1[c] -= 2 * M_PI;
            else if (d < -(M_PI - kEps)) ang1[c] += 2 * M_PI;
            if (still1 && !still0) out[i][c] = ang0[c] + 2 * M_PI;
            else if (still0 && !still1) out[i][c] = ang1[c] + 2 * M_PI;
        }
    }
    return out;
}

std::string format(const char* pattern, double v) {
    char text[64];
    std::snprintf(text, sizeof text, pattern, v);
    return text;
}

// flam3-genome's <edit> for a generated frame: the action, and each parent's
// genealogy (or an empty <edit>) marked with the file and index it came from.
// No date, unlike flam3's, so a sequence made twice is the same file.
std::string frame_edit(const std::string& action, const std::vector<std::pair<const Flame*, FlameOrigin>>& parents) {
    pugi::xml_document doc;
    pugi::xml_node root = doc.append_child("edit");
    root.append_attribute("action").set_value(action.c_str());
    for (const auto& [parent, origin] : parents) {
        pugi::xml_document own;
        pugi::xml_node node;
        if (!parent->edit.empty() && own.load_string(parent->edit.c_str()) && own.first_child())
            node = root.append_copy(own.first_child());
        else
            node = root.append_child("edit");
        node.remove_attribute("filename");
        node.remove_attribute("index");
        node.append_attribute("filename").set_value(origin.file.c_str());
        node.append_attribute("index").set_value(origin.index);
    }
    std::ostringstream text;
    root.print(text, "", pugi::format_raw);
    return text.str();
}

void name_frame(Flame& f, int frame) {
    f.time = frame;
    f.name = format("%f", f.time);
}

}  // namespace

double motion_value(MotionFunction function, double t) {
    switch (function) {
        case MotionFunction::Sin: return std::sin(2.0 * M_PI * t);
        case MotionFunction::Triangle: {
            double fr = std::fmod(t, 1.0);
            if (fr < 0) fr += 1.0;
            if (fr <= .25) return 4.0 * fr;
            if (fr <= .75) return -4.0 * fr + 2.0;
            return 4.0 * fr - 4.0;
        }
        case MotionFunction::Hill: return (1.0 - std::cos(2.0 * M_PI * t)) * 0.5;
    }
    return 0;
}

Xform apply_motion(const Xform& xf, double blend) {
    Xform out = xf;
    for (const Motion& m : xf.motions) {
        const double f = motion_value(m.function, m.frequency * blend);
        const Xform& a = m.amplitude;
        out.weight += a.weight * f;
        out.color += a.color * f;
        out.opacity += a.opacity * f;
        out.color_speed += a.color_speed * f;
        out.animate += a.animate * f;
        out.direct_color += a.direct_color * f;
        for (const VariationUse& u : a.variations) {
            VariationUse& v = ensure_variation(out, u.id, u.mode);
            v.weight += u.weight * f;
            for (size_t p = 0; p < v.params.size() && p < u.params.size(); ++p) v.params[p] += u.params[p] * f;
        }
        add_scaled(out.affine, a.affine, f);
        add_scaled(out.post, a.post, f);
    }
    out.color = clamp01(out.color);
    out.direct_color = clamp01(out.direct_color);
    if (out.weight < 0) out.weight = 0;
    return out;
}

Flame sheep_loop(const Flame& flame, double blend) {
    Flame out = with_motion(flame, blend);
    drop_motions(out);
    turn(out, blend * 360.0, out.interpolation_type, std::vector<bool>(out.xforms.size(), false));
    return out;
}

Flame sheep_edge(const Flame& from, const Flame& to, double blend, bool sequence_end, double stagger) {
    const Flame moved[2] = {with_motion(from, blend), with_motion(to, blend)};
    Flame out;
    if (sequence_end && blend == 0.0) {
        // flam3 keeps the first flame unaligned here, its interpolation modes intact.
        out = moved[0];
    } else {
        std::vector<Flame> spun = align_control_points(moved, 2);
        spun[0].time = 0.0;
        spun[1].time = 1.0;
        const ReferenceAngles reference = reference_angles(spun[0], spun[1]);
        const AffineInterpolation mode = spun[0].interpolation_type;
        for (int k = 0; k < 2; ++k) turn(spun[k], blend * 360.0, mode, padding_of(moved[k], spun[k]));
        out = interpolate(spun, smoothstep(blend), stagger, &reference);
    }
    drop_motions(out);
    return out;
}

std::vector<Flame> sequence(const std::vector<Flame>& flames, const SequenceOptions& options) {
    if (flames.empty()) throw InputError("sequence: no flame to make a sequence of");
    if (options.frames < 1)
        throw InputError("sequence: frames per loop must be at least 1, not " + std::to_string(options.frames));
    const int n = options.frames;
    const int count = static_cast<int>(flames.size());
    const long long total = static_cast<long long>(options.loops ? 2 * count - 1 : count - 1) * n + 1;
    if (total > kMaxSequenceGenomes)
        throw InputError("sequence: " + std::to_string(count) + " flames at " + std::to_string(n) +
                         " frames each make " + std::to_string(total) + " genomes; at most " +
                         std::to_string(kMaxSequenceGenomes) + " fit in a file");
    const auto origin = [&](int i) {
        return i < static_cast<int>(options.origins.size()) ? options.origins[i] : FlameOrigin{"", i};
    };
    std::vector<Flame> out;
    out.reserve(static_cast<size_t>(total));
    // A frame that overflows (values near a double's range, turned) is
    // refused naming its place in the sequence and the flames it comes from.
    const auto named = [&](int i) {
        const FlameOrigin o = origin(i);
        return (o.file.empty() ? "" : o.file + "'s ") + "flame " + std::to_string(o.index);
    };
    const auto frame_name = [&](const std::string& what) {
        return "sequence frame " + std::to_string(out.size()) + ", " + what;
    };
    const auto loop_frame = [&](int i, double blend) {
        Flame f = sheep_loop(flames[i], blend);
        check_finite(f, frame_name("the loop of " + named(i)));
        name_frame(f, static_cast<int>(out.size()));
        f.interpolation = Interpolation::Linear;
        f.palette_interpolation = PaletteInterpolation::HsvCircular;
        f.hsv_rgb_palette_blend = 0;
        f.edit = frame_edit(format("rotate %g", blend * 360.0), {{&flames[i], origin(i)}});
        out.push_back(std::move(f));
    };
    for (int i = 0; i < count; ++i) {
        if (options.loops)
            for (int frame = 0; frame < n; ++frame) loop_frame(i, frame / static_cast<double>(n));
        if (i == count - 1) break;
        for (int frame = 0; frame < n; ++frame) {
            const double blend = frame / static_cast<double>(n);
            const std::string context = frame_name("from " + named(i) + " to " + named(i + 1));
            Flame f;
            try {
                f = sheep_edge(flames[i], flames[i + 1], blend, frame == 0 || frame == n - 1, options.stagger);
            } catch (const InputError& e) {
                throw InputError(context + ": " + e.what());
            }
            check_finite(f, context);
            name_frame(f, static_cast<int>(out.size()));
            f.edit = frame_edit(format("interpolate %g", blend * 360.0),
                                {{&flames[i], origin(i)}, {&flames[i + 1], origin(i + 1)}});
            out.push_back(std::move(f));
        }
    }
    loop_frame(count - 1, 0.0);
    return out;
}

}  // namespace fj
