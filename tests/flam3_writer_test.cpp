// flamejit — the flam3 XML writer: round trips through our reader and libflam3's,
// genomes embedded in rendered PNGs, and `flamejit convert`.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "flam3_oracle.h"
#include "codegen/variation_registry.h"
#include "genome/cuburn_reader.h"
#include "genome/flam3_reader.h"
#include "genome/flam3_writer.h"
#include "genome/interpolate.h"
#include "test_support.h"

using fj::test::Flam3Genomes;
using fj::test::run_command;

namespace {

using fj::test::quoted;

// Every difference between two Flames, one line each; values compare with
// == (exact), palette components within `palette_ulps` units in the last place.
class Differences {
public:
    explicit Differences(int palette_ulps = 0) : palette_ulps_(palette_ulps) {}
    void flames(const fj::Flame& a, const fj::Flame& b);
    const std::vector<std::string>& lines() const { return lines_; }
    std::string text() const {
        std::string s;
        for (size_t i = 0; i < lines_.size() && i < 12; ++i) s += "\n  " + lines_[i];
        return s;
    }

private:
    void value(const std::string& what, double a, double b) {
        if (a == b) return;
        std::ostringstream s;
        s.precision(17);
        s << what << ": " << a << " vs " << b;
        lines_.push_back(s.str());
    }
    void affine(const std::string& what, const fj::AffineD& a, const fj::AffineD& b) {
        const double x[6] = {a.a, a.b, a.c, a.d, a.e, a.f}, y[6] = {b.a, b.b, b.c, b.d, b.e, b.f};
        for (int k = 0; k < 6; ++k) value(what + "[" + std::to_string(k) + "]", x[k], y[k]);
    }
    void xform(const std::string& where, const fj::Xform& a, const fj::Xform& b, size_t n);
    int palette_ulps_;
    std::vector<std::string> lines_;
};

// Zero weights read as absent, and a missing chaos entry as 1: both mean the same.
std::vector<fj::VariationUse> used(const fj::Xform& xf) {
    std::vector<fj::VariationUse> out;
    for (const auto& u : xf.variations)
        if (u.weight != 0) out.push_back(u);
    return out;
}

void Differences::xform(const std::string& where, const fj::Xform& a, const fj::Xform& b, size_t n) {
    value(where + " weight", a.weight, b.weight);
    value(where + " color", a.color, b.color);
    value(where + " color_speed", a.color_speed, b.color_speed);
    value(where + " opacity", a.opacity, b.opacity);
    value(where + " animate", a.animate, b.animate);
    affine(where + " coefs", a.affine, b.affine);
    affine(where + " post", a.post, b.post);
    const auto ua = used(a), ub = used(b);
    value(where + " variation count", static_cast<double>(ua.size()), static_cast<double>(ub.size()));
    for (size_t i = 0; i < std::min(ua.size(), ub.size()); ++i) {
        const std::string v = where + " variation " + std::to_string(i);
        value(v + " id", ua[i].id, ub[i].id);
        value(v + " weight", ua[i].weight, ub[i].weight);
        value(v + " parameter count", static_cast<double>(ua[i].params.size()), static_cast<double>(ub[i].params.size()));
        for (size_t p = 0; p < std::min(ua[i].params.size(), ub[i].params.size()); ++p)
            value(v + " parameter " + std::to_string(p), ua[i].params[p], ub[i].params[p]);
    }
    for (size_t j = 0; j < n; ++j)
        value(where + " chaos " + std::to_string(j), j < a.chaos.size() ? a.chaos[j] : 1.0,
              j < b.chaos.size() ? b.chaos[j] : 1.0);
}

void Differences::flames(const fj::Flame& a, const fj::Flame& b) {
    if (a.name != b.name) lines_.push_back("name: \"" + a.name + "\" vs \"" + b.name + "\"");
    value("time", a.time, b.time);
    value("width", a.width, b.width);
    value("height", a.height, b.height);
    value("center_x", a.center_x, b.center_x);
    value("center_y", a.center_y, b.center_y);
    value("scale", a.scale, b.scale);
    value("zoom", a.zoom, b.zoom);
    value("rotate", a.rotate, b.rotate);
    value("supersample", a.supersample, b.supersample);
    value("filter", a.filter_radius, b.filter_radius);
    value("filter_shape", static_cast<int>(a.filter_shape), static_cast<int>(b.filter_shape));
    value("quality", a.quality, b.quality);
    value("passes", a.passes, b.passes);
    value("temporal_samples", a.temporal_samples, b.temporal_samples);
    for (int i = 0; i < 3; ++i) value("background " + std::to_string(i), a.background[i], b.background[i]);
    value("brightness", a.brightness, b.brightness);
    value("gamma", a.gamma, b.gamma);
    value("gamma_threshold", a.gamma_threshold, b.gamma_threshold);
    value("vibrancy", a.vibrancy, b.vibrancy);
    value("highlight_power", a.highlight_power, b.highlight_power);
    value("estimator_radius", a.estimator_radius, b.estimator_radius);
    value("estimator_minimum", a.estimator_minimum, b.estimator_minimum);
    value("estimator_curve", a.estimator_curve, b.estimator_curve);
    value("palette_mode", static_cast<int>(a.palette_mode), static_cast<int>(b.palette_mode));
    value("palette_index", a.palette_index, b.palette_index);
    value("hue", a.hue, b.hue);
    value("symmetry", a.symmetry, b.symmetry);
    value("interpolation", static_cast<int>(a.interpolation), static_cast<int>(b.interpolation));
    value("interpolation_type", static_cast<int>(a.interpolation_type), static_cast<int>(b.interpolation_type));
    value("palette_interpolation", static_cast<int>(a.palette_interpolation), static_cast<int>(b.palette_interpolation));
    value("hsv_rgb_palette_blend", a.hsv_rgb_palette_blend, b.hsv_rgb_palette_blend);
    value("temporal_filter_type", static_cast<int>(a.temporal_filter_type), static_cast<int>(b.temporal_filter_type));
    value("temporal_filter_width", a.temporal_filter_width, b.temporal_filter_width);
    value("temporal_filter_exp", a.temporal_filter_exp, b.temporal_filter_exp);
    for (int i = 0; i < 256; ++i) {
        const double x[4] = {a.palette[i].r, a.palette[i].g, a.palette[i].b, a.palette[i].a};
        const double y[4] = {b.palette[i].r, b.palette[i].g, b.palette[i].b, b.palette[i].a};
        for (int k = 0; k < 4; ++k) {
            double lo = y[k], hi = y[k];
            for (int u = 0; u < palette_ulps_; ++u) {
                lo = std::nextafter(lo, -1.0);
                hi = std::nextafter(hi, 2.0);
            }
            if (x[k] < lo || x[k] > hi) value("palette " + std::to_string(i) + "." + std::to_string(k), x[k], y[k]);
        }
    }
    value("xform count", static_cast<double>(a.xforms.size()), static_cast<double>(b.xforms.size()));
    for (size_t i = 0; i < std::min(a.xforms.size(), b.xforms.size()); ++i)
        xform("xform " + std::to_string(i), a.xforms[i], b.xforms[i], a.xforms.size());
    value("has_final", a.has_final, b.has_final);
    if (a.has_final && b.has_final) xform("final", a.final_xform, b.final_xform, 0);
    if (a.edit != b.edit) lines_.push_back("edit: " + a.edit + " vs " + b.edit);
}

// Every difference between two genomes as libflam3 parsed them.
std::vector<std::string> flam3_differences(const flam3_genome& a, const flam3_genome& b) {
    std::vector<std::string> lines;
    auto value = [&](const std::string& what, double x, double y) {
        if (x == y) return;
        std::ostringstream s;
        s.precision(17);
        s << what << ": " << x << " vs " << y;
        lines.push_back(s.str());
    };
    if (std::string(a.flame_name) != b.flame_name) lines.push_back("name");
    value("time", a.time, b.time);
    value("width", a.width, b.width);
    value("height", a.height, b.height);
    for (int k = 0; k < 2; ++k) value("center", a.center[k], b.center[k]);
    value("scale", a.pixels_per_unit, b.pixels_per_unit);
    value("zoom", a.zoom, b.zoom);
    value("rotate", a.rotate, b.rotate);
    value("supersample", a.spatial_oversample, b.spatial_oversample);
    value("filter", a.spatial_filter_radius, b.spatial_filter_radius);
    value("filter_shape", a.spatial_filter_select, b.spatial_filter_select);
    value("quality", a.sample_density, b.sample_density);
    value("passes", a.nbatches, b.nbatches);
    value("temporal_samples", a.ntemporal_samples, b.ntemporal_samples);
    for (int k = 0; k < 3; ++k) value("background", a.background[k], b.background[k]);
    value("brightness", a.brightness, b.brightness);
    value("gamma", a.gamma, b.gamma);
    value("gamma_threshold", a.gam_lin_thresh, b.gam_lin_thresh);
    value("vibrancy", a.vibrancy, b.vibrancy);
    value("highlight_power", a.highlight_power, b.highlight_power);
    value("estimator_radius", a.estimator, b.estimator);
    value("estimator_minimum", a.estimator_minimum, b.estimator_minimum);
    value("estimator_curve", a.estimator_curve, b.estimator_curve);
    value("palette_mode", a.palette_mode, b.palette_mode);
    value("palette_index", a.palette_index, b.palette_index);
    value("hue", a.hue_rotation, b.hue_rotation);
    value("interpolation", a.interpolation, b.interpolation);
    value("interpolation_type", a.interpolation_type, b.interpolation_type);
    value("palette_interpolation", a.palette_interpolation, b.palette_interpolation);
    value("hsv_rgb_palette_blend", a.hsv_rgb_palette_blend, b.hsv_rgb_palette_blend);
    value("temporal_filter_type", a.temporal_filter_type, b.temporal_filter_type);
    value("temporal_filter_width", a.temporal_filter_width, b.temporal_filter_width);
    value("temporal_filter_exp", a.temporal_filter_exp, b.temporal_filter_exp);
    value("symmetry", a.symmetry, b.symmetry);
    for (int i = 0; i < 256; ++i)
        for (int k = 0; k < 4; ++k)
            value("palette " + std::to_string(i) + "." + std::to_string(k), a.palette[i].color[k], b.palette[i].color[k]);
    value("xform count", a.num_xforms, b.num_xforms);
    value("final index", a.final_xform_index, b.final_xform_index);
    if (a.num_xforms != b.num_xforms) return lines;
    const auto& fields = fj::test::flam3_param_fields();
    for (int i = 0; i < a.num_xforms; ++i) {
        const flam3_xform &x = a.xform[i], &y = b.xform[i];
        const std::string w = "xform " + std::to_string(i);
        value(w + " weight", x.density, y.density);
        value(w + " color", x.color, y.color);
        value(w + " color_speed", x.color_speed, y.color_speed);
        value(w + " animate", x.animate, y.animate);
        value(w + " opacity", x.opacity, y.opacity);
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 2; ++c) {
                value(w + " coefs", x.c[r][c], y.c[r][c]);
                value(w + " post", x.post[r][c], y.post[r][c]);
            }
        bool any_parametric = false;
        for (int v = 0; v < flam3_nvariations; ++v) {
            value(w + " var " + std::to_string(v), x.var[v], y.var[v]);
            any_parametric = any_parametric || (v >= 23 && x.var[v] != 0);
        }
        // Parameters of the variations in use (flam3 keeps the others as given).
        if (any_parametric)
            for (const auto& [name, offset] : fields) {
                const fj::VariationInfo* owner = nullptr;
                int index = 0;
                owner = fj::VariationRegistry::standard().param_owner(name, &index);
                if (!owner) owner = fj::VariationRegistry::standard().param_owner(
                    name.rfind("oscope_", 0) == 0 ? "oscilloscope_" + name.substr(7) : name, &index);
                if (!owner || x.var[owner->id] == 0) continue;
                value(w + " " + name, fj::test::flam3_param(x, static_cast<long>(offset)),
                      fj::test::flam3_param(y, static_cast<long>(offset)));
            }
        // Chaos rows exist for the standard xforms only.
        const int standard = a.num_xforms - (a.final_xform_index >= 0 ? 1 : 0);
        if (i == a.final_xform_index) continue;
        for (int j = 0; j < standard; ++j) value(w + " chaos", a.chaos[i][j], b.chaos[i][j]);
    }
    return lines;
}

