// flamejit — writes Flames as flam3 genome XML.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flam3_writer.h"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include <pugixml.hpp>

#include "atomic_file.h"
#include "codegen/variation_registry.h"
#include "genome/flam3_xform_reader.h"
#include "genome/palette_library.h"

namespace fj {
namespace {

// Names a value for the error a non-finite number raises.
struct Where {
    const Flame& flame;
    int flame_index;
    std::string element;
};

// The shortest decimal that strtod (flam3) and from_chars (our reader) both
// turn back into exactly `v`.
std::string number(double v, const Where& where, const char* field) {
    if (!std::isfinite(v))
        throw std::invalid_argument("cannot write flame " + std::to_string(where.flame_index) +
                                    (where.flame.name.empty() ? "" : " \"" + where.flame.name + "\"") + ": " +
                                    where.element + " " + field + " is not finite");
    char buf[40];
    const auto result = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, result.ptr);
}

template <typename Values>
std::string numbers(const Values& values, const Where& where, const char* field) {
    std::string out;
    for (double v : values) {
        if (!out.empty()) out += ' ';
        out += number(v, where, field);
    }
    return out;
}

std::string numbers(std::initializer_list<double> values, const Where& where, const char* field) {
    return numbers<std::initializer_list<double>>(values, where, field);
}

const char* filter_shape_name(FilterShape s) {
    switch (s) {
        case FilterShape::Gaussian: return "gaussian";
        case FilterShape::Hermite: return "hermite";
        case FilterShape::Box: return "box";
        case FilterShape::Triangle: return "triangle";
        case FilterShape::Bell: return "bell";
        case FilterShape::Bspline: return "bspline";
        case FilterShape::Lanczos3: return "lanczos3";
        case FilterShape::Lanczos2: return "lanczos2";
        case FilterShape::Mitchell: return "mitchell";
        case FilterShape::Blackman: return "blackman";
        case FilterShape::Catrom: return "catrom";
        case FilterShape::Hamming: return "hamming";
        case FilterShape::Hanning: return "hanning";
        case FilterShape::Quadratic: return "quadratic";
    }
    return "gaussian";
}

const char* temporal_filter_name(TemporalFilter t) {
    switch (t) {
        case TemporalFilter::Box: return "box";
        case TemporalFilter::Gaussian: return "gaussian";
        case TemporalFilter::Exp: return "exp";
    }
    return "box";
}

const char* affine_interpolation_name(AffineInterpolation a) {
    switch (a) {
        case AffineInterpolation::Linear: return "linear";
        case AffineInterpolation::Log: return "log";
        case AffineInterpolation::Old: return "old";
        case AffineInterpolation::Older: return "older";
    }
    return "log";
}

const char* palette_interpolation_name(PaletteInterpolation p) {
    switch (p) {
        case PaletteInterpolation::Hsv: return "hsv";
        case PaletteInterpolation::Sweep: return "sweep";
        case PaletteInterpolation::Rgb: return "rgb";
        case PaletteInterpolation::HsvCircular: return "hsv_circular";
    }
    return "hsv_circular";
}

void set(pugi::xml_node node, const char* name, const std::string& value) {
    node.append_attribute(name).set_value(value.c_str());
}

// A flame with Fractorium's pre_ and post_ uses is written in its dialect,
// where pre_blur is Fractorium's blur as a Pre use: its version says EMBER,
// which is how Fractorium and our reader tell its files, and flam3's pre_blur
// is written as pre_gaussian_blur, as Fractorium writes it.
bool fractorium_names(const Flame& f) {
    const auto moded = [](const Xform& xf) {
        return std::any_of(xf.variations.begin(), xf.variations.end(),
                           [](const VariationUse& u) { return u.mode != VariationMode::Regular; });
    };
    return std::any_of(f.xforms.begin(), f.xforms.end(), moded) || (f.has_final && moded(f.final_xform));
}

void write_flame_attributes(pugi::xml_node node, const Flame& f, const Where& w) {
    set(node, "version", std::string("flamejit-") + FLAMEJIT_VERSION +
                             (fractorium_names(f) ? " (Fractorium EMBER names)" : ""));
    set(node, "name", f.name);
    set(node, "time", number(f.time, w, "time"));
    set(node, "size", std::to_string(f.width) + " " + std::to_string(f.height));
    set(node, "center", numbers({f.center_x, f.center_y}, w, "center"));
    set(node, "scale", number(f.scale, w, "scale"));
    set(node, "zoom", number(f.zoom, w, "zoom"));
    set(node, "rotate", number(f.rotate, w, "rotate"));
    set(node, "supersample", std::to_string(f.supersample));
    set(node, "filter", number(f.filter_radius, w, "filter"));
    set(node, "filter_shape", filter_shape_name(f.filter_shape));
    set(node, "temporal_filter_type", temporal_filter_name(f.temporal_filter_type));
    set(node, "temporal_filter_width", number(f.temporal_filter_width, w, "temporal_filter_width"));
    set(node, "temporal_filter_exp", number(f.temporal_filter_exp, w, "temporal_filter_exp"));
    set(node, "quality", number(f.quality, w, "quality"));
    set(node, "passes", std::to_string(f.passes));
    set(node, "temporal_samples", std::to_string(f.temporal_samples));
    set(node, "background", numbers({f.background[0], f.background[1], f.background[2]}, w, "background"));
    set(node, "brightness", number(f.brightness, w, "brightness"));
    set(node, "gamma", number(f.gamma, w, "gamma"));
    set(node, "gamma_threshold", number(f.gamma_threshold, w, "gamma_threshold"));
    set(node, "vibrancy", number(f.vibrancy, w, "vibrancy"));
    set(node, "highlight_power", number(f.highlight_power, w, "highlight_power"));
    set(node, "estimator_radius", number(f.estimator_radius, w, "estimator_radius"));
    set(node, "estimator_minimum", number(f.estimator_minimum, w, "estimator_minimum"));
    set(node, "estimator_curve", number(f.estimator_curve, w, "estimator_curve"));
    set(node, "palette_mode", f.palette_mode == PaletteMode::Linear ? "linear" : "step");
    set(node, "interpolation", f.interpolation == Interpolation::Smooth ? "smooth" : "linear");
    set(node, "interpolation_type", affine_interpolation_name(f.interpolation_type));
    set(node, "palette_interpolation", palette_interpolation_name(f.palette_interpolation));
    set(node, "hsv_rgb_palette_blend", number(f.hsv_rgb_palette_blend, w, "hsv_rgb_palette_blend"));
    // A library palette is named so that readers rebuild it (hue included)
    // exactly; the entries are written too, for tools without the library.
    if (f.palette_index != -1) set(node, "palette", std::to_string(f.palette_index));
    set(node, "hue", number(f.hue, w, "hue"));
    // Fractorium's colour curves, in its own spelling (flam3 ignores them).
    const char* const curve_names[4] = {"overall_curve", "red_curve", "green_curve", "blue_curve"};
    for (int k = 0; k < 4; ++k) {
        if (f.curves.points[k].empty()) continue;
        std::vector<double> xy;
        for (const ColorCurves::Point& p : f.curves.points[k]) xy.insert(xy.end(), p.begin(), p.end());
        set(node, curve_names[k], numbers(xy, w, curve_names[k]));
    }
}

// flam3's coefficient order: a d b e c f.
std::string affine_text(const AffineD& m, const Where& w, const char* field) {
    return numbers({m.a, m.d, m.b, m.e, m.c, m.f}, w, field);
}

// The variation weights, then their parameters, as flam3 writes them. In an
// xform a zero weight (interpolation keeps a segment's variations at 0 so the
// kernel stays one) reads as absent, so it is not written, and every
// parameter is, so that no reader's default is assumed. In a <motion>
// element (`amplitudes`) what is not written reads as 0: only non-zero
// weights and parameters are written, and a variation whose parameters alone
// move is kept. In Fractorium's dialect flam3's pre_blur, which applies
// before the Pre uses, is written first: there it reads back as the first of
// them.
void write_uses(pugi::xml_node node, const std::vector<VariationUse>& variations, bool amplitudes, bool fractorium,
                const Where& w) {
    const VariationRegistry& registry = VariationRegistry::standard();
    const auto moves = [](const VariationUse& use) {
        return std::any_of(use.params.begin(), use.params.end(), [](double p) { return p != 0; });
    };
    std::vector<std::pair<const VariationUse*, const VariationInfo*>> uses;
    for (const VariationUse& use : variations) {
        if (use.weight == 0 && !(amplitudes && moves(use))) continue;
        const VariationInfo* info = registry.by_id(use.id);
        if (!info) throw std::invalid_argument("cannot write " + w.element + ": no variation with id " + std::to_string(use.id));
        const bool first = fractorium && info->pre;
        uses.insert(first ? uses.begin() : uses.end(), {&use, info});
    }
    for (const auto& [use, info] : uses) {
        if (use->weight == 0) continue;
        const std::string name = fractorium && info->pre && !info->also.empty()
                                     ? info->also.front()
                                     : mode_prefix(use->mode) + info->name;
        set(node, name.c_str(), number(use->weight, w, "variation weight"));
    }
    for (const auto& [use, info] : uses)
        for (size_t p = 0; p < info->params.size() && p < use->params.size(); ++p)
            if (!amplitudes || use->params[p] != 0)
                set(node, (mode_prefix(use->mode) + info->params[p].name).c_str(),
                    number(use->params[p], w, "variation parameter"));
}

const char* motion_function_name(MotionFunction f) {
    switch (f) {
        case MotionFunction::Sin: return "sin";
        case MotionFunction::Triangle: return "triangle";
        case MotionFunction::Hill: return "hill";
    }
    return "hill";
}

// A <motion> element: its function and frequency, and the amplitudes that
// are not 0 (the reader's default for every one of them).
void write_motion(pugi::xml_node node, const Motion& m, bool fractorium, const Where& w) {
    set(node, "motion_frequency", std::to_string(m.frequency));
    set(node, "motion_function", motion_function_name(m.function));
    const Xform& a = m.amplitude;
    const std::pair<const char*, double> scalars[] = {{"weight", a.weight},           {"color", a.color},
                                                      {"color_speed", a.color_speed}, {"animate", a.animate},
                                                      {"opacity", a.opacity},         {"var_color", a.direct_color}};
    for (const auto& [name, value] : scalars)
        if (value != 0) set(node, name, number(value, w, name));
    write_uses(node, a.variations, true, fractorium, w);
    const AffineD zero{0, 0, 0, 0, 0, 0};
    if (!(a.affine == zero)) set(node, "coefs", affine_text(a.affine, w, "coefs"));
    if (!(a.post == zero)) set(node, "post", affine_text(a.post, w, "post"));
}

void write_xform(pugi::xml_node node, const Xform& xf, bool is_final, bool fractorium, const Where& w) {
    if (!is_final) set(node, "weight", number(xf.weight, w, "weight"));
    set(node, "color", number(xf.color, w, "color"));
    set(node, "color_speed", number(xf.color_speed, w, "color_speed"));
    set(node, "animate", number(xf.animate, w, "animate"));
    set(node, "opacity", number(xf.opacity, w, "opacity"));
    // Fractorium's attribute; flam3 ignores it (with a warning), so only a
    // value that matters is written.
    if (xf.direct_color != 1) set(node, "var_color", number(xf.direct_color, w, "var_color"));
    write_uses(node, xf.variations, false, fractorium, w);
    set(node, "coefs", affine_text(xf.affine, w, "coefs"));
    if (!xf.post.is_identity()) set(node, "post", affine_text(xf.post, w, "post"));
    if (!xf.chaos.empty()) {
        // Missing trailing entries read as 1, so they are left out.
        size_t n = xf.chaos.size();
        while (n > 0 && xf.chaos[n - 1] == 1.0) --n;
        std::string row;
        for (size_t j = 0; j < n; ++j) {
            if (j) row += ' ';
            row += number(xf.chaos[j], w, "chaos");
        }
        if (!row.empty()) set(node, "chaos", row);
    }
    for (const Motion& m : xf.motions) write_motion(node.append_child("motion"), m, fractorium, w);
}

// ---- palette ---------------------------------------------------------------

// A byte k with k/255 == v exactly (the hex forms' arithmetic), or -1.
int hex_byte(double v) {
    const double k = std::nearbyint(v * 255.0);
    return k >= 0 && k <= 255 && k / 255.0 == v ? static_cast<int>(k) : -1;
}

bool hex_exact(const RGBA& c) {
    return hex_byte(c.r) >= 0 && hex_byte(c.g) >= 0 && hex_byte(c.b) >= 0 && hex_byte(c.a) >= 0;
}

// What a <color> value x gives in the reader: alpha/255, and colours
// premultiplied as alpha·x/255 (flam3's arithmetic, in its order).
double color_alpha(double x) { return x / 255.0; }
double color_component(double alpha, double x) { return alpha * x / 255.0; }

// The decimal x with produce(x) == target, searching the doubles next to the
// algebraic solution; when no double reaches the target (the map skips about
// one double in 256), the nearest. produce must be non-decreasing in x.
template <typename Produce>
double solve(double start, double target, Produce produce) {
    double x = start, best = start;
    double best_error = std::fabs(produce(start) - target);
    const double direction = produce(start) < target ? INFINITY : -INFINITY;
    for (int step = 0; step < 16 && best_error != 0; ++step) {
        x = std::nextafter(x, direction);
        const double error = std::fabs(produce(x) - target);
        if (error < best_error) {
            best = x;
            best_error = error;
        }
        if ((produce(x) < target) != (direction > 0)) break;  // passed the target
    }
    return best;
}

struct ColorValues {
    double rgb[3] = {0, 0, 0};
    double alpha = 255;
    bool exact = true;  // the values read back as the entry, bit for bit
};

// The <color> values that read back as `c` (premultiplied by its alpha):
// whole numbers where they do, else the nearest decimals.
ColorValues color_values(const RGBA& c) {
    ColorValues v;
    const double A = std::nearbyint(c.a * 255.0);
    v.alpha = A >= 0 && A <= 255 && color_alpha(A) == c.a ? A : solve(c.a * 255.0, c.a, color_alpha);
    const double a = color_alpha(v.alpha);
    v.exact = a == c.a;
    const double comps[3] = {c.r, c.g, c.b};
    for (int k = 0; k < 3; ++k) {
        if (a == 0) {  // nothing but 0 reads back; a colour under alpha 0 is lost
            v.exact = v.exact && comps[k] == 0;
            continue;
        }
        const double R = std::nearbyint(comps[k] * 255.0 / a);
        if (R >= 0 && R <= 255 && color_component(a, R) == comps[k]) {
            v.rgb[k] = R;
        } else {
            v.rgb[k] = solve(comps[k] * 255.0 / a, comps[k], [a](double x) { return color_component(a, x); });
            v.exact = v.exact && color_component(a, v.rgb[k]) == comps[k];
        }
    }
    return v;
}

bool same_palette(const std::array<RGBA, 256>& p, const std::array<RGBA, 256>& q) {
    for (int i = 0; i < 256; ++i)
        if (p[i].r != q[i].r || p[i].g != q[i].g || p[i].b != q[i].b || p[i].a != q[i].a) return false;
    return true;
}

// Whether the reader, given only the `given` entries, fills in the rest of
// `palette` exactly.
bool refills(const std::array<RGBA, 256>& palette, const std::array<bool, 256>& given) {
    std::array<RGBA, 256> copy{};
    for (int i = 0; i < 256; ++i)
        if (given[i]) copy[i] = palette[i];
    fill_missing_palette_entries(copy, given);
    return same_palette(copy, palette);
}

// How many leading entries a hex <palette> needs (the reader fills in the
// rest), or 0 when no hex palette reads back exactly.
int hex_entries(const std::array<RGBA, 256>& palette) {
    int prefix = 0;
    while (prefix < 256 && hex_exact(palette[prefix])) ++prefix;
    if (prefix == 256) return 256;
    std::array<bool, 256> given{};
    for (int n = 1; n <= prefix; ++n) {
        given[n - 1] = true;
        if (refills(palette, given)) return n;
    }
    return 0;
}

// The entries to write so that the reader's filling-in of the others
// (linear between neighbouring given entries, round the end) recreates
// them exactly: a palette of a few given colours is written as given, and
// an entry no decimal reaches need not be written when it lies between two.
// Greedy: from a written entry, the next one is the farthest that leaves
// every entry in between as the filling-in computes it.
std::array<bool, 256> palette_knots(const std::array<RGBA, 256>& palette, const std::array<ColorValues, 256>& values) {
    // p < q ≤ p + 256 count round the end, as the filling-in does.
    auto fills_between = [&](int p, int q) {
        const RGBA& a = palette[p % 256];
        const RGBA& b = palette[q % 256];
        for (int j = p + 1; j < q; ++j) {
            const double t = (j - p) / static_cast<double>(q - p);
            const RGBA& c = palette[j % 256];
            if (c.r != a.r * (1.0 - t) + b.r * t || c.g != a.g * (1.0 - t) + b.g * t ||
                c.b != a.b * (1.0 - t) + b.b * t || c.a != a.a * (1.0 - t) + b.a * t)
                return false;
        }
        return true;
    };
    // The first written entry must be one of the palette's own corners, else
    // the greedy walk puts entries no decimal reaches in between; so each
    // exactly writable entry is tried as the start until one needs nothing
    // inexact (and the last entry in any case, so a palette with none is walked). Walks fail fast on arbitrary palettes, so this stays cheap.
    std::array<bool, 256> best;
    best.fill(true);
    int best_inexact = 257;
    for (int start = 0; start < 256 && best_inexact > 0; ++start) {
        if (!values[start].exact && start != 255) continue;
        std::array<bool, 256> given{};
        given[start] = true;
        for (int p = start; p < start + 256;) {
            int next = p + 1;
            for (int q = p + 2; q <= start + 256; ++q)
                if ((q == start + 256 || values[q % 256].exact) && fills_between(p, q)) next = q;
            if (next < start + 256) given[next % 256] = true;
            p = next;
        }
        int inexact = 0;
        for (int i = 0; i < 256; ++i) inexact += given[i] && !values[i].exact;
        if (inexact < best_inexact && refills(palette, given)) {
            best = given;
            best_inexact = inexact;
        }
    }
    return best;
}

void write_hex_palette(pugi::xml_node flame, const std::array<RGBA, 256>& palette, int count) {
    bool opaque = true;
    for (int i = 0; i < count; ++i) opaque = opaque && palette[i].a == 1.0;
    pugi::xml_node node = flame.append_child("palette");
    set(node, "count", std::to_string(count));
    set(node, "format", opaque ? "RGB" : "RGBA");
    std::string data = "\n";
    char hex[12];
    for (int i = 0; i < count; ++i) {
        const RGBA& c = palette[i];
        if (opaque)
            std::snprintf(hex, sizeof hex, "%02X%02X%02X", hex_byte(c.r), hex_byte(c.g), hex_byte(c.b));
        else
            std::snprintf(hex, sizeof hex, "%02X%02X%02X%02X", hex_byte(c.r), hex_byte(c.g), hex_byte(c.b),
                          hex_byte(c.a));
        if (i % 8 == 0) data += "      ";
        data += hex;
        if (i % 8 == 7 || i == count - 1) data += "\n";
    }
    data += "    ";
    node.append_child(pugi::node_pcdata).set_value(data.c_str());
}

void write_palette(pugi::xml_node flame, const Flame& f, const Where& w) {
    const std::array<RGBA, 256>& palette = f.palette;
    // A hex palette when its values are 8-bit (hex is not premultiplied,
    // unlike <color>, so it also keeps a colour under alpha 0).
    if (const int count = hex_entries(palette)) {
        write_hex_palette(flame, palette, count);
        return;
    }
    std::array<ColorValues, 256> values;
    for (int i = 0; i < 256; ++i) values[i] = color_values(palette[i]);
    const std::array<bool, 256> given = palette_knots(palette, values);
    for (int i = 0; i < 256; ++i) {
        if (!given[i]) continue;
        const ColorValues& v = values[i];
        const Where where{w.flame, w.flame_index, "<color " + std::to_string(i) + ">"};
        pugi::xml_node node = flame.append_child("color");
        // index first: flam3 forgets an alpha given before it.
        set(node, "index", std::to_string(i));
        if (v.alpha == 255)
            set(node, "rgb", numbers({v.rgb[0], v.rgb[1], v.rgb[2]}, where, "rgb"));
        else
            set(node, "rgba", numbers({v.rgb[0], v.rgb[1], v.rgb[2], v.alpha}, where, "rgba"));
    }
}

// ---- symmetry --------------------------------------------------------------

bool same_xform(const Xform& a, const Xform& b) {
    if (a.weight != b.weight || a.color != b.color || a.color_speed != b.color_speed || a.opacity != b.opacity ||
        a.animate != b.animate || a.direct_color != b.direct_color || !(a.affine == b.affine) ||
        !(a.post == b.post) || a.chaos != b.chaos || a.variations.size() != b.variations.size() ||
        !a.motions.empty() || !b.motions.empty())
        return false;
    for (size_t i = 0; i < a.variations.size(); ++i) {
        const VariationUse& u = a.variations[i];
        const VariationUse& v = b.variations[i];
        if (!(u.slot() == v.slot()) || u.weight != v.weight || u.params != v.params) return false;
    }
    return true;
}

// Where the xforms of <symmetry kind=f.symmetry> sit in f.xforms, exactly as
// the reader adds them, so that a <symmetry> element there recreates them;
// -1 when they are not there as such. `count` gets how many there are.
int symmetry_position(const Flame& f, int* count) {
    *count = 0;
    if (f.symmetry == 0 || f.symmetry == 1) return -1;
    flam3_read::XformList generated;
    flam3_read::add_symmetry(generated, f.symmetry);
    const int m = static_cast<int>(generated.xforms.size());
    const int n = static_cast<int>(f.xforms.size());
    for (int p = n - m; p >= 0; --p) {  // the last <symmetry> of a file sets the field
        bool match = true;
        for (int k = 0; k < m && match; ++k) match = same_xform(f.xforms[p + k], generated.xforms[k]);
        if (match) {
            *count = m;
            return p;
        }
    }
    return -1;
}

// ---- genealogy -------------------------------------------------------------

// The flame's <edit> element as it was read, after the palette where flam3
// puts it. flam3-genome wraps it in a new <edit> only when it makes a new
// genome (clone, mutate, cross); a flame that is only re-written (convert, a
// rendered PNG's flam3_genome) is the same genome, so its genealogy goes out
// unchanged, as flam3-genome's clone_all re-prints it. (flam3-render leaves it
// out of the PNG; keeping it there costs little and keeps the image's
// provenance.) Unlike flam3, which prints attribute values unescaped, the
// text is escaped, so the result is always well-formed XML.
void write_edit(pugi::xml_node flame, const Flame& f, int index) {
    if (f.edit.empty()) return;
    pugi::xml_document edit;
    const pugi::xml_parse_result parsed = edit.load_buffer(f.edit.data(), f.edit.size());
    const pugi::xml_node root = edit.document_element();
    if (!parsed || std::strcmp(root.name(), "edit") != 0 || root.next_sibling())
        throw std::invalid_argument("cannot write flame " + std::to_string(index) +
                                    (f.name.empty() ? "" : " \"" + f.name + "\"") +
                                    ": its edit is not one well-formed <edit> element");
    flame.append_copy(root);
}

void write_flame(pugi::xml_node parent, const Flame& f, int index) {
    pugi::xml_node node = parent.append_child("flame");
    write_flame_attributes(node, f, Where{f, index, "<flame>"});
    const bool fractorium = fractorium_names(f);
    int symmetric = 0;
    const int at = symmetry_position(f, &symmetric);
    for (int i = 0; i < static_cast<int>(f.xforms.size()); ++i) {
        if (i == at) {
            set(node.append_child("symmetry"), "kind", std::to_string(f.symmetry));
            i += symmetric - 1;
            continue;
        }
        write_xform(node.append_child("xform"), f.xforms[i], false, fractorium,
                    Where{f, index, "<xform " + std::to_string(i) + ">"});
    }
    // Last, so no final xform is in the reader's list while a symmetry is added.
    if (f.has_final)
        write_xform(node.append_child("finalxform"), f.final_xform, true, fractorium, Where{f, index, "<finalxform>"});
    write_palette(node, f, Where{f, index, "palette"});
    write_edit(node, f, index);
}


}  // namespace

std::string write_flam3_string(const std::vector<Flame>& flames) {
    pugi::xml_document doc;
    if (flames.size() == 1) {
        write_flame(doc, flames[0], 0);
    } else {
        pugi::xml_node all = doc.append_child("flames");
        for (size_t i = 0; i < flames.size(); ++i) write_flame(all, flames[i], static_cast<int>(i));
    }
    std::ostringstream out;
    doc.save(out, "  ", pugi::format_indent | pugi::format_no_declaration);
    return out.str();
}

std::string write_flam3_string(const Flame& flame) { return write_flam3_string(std::vector<Flame>{flame}); }

void write_flam3_file(const std::string& path, const std::vector<Flame>& flames) {
    write_file_atomically(path, write_flam3_string(flames));
}

}  // namespace fj
