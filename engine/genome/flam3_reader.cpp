// flamejit — reads flam3 genome files (XML) into Flames.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flam3_reader.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <iostream>
#include <map>
#include <sstream>
#include <string_view>
#include <vector>

#include <pugixml.hpp>

#include "errors.h"
#include "genome/flam3_palette_reader.h"
#include "genome/genome_text.h"
#include "genome/flam3_read_context.h"
#include "genome/flam3_xform_reader.h"
#include "genome/palette_library.h"
#include "genome/sequence.h"

namespace fj {
namespace {

// Fractorium's own rule for its files: "ember" anywhere in the version, in
// any case (it writes EMBER-1.0.0.x).
bool written_by_fractorium(std::string_view version) {
    std::string lower(version);
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return lower.find("ember") != std::string::npos;
}

using flam3_read::ReadContext;
using flam3_read::parse_double;
using flam3_read::parse_doubles;
using flam3_read::parse_int;
using flam3_read::quote;

constexpr size_t kFlam3NameLength = 64;
// libxml2, and so flam3, refuses elements nested deeper than this. Deeper
// <edit> chains would cost the writers time and space quadratic in the depth.
constexpr int kMaxElementDepth = 256;

// An enumerated attribute: flam3 warns about an unknown value and keeps the default.
template <typename E>
void read_choice(const ReadContext& ctx, const char* attribute, const char* value,
                 std::initializer_list<std::pair<const char*, E>> choices, E* out) {
    for (const auto& [text, e] : choices)
        if (std::strcmp(text, value) == 0) {
            *out = e;
            return;
        }
    std::cerr << "warning: " << ctx.file << ": flame " << ctx.flame_index << ": unknown " << attribute
              << " " << quote(value) << ", keeping the default\n";
}

// flam3 truncates names and turns whitespace into '_' (all but the last character).
std::string flam3_name(const std::string& raw) {
    std::string name = raw.substr(0, kFlam3NameLength);
    for (size_t i = 0; i + 1 < name.size(); ++i)
        if (std::isspace(static_cast<unsigned char>(name[i]))) name[i] = '_';
    return name;
}

// Fractorium's colour curves, read as Fractorium reads them: `curves` (from
// Apophysis) sets all four from four points each (x, y and a weight, which
// nothing uses); overall_curve, red_curve, green_curve and blue_curve set one
// from pairs x y. A later attribute replaces what an earlier one set.
// Coordinates are clamped to [0, 1] and points sorted by x, and an end point
// given twice (0 0 0 0 first, or 1 1 1 1 third and fourth, as Fractorium
// writes a curve of four points) has its copy moved a quarter of the way in.
void read_curves(const ReadContext& ctx, const std::string& where, const std::string& name, const char* v,
                 ColorCurves& curves) {
    using Point = ColorCurves::Point;
    const std::vector<double> c = parse_doubles(ctx, where, v);
    const auto by_x = [](const Point& a, const Point& b) { return a[0] < b[0]; };
    const auto set = [&](int index, std::vector<Point> points) {
        if (points.size() < 2) ctx.fail(where, "a colour curve needs at least 2 points");
        for (Point& p : points)
            for (double& u : p) u = std::clamp(u, 0.0, 1.0);
        std::stable_sort(points.begin(), points.end(), by_x);
        if (points[0] == Point{0, 0} && points[1] == Point{0, 0}) points[1] = {0.25, 0.25};
        if (points.size() >= 4 && points[2] == Point{1, 1} && points[3] == Point{1, 1}) points[3] = {0.75, 0.75};
        std::stable_sort(points.begin(), points.end(), by_x);
        for (size_t i = 1; i < points.size(); ++i)
            if (points[i][0] == points[i - 1][0])
                ctx.fail(where, "two points of a colour curve at x = " + message_number(points[i][0]));
        curves.points[index] = std::move(points);
    };
    if (name == "curves") {
        if (c.size() != 48)
            ctx.fail(where, "expected 48 numbers (4 curves of 4 points x y weight), got " + std::to_string(c.size()));
        for (int k = 0; k < 4; ++k) {
            std::vector<Point> points;
            for (int j = 0; j < 4; ++j) points.push_back({c[12 * k + 3 * j], c[12 * k + 3 * j + 1]});
            set(k, std::move(points));
        }
        return;
    }
    if (c.size() % 2 != 0) ctx.fail(where, "expected pairs of numbers (x y), got " + std::to_string(c.size()));
    std::vector<Point> points;
    for (size_t i = 0; i + 1 < c.size(); i += 2) points.push_back({c[i], c[i + 1]});
    const int index = name == "overall_curve" ? 0 : name == "red_curve" ? 1 : name == "green_curve" ? 2 : 3;
    set(index, std::move(points));
}

void read_flame_attributes(const ReadContext& ctx, const pugi::xml_node& element, Flame& f, int* solo) {
    for (pugi::xml_attribute attr : element.attributes()) {
        const std::string name = attr.name();
        const char* v = attr.value();
        const std::string where = "attribute \"" + name + "\"";
        auto number = [&] { return parse_double(ctx, where, v); };
        auto integer = [&] { return parse_int(ctx, where, v); };
        if (name == "time") f.time = number();
        else if (name == "size") {
            const std::vector<double> s = parse_doubles(ctx, where, v, 2);
            for (double d : s)
                if (d != std::floor(d) || d < 1 || d > kMaxImageSide)
                    ctx.fail(where, quote(v) + ": width and height must be whole numbers in 1.." +
                                        std::to_string(kMaxImageSide));
            f.width = static_cast<int>(s[0]);
            f.height = static_cast<int>(s[1]);
        } else if (name == "center") {
            const std::vector<double> c = parse_doubles(ctx, where, v, 2);
            f.center_x = c[0];
            f.center_y = c[1];
        } else if (name == "scale") f.scale = number();
        else if (name == "zoom") f.zoom = number();
        else if (name == "rotate") f.rotate = number();
        else if (name == "supersample" || name == "oversample") f.supersample = integer();
        else if (name == "filter") f.filter_radius = number();
        else if (name == "filter_shape") {
            using S = FilterShape;
            read_choice(ctx, "filter_shape", v,
                        {{"gaussian", S::Gaussian}, {"hermite", S::Hermite}, {"box", S::Box},
                         {"triangle", S::Triangle}, {"bell", S::Bell}, {"bspline", S::Bspline},
                         {"mitchell", S::Mitchell}, {"blackman", S::Blackman}, {"catrom", S::Catrom},
                         {"hanning", S::Hanning}, {"hamming", S::Hamming}, {"lanczos3", S::Lanczos3},
                         {"lanczos2", S::Lanczos2}, {"quadratic", S::Quadratic}},
                        &f.filter_shape);
        } else if (name == "quality") f.quality = number();
        else if (name == "passes") f.passes = integer();
        else if (name == "temporal_samples") f.temporal_samples = integer();
        else if (name == "temporal_filter_type") {
            using T = TemporalFilter;
            read_choice(ctx, "temporal_filter_type", v, {{"box", T::Box}, {"gaussian", T::Gaussian}, {"exp", T::Exp}},
                        &f.temporal_filter_type);
        } else if (name == "temporal_filter_width") f.temporal_filter_width = number();
        else if (name == "temporal_filter_exp") f.temporal_filter_exp = number();
        else if (name == "background") {
            const std::vector<double> b = parse_doubles(ctx, where, v, 3);
            for (int i = 0; i < 3; ++i) f.background[i] = b[i];
        } else if (name == "brightness") f.brightness = number();
        else if (name == "gamma") f.gamma = number();
        else if (name == "gamma_threshold") f.gamma_threshold = number();
        else if (name == "vibrancy") f.vibrancy = number();
        else if (name == "highlight_power") f.highlight_power = number();
        else if (name == "estimator_radius") f.estimator_radius = number();
        else if (name == "estimator_minimum") f.estimator_minimum = number();
        else if (name == "estimator_curve") f.estimator_curve = number();
        else if (name == "palette") f.palette_index = integer();
        else if (name == "hue") f.hue = std::fmod(number(), 1.0);
        else if (name == "palette_mode") {
            read_choice(ctx, "palette_mode", v, {{"step", PaletteMode::Step}, {"linear", PaletteMode::Linear}},
                        &f.palette_mode);
        } else if (name == "interpolation") {
            read_choice(ctx, "interpolation", v,
                        {{"linear", Interpolation::Linear}, {"smooth", Interpolation::Smooth}}, &f.interpolation);
        } else if (name == "interpolation_type" || name == "interpolation_space") {
            using A = AffineInterpolation;
            read_choice(ctx, "interpolation_type", v,
                        {{"linear", A::Linear}, {"log", A::Log}, {"old", A::Old}, {"older", A::Older}},
                        &f.interpolation_type);
        } else if (name == "palette_interpolation") {
            using P = PaletteInterpolation;
            read_choice(ctx, "palette_interpolation", v,
                        {{"hsv", P::Hsv}, {"sweep", P::Sweep}, {"rgb", P::Rgb}, {"hsv_circular", P::HsvCircular}},
                        &f.palette_interpolation);
        } else if (name == "hsv_rgb_palette_blend") f.hsv_rgb_palette_blend = number();
        else if (name == "soloxform") {
            // flam3 reads it as a real and converts; on x86 a value past int's
            // range becomes INT_MIN, which means no solo.
            const double s = number();
            *solo = s > -1 && s < 2147483648.0 ? static_cast<int>(s) : -1;
        } else if (name == "cam_zpos" || name == "cam_persp" || name == "cam_perspective" || name == "cam_yaw" ||
                   name == "cam_pitch" || name == "cam_dof") {
            // Fractorium's (and Apophysis's) 3D camera: any of these away
            // from 0 projects the points' z, which flamejit does not keep.
            if (number() != 0)
                ctx.unsupported(where, "Fractorium's 3D camera (" + name + " " + quote(v) + ") is not rendered");
        } else if (name == "curves" || name == "overall_curve" || name == "red_curve" || name == "green_curve" ||
                   name == "blue_curve") {
            read_curves(ctx, where, name, v, f.curves);
        }
        // Anything else (name, version, url, nick, …) is ignored, as flam3 does.
    }
    if (f.supersample < 1) ctx.fail("attribute \"supersample\"", "must be at least 1");
    if (f.passes < 1) ctx.fail("attribute \"passes\"", "must be at least 1");
    if (f.temporal_samples < 1) ctx.fail("attribute \"temporal_samples\"", "must be at least 1");
    if (f.quality < 0) ctx.fail("attribute \"quality\"", "must not be negative");
}

}  // namespace

namespace {

// `time` is the one value flam3 does not reset between flames: a flame that
// gives none takes the previous flame's.
Flame read_flame(const ReadContext& ctx, const pugi::xml_node& element, const std::string& library,
                 double previous_time) {
    Flame f;
    f.name = ctx.flame_name;
    f.time = previous_time;
    if (!element.first_attribute()) ctx.fail("<flame>", "element has no attributes");
    int solo = -1;
    read_flame_attributes(ctx, element, f, &solo);

    flam3_read::XformList list;
    flam3_read::PaletteBuilder palette;
    std::vector<flam3_read::ChaosEntry> chaos;
    for (pugi::xml_node child : element.children()) {
        if (child.type() != pugi::node_element) continue;
        const std::string tag = child.name();
        if (tag == "xform") {
            const int index = list.standard_count();
            flam3_read::read_xform(ctx, child, false, index, list.add_standard(), &chaos);
        } else if (tag == "finalxform") {
            if (list.has_final) ctx.fail("<finalxform>", "a flame has at most one final xform");
            Xform& xf = list.add_final();
            flam3_read::read_xform(ctx, child, true, 0, xf, nullptr);
            if (xf.weight != 0) ctx.fail("<finalxform> attribute \"weight\"", "a final xform has no weight");
        } else if (tag == "symmetry") {
            int kind = 0;
            bool given = false;
            for (pugi::xml_attribute attr : child.attributes()) {
                const std::string where = "<symmetry> attribute \"" + std::string(attr.name()) + "\"";
                if (std::string(attr.name()) != "kind") ctx.fail(where, "unknown attribute");
                kind = parse_int(ctx, where, attr.value());
                given = true;
            }
            // flam3 picks a random symmetry for kind 0, which no reader can reproduce.
            if (!given || kind == 0) ctx.fail("<symmetry>", "needs a kind other than 0");
            // A kind adds |kind| - 1 xforms (|kind| when mirrored).
            if (kind < -kMaxXforms || kind > kMaxXforms)
                ctx.fail("<symmetry> attribute \"kind\"", "must be in -" + std::to_string(kMaxXforms) + ".." +
                                                            std::to_string(kMaxXforms) + ", not " + std::to_string(kind));
            flam3_read::add_symmetry(list, kind);
            if (kind != 1) f.symmetry = kind;
            // Each <symmetry> adds up to 255 xforms: a few kilobytes of them
            // would take gigabytes before the count below could refuse them.
            if (list.standard_count() > kMaxXforms)
                ctx.fail("<symmetry> attribute \"kind\"",
                         "brings the flame to " + std::to_string(list.standard_count()) + " xforms; at most " +
                             std::to_string(kMaxXforms) + " can be rendered");
        } else if (tag == "color" || tag == "colors" || tag == "palette") {
            flam3_read::read_palette_element(ctx, child, library, &palette);
        } else if (tag == "edit") {
            // Genealogy, kept whole for the writers. Compact: the parser has
            // already dropped comments and whitespace between elements, so
            // the text does not depend on the file's layout. Of several,
            // flam3 keeps the last.
            std::ostringstream edit;
            child.print(edit, "", pugi::format_raw);
            f.edit = edit.str();
        }
        // Anything else does not affect the image.
    }

    const int n = list.standard_count();
    if (n == 0) ctx.fail("<flame>", "has no <xform>");
    if (n > kMaxXforms)
        ctx.fail("<flame>", "has " + std::to_string(n) + " xforms (its symmetry's included); at most " +
                                std::to_string(kMaxXforms) + " can be rendered");
    double total = 0;
    for (int i = 0; i < n; ++i) {
        const double w = list.xforms[i].weight;
        if (w < 0) ctx.fail("<xform " + std::to_string(i) + "> attribute \"weight\"", "must not be negative");
        total += w;
    }
    if (!(total > 0)) ctx.fail("<flame>", "the weights of its xforms add up to 0");
    for (const auto& e : chaos) {
        if (e.to >= n)
            ctx.fail("<xform " + std::to_string(e.from) + "> attribute \"chaos\"",
                     "has " + std::to_string(e.to + 1) + " or more entries but the flame has " + std::to_string(n) +
                         " xforms");
        std::vector<double>& row = list.xforms[e.from].chaos;
        if (row.empty()) row.assign(n, 1.0);
        row[e.to] = e.value;
    }
    for (int i = 0; i < n; ++i) {
        std::vector<double>& row = list.xforms[i].chaos;
        if (!row.empty()) row.resize(n, 1.0);  // symmetry may add xforms after the row was read
        if (solo >= 0 && i != solo) list.xforms[i].opacity = 0;
    }
    if (list.has_final) {
        f.has_final = true;
        f.final_xform = std::move(list.xforms.back());
        list.xforms.pop_back();
    }
    f.xforms = std::move(list.xforms);

    if (f.palette_index != -1) {
        try {
            palette.colors = library_palette(library, f.palette_index, f.hue);
        } catch (const std::runtime_error& e) {
            ctx.fail("attribute \"palette\"", e.what());
        }
        palette.present.fill(true);
    }
    fill_missing_palette_entries(palette.colors, palette.present);
    check_palette_range(ctx, palette.colors);
    f.palette = palette.colors;
    return f;
}

void collect_flames(const pugi::xml_node& node, std::vector<pugi::xml_node>* out) {
    for (pugi::xml_node child : node.children()) {
        if (child.type() != pugi::node_element) continue;
        if (std::strcmp(child.name(), "flame") == 0) out->push_back(child);
        else collect_flames(child, out);
    }
}

std::pair<int, int> line_and_column(const std::string& text, ptrdiff_t offset) {
    int line = 1, column = 1;
    for (ptrdiff_t i = 0; i < offset && i < static_cast<ptrdiff_t>(text.size()); ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return {line, column};
}

// Parses `text` into `doc` with the checks libxml2 makes for flam3 that
// pugixml leaves out: elements nested at most kMaxElementDepth deep, no
// attribute given twice in one element. Returns the <flame> elements, in
// document order, at any depth.
std::vector<pugi::xml_node> parse_document(const ReadContext& ctx, const std::string& text, pugi::xml_document& doc) {
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) ctx.fail("", "file is empty");
    for (char c : text) {
        const unsigned char u = static_cast<unsigned char>(c);
        if (u < 0x20 && c != '\n' && c != '\r' && c != '\t') ctx.fail("", "binary data, not an XML genome");
    }
    const pugi::xml_parse_result parsed = doc.load_buffer(text.data(), text.size());
    const auto at = [&](ptrdiff_t offset) {
        const auto [line, column] = line_and_column(text, offset);
        return "line " + std::to_string(line) + ", column " + std::to_string(column);
    };
    if (!parsed) ctx.fail(at(parsed.offset), std::string("not well-formed XML: ") + parsed.description());
    struct Walker : pugi::xml_tree_walker {
        int deepest = 0;
        pugi::xml_node twice;  // the first element with an attribute given twice
        std::string twice_name;
        std::vector<std::string_view> names;  // reused: sequences hold millions of elements
        bool for_each(pugi::xml_node& node) override {
            if (node.type() != pugi::node_element) return true;
            deepest = std::max(deepest, depth());
            names.clear();
            for (pugi::xml_attribute a : node.attributes()) names.push_back(a.name());
            std::sort(names.begin(), names.end());
            if (const auto same = std::adjacent_find(names.begin(), names.end()); same != names.end()) {
                twice = node;
                twice_name = *same;
                return false;
            }
            return deepest <= kMaxElementDepth;
        }
    } walker;
    doc.traverse(walker);
    if (walker.deepest > kMaxElementDepth)
        ctx.fail("", "elements nest more than " + std::to_string(kMaxElementDepth) + " deep");
    if (walker.twice)  // pugixml's offset is the element name's, after its '<'
        ctx.fail(at(walker.twice.offset_debug() - 1), "<" + std::string(walker.twice.name()) + "> gives attribute " +
                                                      quote(walker.twice_name) + " twice");
    std::vector<pugi::xml_node> elements;
    collect_flames(doc, &elements);
    if (elements.empty()) ctx.fail("", "no <flame> element");
    return elements;
}

}  // namespace

std::vector<Flame> read_flam3_string(const std::string& text, const std::string& file, const ReadOptions& options,
                                     std::vector<FlameSource>* sources) {
    std::set<std::string> warned;
    ReadContext ctx{file, -1, "", &options, &warned};
    pugi::xml_document doc;
    const std::vector<pugi::xml_node> elements = parse_document(ctx, text, doc);

    const std::string library = options.palette_file.empty() ? default_palette_file() : options.palette_file;
    std::vector<Flame> flames;
    for (size_t i = 0; i < elements.size(); ++i) {
        ctx.flame_index = static_cast<int>(i);
        ctx.flame_name = flam3_name(elements[i].attribute("name").value());
        ctx.fractorium = written_by_fractorium(elements[i].attribute("version").value());
        flames.push_back(read_flame(ctx, elements[i], library, flames.empty() ? 0.0 : flames.back().time));
        if (sources) {
            std::ostringstream xml;
            elements[i].print(xml, "  ");
            sources->push_back({file, static_cast<int>(i), xml.str()});
        }
    }

    apply_sequence_fixups(flames, options.loop);  // flam3_parse_xml2's fix-ups across the sequence
    return flames;
}

std::vector<Flame> read_flam3_file(const std::string& path, const ReadOptions& options,
                                   std::vector<FlameSource>* sources) {
    return read_flam3_string(read_genome_file(path), path, options, sources);
}

FlameTemplate read_flam3_template_string(const std::string& text, const std::string& file) {
    std::set<std::string> warned;
    const ReadOptions options;
    ReadContext ctx{file, -1, "", &options, &warned};
    pugi::xml_document doc;
    const std::vector<pugi::xml_node> elements = parse_document(ctx, text, doc);
    const pugi::xml_node element = elements.front();
    ctx.flame_index = 0;
    ctx.flame_name = flam3_name(element.attribute("name").value());
    FlameTemplate t;
    t.file = file;
    t.flames = static_cast<int>(elements.size());
    int solo = -1;
    read_flame_attributes(ctx, element, t.values, &solo);
    // flam3's names for what a template sets, with the readers' other spellings.
    static const std::map<std::string, std::string> settings = {
        {"size", "size"}, {"background", "background"}, {"zoom", "zoom"}, {"supersample", "supersample"},
        {"oversample", "supersample"}, {"filter", "filter"}, {"filter_shape", "filter_shape"}, {"quality", "quality"},
        {"passes", "passes"}, {"temporal_samples", "temporal_samples"}, {"estimator_radius", "estimator_radius"},
        {"estimator_minimum", "estimator_minimum"}, {"estimator_curve", "estimator_curve"},
        {"gamma_threshold", "gamma_threshold"}, {"highlight_power", "highlight_power"},
        {"palette_mode", "palette_mode"}, {"interpolation", "interpolation"},
        {"interpolation_type", "interpolation_type"}, {"interpolation_space", "interpolation_type"},
        {"palette_interpolation", "palette_interpolation"}, {"hsv_rgb_palette_blend", "hsv_rgb_palette_blend"},
        {"temporal_filter_type", "temporal_filter_type"}, {"temporal_filter_width", "temporal_filter_width"},
        {"temporal_filter_exp", "temporal_filter_exp"}};
    for (pugi::xml_attribute attr : element.attributes()) {
        const auto setting = settings.find(attr.name());
        if (setting != settings.end()) t.given.insert(setting->second);
        else t.ignored.push_back(attr.name());
    }
    return t;
}

FlameTemplate read_flam3_template(const std::string& path) {
    return read_flam3_template_string(read_genome_file(path), path);
}

std::vector<std::string> flam3_flame_elements(const std::string& path) {
    pugi::xml_document doc;
    std::vector<std::string> out;
    if (!doc.load_file(path.c_str())) return out;
    for (const pugi::xpath_node& n : doc.select_nodes("//flame")) {
        std::ostringstream s;
        n.node().print(s);
        out.push_back(s.str());
    }
    return out;
}

}  // namespace fj