std::string joined(const std::vector<std::string>& lines) {
    std::string s;
    for (size_t i = 0; i < lines.size() && i < 12; ++i) s += "\n  " + lines[i];
    return s;
}

std::vector<std::string> corpus_files() {
    std::vector<std::string> files;
    for (const char* dir : {"electric-sheep", "fractorium-examples"}) {
        const std::string path = fj::test::corpus_path(dir);
        if (!fj::test::corpus_present(dir)) return {};
        for (const auto& e : std::filesystem::directory_iterator(path)) files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());
    return files;
}

// `xml` with the names other renderers give flam3's variations (@also, e.g.
// Fractorium's Mobius and its Mobius_Re_A…) in flam3's spelling, which the
// writer uses: libflam3 knows only that one.
std::string flam3_spelling(std::string xml) {
    const auto rename = [&](const std::string& from, const std::string& to) {
        for (size_t at = 0; (at = xml.find(" " + from + "=\"", at)) != std::string::npos; at += to.size())
            xml.replace(at + 1, from.size(), to);
    };
    for (const fj::VariationInfo& v : fj::VariationRegistry::standard().all()) {
        for (const std::string& other : v.also) rename(other, v.name);
        for (const auto& [alias, param] : v.aliases)
            if (fj::test::other_renderers_alias(v.name, alias)) rename(alias, param);
    }
    return xml;
}

// Writes `flames`, reads them back with our reader and checks every value;
// then checks libflam3 reads our text as it reads `original_xml`, both in
// flam3's spelling (ours needs it only where it is in Fractorium's dialect,
// whose pre_ uses flam3 ignores, pre_gaussian_blur among them).
void check_round_trip(const std::string& label, const std::vector<fj::Flame>& flames, const std::string& original_xml) {
    const std::string written = fj::write_flam3_string(flames);
    std::vector<fj::Flame> again;
    try {
        again = fj::read_flam3_string(written, label + " (written)");
    } catch (const std::exception& e) {
        FAIL_CHECK(label << ": our reader rejects the written XML: " << e.what());
        return;
    }
    REQUIRE_MESSAGE(again.size() == flames.size(), label);
    for (size_t i = 0; i < flames.size(); ++i) {
        Differences d;
        d.flames(again[i], flames[i]);
        CHECK_MESSAGE(d.lines().empty(), label << " flame " << i << " reads back differently:" << d.text());
    }
    if (original_xml.empty()) return;
    Flam3Genomes theirs(flam3_spelling(original_xml), label);
    Flam3Genomes ours(flam3_spelling(written), label + " (written)");
    REQUIRE_MESSAGE(ours.count == theirs.count, label << ": libflam3 reads " << ours.count << " flames, " << theirs.count
                                                      << " from the original");
    for (int i = 0; i < ours.count; ++i) {
        const auto lines = flam3_differences(ours.cps[i], theirs.cps[i]);
        CHECK_MESSAGE(lines.empty(), label << " flame " << i << ": libflam3 reads ours differently:" << joined(lines));
    }
}

}  // namespace

TEST_CASE("writer: every corpus flame reads back exactly, and libflam3 reads it as it reads the original") {
    const auto files = corpus_files();
    int flames = 0, dropped = 0;
    for (const std::string& file : files) {
        CAPTURE(file);
        // Flame by flame, as its own document, so flam3's sequence fix-ups
        // treat original and copy alike. Unknown variations are dropped, as
        // flam3 drops them (with a warning), so libflam3 still reads both alike.
        fj::ReadOptions options;
        options.drop_unknown_variations = true;
        int i = 0;
        for (const std::string& xml : fj::flam3_flame_elements(file)) {
            const std::string label = std::filesystem::path(file).filename().string() + " #" + std::to_string(i++);
            std::vector<fj::Flame> parsed;
            try {
                parsed = fj::read_flam3_string(xml, label);
            } catch (const fj::GenomeError&) {
                parsed = fj::read_flam3_string(xml, label, options);
                ++dropped;
            }
            flames += static_cast<int>(parsed.size());
            check_round_trip(label, parsed, xml);
        }
        // The whole file at once: sequences (time, rotate unwrapping) survive too.
        if (file.find("electric-sheep") != std::string::npos) {
            check_round_trip(file, fj::read_flam3_file(file), fj::test::read_file(file));
        }
    }
    MESSAGE(flames << " corpus flames written, read back and compared through libflam3 (" << dropped
                   << " of them with unknown variations dropped)");
    CHECK(flames >= 100);
}

TEST_CASE("writer: cuburn nodes, as stills and as the keyframes of their loops, read back exactly") {
    if (!fj::test::corpus_present("cuburn-flock/nodes")) return;
    const std::string dir = fj::test::corpus_path("cuburn-flock/nodes");
    int nodes = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        const std::string node = e.path().string();
        CAPTURE(node);
        for (const bool loop : {false, true}) {
            fj::CuburnReadOptions options;
            options.loop = loop;
            const auto flames = fj::read_cuburn_file(node, options);
            REQUIRE(!flames.empty());
            check_round_trip(e.path().filename().string() + (loop ? " loop" : ""), flames, "");
            // flam3 reads what the loop's keyframes are, as a sequence.
            Flam3Genomes theirs(fj::write_flam3_string(flames), "node");
            CHECK(theirs.count == static_cast<int>(flames.size()));
        }
        ++nodes;
    }
    CHECK(nodes >= 8);
}

TEST_CASE("writer: hand-written genomes with symmetry, palettes, chaos and final xforms round-trip") {
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"symmetry-3", R"(<flame size="32 24"><xform weight="1" linear="1"/><symmetry kind="3"/>
            <xform weight="1" julia="1" color="0.2" chaos="1 0 2"/><color index="0" rgb="255 0 0"/></flame>)"},
        {"symmetry-minus-4-with-final", R"(<flame size="9 9"><xform weight="0.5" spherical="1" chaos="0 2"/>
            <symmetry kind="-4"/><finalxform julian="1" julian_power="3" color="0.4"/></flame>)"},
        {"symmetry-twice", R"(<flame size="9 9"><xform weight="1" linear="1"/><symmetry kind="7"/><symmetry kind="-2"/></flame>)"},
        {"symmetry-after-final", R"(<flame size="9 9"><finalxform spherical="1"/><xform weight="1" linear="1"/>
            <symmetry kind="6"/></flame>)"},
        {"sparse-palette-with-alpha", R"(<flame size="9 9"><xform weight="1" linear="1"/><color index="10" rgb="255 0 0"/>
            <color index="200" rgba="0 0 255 128"/><color index="100" rgb="0 255 0" a="64"/></flame>)"},
        {"fractional-palette", R"(<flame size="9 9"><xform weight="1" linear="1"/><color index="0" rgb="0.1 100.25 254.9"/>
            <color index="255" rgba="3.5 7 11 200.5"/></flame>)"},
        {"hex-rgba", R"(<flame size="9 9"><xform weight="1" linear="1"/><palette count="3" format="RGBA">ff000080
            00ff00ff 0000ff00</palette></flame>)"},
        {"library-palette-hue", R"(<flame palette="12" hue="0.3"><xform weight="1" linear="1"/></flame>)"},
        {"post-final-opacity", R"(<flame size="9 9" interpolation_type="older" palette_mode="linear" filter_shape="mitchell"
            temporal_filter_type="exp" temporal_filter_exp="-1.5" palette_interpolation="sweep" hsv_rgb_palette_blend="0.25">
            <xform weight="1" linear="1" coefs="0.5 -0.25 0.125 0.75 1.5 -2" post="1 0.5 -0.5 1 0.25 0.125" opacity="0.3"
            plotmode="off"/><xform weight="2" symmetry="0.6" ngon="0.5" ngon_sides="7" pre_blur="0.1"/>
            <finalxform linear="1" color="0.3" color_speed="0" animate="0" coefs="1 0 0 1 0.5 0"/></flame>)"},
        {"sequence", R"(<anim><flame rotate="170" time="0" interpolation="smooth"><xform weight="1" linear="1"/></flame>
            <flame rotate="-170" time="1" interpolation="smooth"><xform weight="1" linear="1"/></flame>
            <flame rotate="400" time="2.5"><xform weight="1" linear="1"/></flame>
            <flame rotate="-400" time="3"><xform weight="1" linear="1"/></flame></anim>)"},
    };
    for (const auto& [name, xml] : cases) {
        CAPTURE(name);
        const auto flames = fj::read_flam3_string(xml, name);
        const std::string written = fj::write_flam3_string(flames);
        if (flames[0].symmetry != 0) CHECK(written.find("<symmetry") != std::string::npos);
        check_round_trip(name, flames, xml);
    }

    // Symmetry xforms changed after reading no longer come from a <symmetry>:
    // they are written plainly, and only the record of the symmetry is lost.
    fj::Flame edited = fj::read_flam3_string(cases[0].second, "edited").at(0);
    REQUIRE(edited.xforms.size() == 4);
    edited.xforms[1].weight = 3;
    const std::string written = fj::write_flam3_string(edited);
    CHECK(written.find("<symmetry") == std::string::npos);
    const auto again = fj::read_flam3_string(written, "edited (written)");
    REQUIRE(again.size() == 1);
    fj::Flame expected = edited;
    expected.symmetry = 0;
    Differences d;
    d.flames(again[0], expected);
    CHECK_MESSAGE(d.lines().empty(), d.text());
}

namespace {

// Electric-sheep genealogy as the sheep server writes it, with a <sheep>
// child, text, and characters that need escaping.
const char* kGenealogyFlame =
    "<flame name=\"sheep\" size=\"24 16\" scale=\"8\" quality=\"3\" nick=\"ignored\">\n"
    "   <xform weight=\"1\" color=\"0\" spherical=\"1\" coefs=\"0.5 0 0 0.5 0.2 0\"/>\n"
    "   <edit nick=\"old\" action=\"lost: flam3 keeps the last edit\"/>\n"
    "   <color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/>\n"
    "   <edit date=\"Wed Nov 27 20:43:20 -0500 2013\" nick=\"R&amp;D &lt;3\" url=\"www.example.org\" id=\"81159\" "
    "action=\"clone upload\">\n"
    "      <edit date=\"Wed Nov 27 20:17:18 -0500 2013\" action=\"mutate xform 1 coefs\" filename=\"upload\" index=\"0\">\n"
    "         <!-- a comment is not genealogy -->\n"
    "         <edit filename=\"1127n1-3.flame\" index=\"0\"/>\n"
    "         <sheep generation=\"165\" id=\"21344\"/>\n"
    "         <note>free text</note>\n"
    "      </edit>\n"
    "   </edit>\n"
    "</flame>\n";

// The <edit> part of what libflam3's flam3_print writes for a genome it
// parsed: its own copy of the genealogy, independent of our reader. Lines
// of only whitespace are left out: flam3 prints a comment as one, and
// flamejit drops comments.
std::string flam3_printed_edit(flam3_genome& g) {
    char* buffer = nullptr;
    size_t size = 0;
    FILE* stream = open_memstream(&buffer, &size);
    REQUIRE(stream);
    flam3_print(stream, &g, nullptr, flam3_print_edits);
    std::fclose(stream);
    std::string text(buffer, size);
    std::free(buffer);
    const size_t begin = text.find("<edit"), end = text.rfind("</flame>");
    if (begin == std::string::npos || end == std::string::npos) return "";
    std::istringstream lines(text.substr(begin, end - begin));
    std::string out;
    for (std::string line; std::getline(lines, line);)
        if (line.find_first_not_of(" \t") != std::string::npos) out += line + "\n";
    return out;
}

}  // namespace

TEST_CASE("writer: a flame's <edit> genealogy survives read, write and read, after the palette, as libflam3 reads it") {
    const auto flames = fj::read_flam3_string(kGenealogyFlame, "sheep.flam3");
    REQUIRE(flames.size() == 1);
    const std::string& edit = flames[0].edit;
    // The last <edit>, whole: nested edits, the sheep, the text; no comment.
    CHECK(edit.rfind("<edit date=\"Wed Nov 27 20:43:20", 0) == 0);
    CHECK(edit.find("lost:") == std::string::npos);
    CHECK(edit.find("<sheep generation=\"165\" id=\"21344\"") != std::string::npos);
    CHECK(edit.find("<edit filename=\"1127n1-3.flame\"") != std::string::npos);
    CHECK(edit.find("free text") != std::string::npos);
    CHECK(edit.find("comment") == std::string::npos);

    // After the palette, as flam3_print puts it; read back unchanged (the
    // round trip compares the edit text too) and, by libflam3, as it reads
    // the original's.
    const std::string written = fj::write_flam3_string(flames);
    const size_t at = written.find("<edit");
    REQUIRE(at != std::string::npos);
    CHECK(written.rfind("<color") < at);
    CHECK(written.find("<xform") < at);
    CHECK(written.find("<edit", at + 1) != std::string::npos);  // nested, not flattened
    check_round_trip("genealogy", flames, kGenealogyFlame);
    Flam3Genomes theirs(kGenealogyFlame, "sheep.flam3");
    Flam3Genomes ours(written, "sheep.flam3 (written)");
    REQUIRE(theirs.count == 1);
    REQUIRE(ours.count == 1);
    const std::string expected = flam3_printed_edit(theirs.cps[0]);
    CHECK(expected.find("21344") != std::string::npos);
    CHECK(flam3_printed_edit(ours.cps[0]) == expected);

    // flam3-genome re-prints a genome's edit unchanged when it makes no new
    // genome (clone_all); our reader finds the same genealogy in what it
    // prints from our file. (flam3 prints attribute values unescaped, so
    // this genealogy has no character that needs escaping.)
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("writer-genealogy");
    fj::Flame plain = fj::read_flam3_string("<flame size=\"9 9\"><xform weight=\"1\" linear=\"1\"/><edit nick=\"n\" date=\"d\">"
                                            "<edit filename=\"f\" index=\"0\"/><sheep id=\"1\"/></edit></flame>",
                                            "plain")
                          .at(0);
    fj::test::write_file(dir + "/plain.flam3", fj::write_flam3_string(plain));
    const auto r = run_command("env clone_all=" + quoted(dir + "/plain.flam3") + " flam3-genome 2>/dev/null");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto reprinted = fj::read_flam3_string(r.output, "clone_all");
    REQUIRE(reprinted.size() == 1);
    CHECK(reprinted[0].edit == plain.edit);
    CHECK(plain.edit.find("<sheep id=\"1\"") != std::string::npos);

    // An interpolated genome has no genealogy (flam3-animate embeds none);
    // a sequence of one keyframe is that keyframe, edit and all.
    std::vector<fj::Flame> keys = {flames[0], flames[0]};
    keys[1].time = 2;
    CHECK(fj::interpolate(keys, 0.5).edit.empty());
    CHECK(fj::interpolate({flames[0]}, 0.5).edit == edit);

    // Set by hand, an edit that is not one <edit> element is refused, not written half.
    fj::Flame bad = flames[0];
    for (const char* text : {"<edit>", "<sheep/>", "<edit/><edit/>"}) {
        CAPTURE(text);
        bad.edit = text;
        CHECK_THROWS_AS(fj::write_flam3_string(bad), std::invalid_argument);
    }
}

namespace {

// flam3-genome random genomes restricted to the variations flamejit has.
std::string random_genomes(const std::string& dir, int seed, const std::string& env) {
    const std::string templ = dir + "/template.flam3";
    fj::test::write_file(templ, "<flame size=\"64 48\" quality=\"5\" supersample=\"2\" palette_mode=\"linear\"/>\n");
    const auto gen = run_command("env seed=" + std::to_string(seed) + " isaac_seed=writer" + std::to_string(seed) +
                                 " noedits=1 repeat=2 template=" + quoted(templ) + " use_vars=" +
                                 fj::test::flam3_genome_variation_ids() + " " + env + " flam3-genome");
    REQUIRE_MESSAGE(gen.status == 0, gen.output);
    return gen.output.substr(gen.output.find('<'));
}

}  // namespace

TEST_CASE("writer: random flam3-genome genomes round-trip through both readers; interpolated ones within an ulp") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("writer-random");
    for (const auto& [seed, env] : std::vector<std::pair<int, std::string>>{{31, ""}, {32, "symmetry=3"}, {33, "symmetry=-2"}}) {
        CAPTURE(seed);
        const std::string xml = random_genomes(dir, seed, env);
        const auto flames = fj::read_flam3_string(xml, "random" + std::to_string(seed));
        REQUIRE(flames.size() == 2);
        check_round_trip("random " + std::to_string(seed), flames, xml);

        // An interpolated genome has computed palette entries; a few of them
        // no decimal reaches exactly (flam3_writer.h), so one ulp is allowed there.
        std::vector<fj::Flame> keys = flames;
        keys[0].time = 0;
        keys[1].time = 1;
        const fj::Flame mid = fj::interpolate(keys, 0.37);
        const auto again = fj::read_flam3_string(fj::write_flam3_string(mid), "interpolated");
        REQUIRE(again.size() == 1);
        Differences d(1);
        d.flames(again[0], mid);
        CHECK_MESSAGE(d.lines().empty(), d.text());
        int exact = 0;
        for (int i = 0; i < 256; ++i)
            exact += again[0].palette[i].r == mid.palette[i].r && again[0].palette[i].g == mid.palette[i].g &&
                     again[0].palette[i].b == mid.palette[i].b;
        MESSAGE("interpolated palette: " << exact << " of 256 entries exact");
        CHECK(exact >= 240);
    }
}

namespace {

struct PngChunk {
    std::string text;
    int compression = 0;
};

// The text chunks of a PNG in file order, with how each was stored, read
// with libpng directly (fj::read_png_text does not say which were compressed).
std::vector<std::pair<std::string, PngChunk>> png_chunk_list(const std::string& path) {
    std::vector<std::pair<std::string, PngChunk>> out;
    FILE* file = std::fopen(path.c_str(), "rb");
    REQUIRE_MESSAGE(file, path);
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, nullptr, nullptr, nullptr);
    png_infop info = png_create_info_struct(png);
    png_infop end = png_create_info_struct(png);
    if (setjmp(png_jmpbuf(png)) == 0) {
        png_init_io(png, file);
        // Reads to the end, so chunks after the image data land in `info` too.
        png_read_png(png, info, PNG_TRANSFORM_IDENTITY, nullptr);
        png_textp text = nullptr;
        int count = 0;
        png_get_text(png, info, &text, &count);
        for (int k = 0; k < count; ++k)
            out.push_back({text[k].key, {std::string(text[k].text, text[k].text_length), text[k].compression}});
    } else {
        FAIL_CHECK("libpng cannot read " << path);
    }
    png_destroy_read_struct(&png, &info, &end);
    std::fclose(file);
    return out;
}

// The same by keyword.
std::map<std::string, PngChunk> png_chunks(const std::string& path) {
    std::map<std::string, PngChunk> out;
    for (auto& [key, chunk] : png_chunk_list(path)) out[key] = chunk;
    return out;
}

// The keywords of a PNG's text chunks in file order, those starting with `prefix`.
std::vector<std::string> png_chunk_keys(const std::string& path, const std::string& prefix) {
    std::vector<std::string> keys;
    for (const auto& [key, chunk] : png_chunk_list(path))
        if (key.rfind(prefix, 0) == 0) keys.push_back(key);
    return keys;
}

const char* kTinyFlame =
    "<flame name=\"tiny\" size=\"24 16\" scale=\"8\" quality=\"3\" rotate=\"10\">\n"
    "  <xform weight=\"1\" color=\"0\" spherical=\"1\" coefs=\"0.5 0 0 0.5 0.2 0\" chaos=\"1 0.5\"/>\n"
    "  <xform weight=\"1\" color=\"1\" julian=\"1\" julian_power=\"3\" coefs=\"0.5 0 0 0.5 -0.3 0.1\"/>\n"
    "  <symmetry kind=\"2\"/>\n"
    "  <finalxform linear=\"1\" post=\"1 0.1 0 1 0 0\"/>\n"
    "  <color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/>\n"
    "</flame>\n";

}  // namespace

TEST_CASE("writer: rendered PNGs carry the rendered genome as zTXt flam3_genome; --no-png-comments removes the chunks") {
    const std::string dir = fj::test::scratch_dir("writer-png");
    fj::test::write_file(dir + "/tiny.flam3", kTinyFlame);
    const std::string cmd = quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/tiny.flam3") +
                            " --backend cpu --threads 2 --seed 5 --quality 2 -o ";
    const auto r = run_command(cmd + quoted(dir + "/tiny.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto chunks = png_chunks(dir + "/tiny.png");
    REQUIRE(chunks.count("flam3_genome"));
    CHECK(chunks.at("flam3_genome").compression == PNG_TEXT_COMPRESSION_zTXt);
    for (const char* key : {"flam3_version", "flam3_samples", "flam3_error_rate", "flam3_time"}) {
        CAPTURE(key);
        REQUIRE(chunks.count(key));
        CHECK(chunks.at(key).compression == PNG_TEXT_COMPRESSION_NONE);
    }
    CHECK(chunks.at("flam3_version").text.rfind("flamejit-", 0) == 0);
    CHECK(std::stod(chunks.at("flam3_samples").text) > 0);
    const double rate = std::stod(chunks.at("flam3_error_rate").text);
    CHECK(rate >= 0);
    CHECK(rate < 1);

    // The genome rendered: the file's, with the --quality override.
    fj::Flame expected = fj::read_flam3_string(kTinyFlame, "tiny.flam3").at(0);
    expected.quality = 2;
    const auto embedded = fj::read_flam3_string(chunks.at("flam3_genome").text, "flam3_genome");
    REQUIRE(embedded.size() == 1);
    Differences d;
    d.flames(embedded[0], expected);
    CHECK_MESSAGE(d.lines().empty(), d.text());
    Flam3Genomes theirs(chunks.at("flam3_genome").text, "flam3_genome");
    CHECK(theirs.count == 1);

    const auto bare = run_command(cmd + quoted(dir + "/bare.png") + " --no-png-comments");
    REQUIRE_MESSAGE(bare.status == 0, bare.output);
    CHECK(png_chunks(dir + "/bare.png").empty());
    // flam3's own switch does the same; any other value keeps the chunks.
    const auto off = run_command("enable_png_comments=0 " + cmd + quoted(dir + "/off.png"));
    REQUIRE_MESSAGE(off.status == 0, off.output);
    CHECK(png_chunks(dir + "/off.png").empty());
    const auto on = run_command("enable_png_comments=1 " + cmd + quoted(dir + "/on.png"));
    REQUIRE_MESSAGE(on.status == 0, on.output);
    CHECK(png_chunks(dir + "/on.png").count("flam3_genome") == 1);
}

TEST_CASE("writer: PNGs carry flam3_nickname, flam3_url and flam3_id from nick, url and id, in flam3-render's order") {
    const std::string dir = fj::test::scratch_dir("writer-png-nick");
    fj::test::write_file(dir + "/sheep.flam3", kGenealogyFlame);
    const std::string unset = "env -u nick -u url -u id ";
    const std::string cmd = quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/sheep.flam3") +
                            " --backend cpu --threads 2 --seed 5 --quality 2 -o ";
    const auto r = run_command(unset + "nick='a sheep' url=example.org/x id=81159 " + cmd + quoted(dir + "/set.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto set = png_chunks(dir + "/set.png");
    const std::map<std::string, std::string> expected = {
        {"flam3_nickname", "a sheep"}, {"flam3_url", "example.org/x"}, {"flam3_id", "81159"}};
    for (const auto& [key, value] : expected) {
        CAPTURE(key);
        REQUIRE(set.count(key));
        CHECK(set.at(key).text == value);
        CHECK(set.at(key).compression == PNG_TEXT_COMPRESSION_NONE);
    }
    // The embedded genome keeps the file's genealogy.
    const auto embedded = fj::read_flam3_string(set.at("flam3_genome").text, "flam3_genome");
    REQUIRE(embedded.size() == 1);
    CHECK(embedded[0].edit == fj::read_flam3_string(kGenealogyFlame, "sheep.flam3").at(0).edit);

    // Unset, flam3-render still writes the three keys, empty (observed with
    // flam3-render 3.1.1); so does flamejit.
    const auto u = run_command(unset + cmd + quoted(dir + "/unset.png"));
    REQUIRE_MESSAGE(u.status == 0, u.output);
    const auto bare = png_chunks(dir + "/unset.png");
    for (const auto& [key, value] : expected) {
        CAPTURE(key);
        REQUIRE(bare.count(key));
        CHECK(bare.at(key).text.empty());
    }

    // The order of flam3's keys, taken from a PNG flam3-render writes here
    // (when it is not installed, from one it wrote with flam3 3.1.1).
    std::vector<std::string> flam3_order = {"flam3_version", "flam3_nickname", "flam3_url", "flam3_id",
                                            "flam3_error_rate", "flam3_samples", "flam3_time", "flam3_genome"};
    if (run_command("command -v flam3-render").status == 0) {
        const auto f = run_command(unset + "nick=a url=b id=c out=" + quoted(dir + "/flam3.png") +
                                   " isaac_seed=nick nthreads=1 verbose=0 flam3-render < " + quoted(dir + "/sheep.flam3"));
        REQUIRE_MESSAGE(f.status == 0, f.output);
        flam3_order = png_chunk_keys(dir + "/flam3.png", "");
        CHECK(png_chunks(dir + "/flam3.png").at("flam3_nickname").text == "a");
    } else {
        MESSAGE("flam3-render not installed: chunk order compared with the recorded one");
    }
    CHECK(png_chunk_keys(dir + "/set.png", "flam3_") == flam3_order);
    CHECK(png_chunk_keys(dir + "/unset.png", "flam3_") == flam3_order);
    // flamejit's own keys come after flam3's text and before the genome.
    const auto all = png_chunk_keys(dir + "/set.png", "");
    REQUIRE(all.size() > flam3_order.size());
    CHECK(all[7].rfind("flamejit_", 0) == 0);
    CHECK(all.back() == "flam3_genome");
}

TEST_CASE("writer: animate frames carry their interpolated genome; --no-png-comments removes the chunks") {
    const std::string dir = fj::test::scratch_dir("writer-animate");
    const std::string seq =
        "<seq><flame time=\"0\" size=\"16 12\" scale=\"6\" quality=\"2\"><xform weight=\"1\" spherical=\"1\" "
        "coefs=\"0.5 0 0 0.5 0.2 0\"/><xform weight=\"1\" linear=\"1\" coefs=\"0.5 0 0 0.5 -0.3 0.1\"/>"
        "<color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/><edit nick=\"k0\"/></flame>"
        "<flame time=\"2\" size=\"16 12\" scale=\"7\" quality=\"2\" rotate=\"30\"><xform weight=\"1\" spherical=\"1\" "
        "coefs=\"0.4 0.1 0 0.5 0.2 0\"/><xform weight=\"2\" linear=\"1\" coefs=\"0.5 0 0 0.5 -0.3 0.1\"/>"
        "<color index=\"0\" rgb=\"0 255 0\"/><color index=\"255\" rgb=\"0 0 255\"/></flame></seq>\n";
    fj::test::write_file(dir + "/seq.flam3", seq);
    const std::string cmd = quoted(fj::test::flamejit_binary()) + " animate " + quoted(dir + "/seq.flam3") +
                            " --frames 1:1 --backend cpu --threads 2 --seed 5 --temporal-samples 2 --quality 1 -o ";
    const auto r = run_command("env nick=animator " + cmd + quoted(dir + "/f%02d.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto chunks = png_chunks(dir + "/f01.png");
    REQUIRE(chunks.count("flam3_genome"));
    CHECK(chunks.at("flam3_genome").compression == PNG_TEXT_COMPRESSION_zTXt);
    CHECK(chunks.count("flam3_samples"));
    REQUIRE(chunks.count("flam3_nickname"));
    CHECK(chunks.at("flam3_nickname").text == "animator");

    // Interpolated: no genealogy of its own (the comparison includes the edit).
    fj::Flame expected = fj::interpolate(fj::read_flam3_string(seq, "seq.flam3"), 1.0);
    CHECK(expected.edit.empty());
    expected.quality = 1;
    expected.temporal_samples = 2;
    const auto embedded = fj::read_flam3_string(chunks.at("flam3_genome").text, "flam3_genome");
    REQUIRE(embedded.size() == 1);
    Differences d(1);
    d.flames(embedded[0], expected);
    CHECK_MESSAGE(d.lines().empty(), d.text());

    const auto bare = run_command(cmd + quoted(dir + "/b%02d.png") + " --no-png-comments");
    REQUIRE_MESSAGE(bare.status == 0, bare.output);
    CHECK(png_chunks(dir + "/b01.png").empty());
}

TEST_CASE("convert: a cuburn node becomes flam3 XML that reads as the node; --time interpolates a sequence") {
    const std::string dir = fj::test::scratch_dir("convert");
    const std::string bin = quoted(fj::test::flamejit_binary());
    const std::string node = fj::test::corpus_path("cuburn-flock/nodes/electricsheep.244.80674.json");
    const std::string profile = fj::test::corpus_path("cuburn-flock/profiles/1080p.json");
    if (!fj::test::corpus_present("cuburn-flock/nodes")) return;
    const auto r = run_command(bin + " convert " + quoted(node) + " --profile " + quoted(profile) + " -o " +
                               quoted(dir + "/node.flam3"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    fj::CuburnReadOptions options;
    options.profile_file = profile;
    const auto expected = fj::read_cuburn_file(node, options);
    const auto converted = fj::read_flam3_file(dir + "/node.flam3");
    REQUIRE(converted.size() == expected.size());
    Differences d;
    d.flames(converted[0], expected[0]);
    CHECK_MESSAGE(d.lines().empty(), d.text());
    Flam3Genomes theirs(fj::test::read_file(dir + "/node.flam3"), "node.flam3");
    CHECK(theirs.count == 1);

    // Standard output by default; --time gives the sequence's genome at that time.
    const std::string seq = dir + "/seq.flam3";
    fj::test::write_file(seq,
                         "<s><flame time=\"0\" rotate=\"10\"><xform weight=\"1\" julia=\"1\"/><color index=\"0\" rgb=\"255 0 0\"/></flame>"
                         "<flame time=\"4\" rotate=\"50\" scale=\"80\"><xform weight=\"1\" julia=\"1\" coefs=\"0.5 0 0 1 0 0\"/>"
                         "<color index=\"0\" rgb=\"0 40 200\"/></flame></s>");
    const auto timed = run_command(bin + " convert " + quoted(seq) + " --time 1.5 2>&1");
    REQUIRE_MESSAGE(timed.status == 0, timed.output);
    const auto at = fj::read_flam3_string(timed.output, "stdout");
    REQUIRE(at.size() == 1);
    Differences interpolated(1);
    interpolated.flames(at[0], fj::interpolate(fj::read_flam3_file(seq), 1.5));
    CHECK_MESSAGE(interpolated.lines().empty(), interpolated.text());
    CHECK(at[0].rotate == 25);
}

TEST_CASE("convert: bad input exits 2 with one line and writes nothing") {
    const std::string dir = fj::test::scratch_dir("convert-bad");
    const std::string bin = quoted(fj::test::flamejit_binary());
    fj::test::write_file(dir + "/garbage.flam3", "this is not a genome");
    fj::test::write_file(dir + "/good.flam3", kTinyFlame);
    fj::test::write_file(dir + "/backwards.flam3",
                         "<s><flame time=\"2\"><xform weight=\"1\" linear=\"1\"/></flame>"
                         "<flame time=\"1\"><xform weight=\"1\" linear=\"1\"/></flame></s>");
    const std::string out = dir + "/out.flam3";
    const std::vector<std::string> cases = {
        quoted(dir + "/absent.flam3"),
        quoted(dir + "/garbage.flam3"),
        quoted(dir + "/good.flam3") + " --time x",
        quoted(dir + "/good.flam3") + " --frobnicate",
        quoted(dir + "/good.flam3") + " --flame 7",
        quoted(dir + "/good.flam3") + " --time 1 --flame 0",
        quoted(dir + "/backwards.flam3") + " --time 1",
        quoted(dir + "/good.flam3") + " " + quoted(dir + "/good.flam3"),
    };
    for (const std::string& args : cases) {
        CAPTURE(args);
        const auto r = run_command(bin + " convert " + args + " -o " + quoted(out) + " < /dev/null");
        CHECK(r.status == 2);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
        CHECK_FALSE(fj::test::file_exists(out));
    }
    const auto help = run_command(bin + " convert --help");
    CHECK(help.status == 0);
    CHECK(help.output.find("usage") != std::string::npos);
}
