// flamejit — genome model and flam3 reader, checked against libflam3's own parser.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <istream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include <flam3.h>
}

#include "codegen/variation_registry.h"
#include "flam3_oracle.h"
#include "genome/flam3_reader.h"
#include "genome/genome_text.h"
#include "test_support.h"

namespace {

// The oracle (tests/flam3_oracle.h): flam3_parse_xml2 with defaults on, and
// where flam3 keeps each variation parameter.
using fj::test::Flam3Genomes;
using fj::test::flam3_param_offset;

struct CompareStats {
    int flames = 0;
    int xforms = 0;
    int params_checked = 0;
    int params_without_flam3_field = 0;
    int unsupported_variation_uses = 0;  // flam3 weights we dropped
};

bool same(double a, double b, double tol = 1e-12) { return std::fabs(a - b) <= tol * std::max(1.0, std::fabs(b)); }

#define FIELD(ours, theirs) CHECK_MESSAGE(same((ours), (theirs)), where << " " #ours ": " << (ours) << " vs flam3 " << (theirs))

void compare_affine(const std::string& where, const char* what, const fj::AffineD& m, const double c[3][2]) {
    const double ours[6] = {m.a, m.d, m.b, m.e, m.c, m.f};
    const double theirs[6] = {c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1]};
    for (int k = 0; k < 6; ++k)
        CHECK_MESSAGE(same(ours[k], theirs[k]), where << " " << what << "[" << k << "]: " << ours[k] << " vs flam3 " << theirs[k]);
}

void compare_xform(const std::string& where, const fj::Xform& xf, const flam3_xform& ref, CompareStats* stats) {
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    FIELD(xf.weight, ref.density);
    FIELD(xf.color, ref.color);
    FIELD(xf.color_speed, ref.color_speed);
    FIELD(xf.animate, ref.animate);
    FIELD(xf.opacity, ref.opacity);
    compare_affine(where, "coefs", xf.affine, ref.c);
    compare_affine(where, "post", xf.post, ref.post);
    for (size_t i = 1; i < xf.variations.size(); ++i)
        CHECK_MESSAGE(xf.variations[i - 1].id < xf.variations[i].id, where << " variations not sorted by id");
    for (int id = 0; id < flam3_nvariations; ++id) {
        const fj::VariationInfo* info = registry.by_id(id);
        const fj::VariationUse* use = nullptr;
        for (const auto& u : xf.variations)
            if (u.id == id) use = &u;
        if (!info) {
            if (ref.var[id] != 0) ++stats->unsupported_variation_uses;
            continue;
        }
        const double w = use ? use->weight : 0.0;
        CHECK_MESSAGE(same(w, ref.var[id]), where << " variation " << info->name << " weight " << w << " vs flam3 " << ref.var[id]);
        if (!use) continue;
        CHECK_MESSAGE(use->weight != 0, where << " zero weight stored for " << info->name);
        REQUIRE(use->params.size() == info->params.size());
        for (size_t p = 0; p < info->params.size(); ++p) {
            const long offset = flam3_param_offset(*info, info->params[p].name);
            if (offset < 0) {
                ++stats->params_without_flam3_field;
                continue;
            }
            const double theirs = *reinterpret_cast<const double*>(reinterpret_cast<const char*>(&ref) + offset);
            CHECK_MESSAGE(same(use->params[p], theirs),
                          where << " param " << info->params[p].name << ": " << use->params[p] << " vs flam3 " << theirs);
            ++stats->params_checked;
        }
    }
}

void compare_flame(const std::string& where, const fj::Flame& f, const flam3_genome& g, CompareStats* stats) {
    ++stats->flames;
    CHECK_MESSAGE(f.name == std::string(g.flame_name), where << " name " << f.name << " vs " << g.flame_name);
    FIELD(f.time, g.time);
    CHECK_MESSAGE(f.width == g.width, where << " width");
    CHECK_MESSAGE(f.height == g.height, where << " height");
    FIELD(f.center_x, g.center[0]);
    FIELD(f.center_y, g.center[1]);
    FIELD(f.scale, g.pixels_per_unit);
    FIELD(f.zoom, g.zoom);
    FIELD(f.rotate, g.rotate);
    CHECK_MESSAGE(f.supersample == g.spatial_oversample, where << " supersample");
    FIELD(f.filter_radius, g.spatial_filter_radius);
    CHECK_MESSAGE(static_cast<int>(f.filter_shape) == g.spatial_filter_select, where << " filter_shape");
    FIELD(f.quality, g.sample_density);
    CHECK_MESSAGE(f.passes == g.nbatches, where << " passes");
    CHECK_MESSAGE(f.temporal_samples == g.ntemporal_samples, where << " temporal_samples");
    for (int i = 0; i < 3; ++i) FIELD(f.background[i], g.background[i]);
    FIELD(f.brightness, g.brightness);
    FIELD(f.gamma, g.gamma);
    FIELD(f.gamma_threshold, g.gam_lin_thresh);
    FIELD(f.vibrancy, g.vibrancy);
    FIELD(f.highlight_power, g.highlight_power);
    FIELD(f.estimator_radius, g.estimator);
    FIELD(f.estimator_minimum, g.estimator_minimum);
    FIELD(f.estimator_curve, g.estimator_curve);
    CHECK_MESSAGE(static_cast<int>(f.palette_mode) == g.palette_mode, where << " palette_mode");
    CHECK_MESSAGE(f.palette_index == g.palette_index, where << " palette_index");
    FIELD(f.hue, g.hue_rotation);
    CHECK_MESSAGE(static_cast<int>(f.interpolation) == g.interpolation, where << " interpolation");
    CHECK_MESSAGE(static_cast<int>(f.interpolation_type) == g.interpolation_type, where << " interpolation_type");
    CHECK_MESSAGE(static_cast<int>(f.palette_interpolation) == g.palette_interpolation, where << " palette_interpolation");
    FIELD(f.hsv_rgb_palette_blend, g.hsv_rgb_palette_blend);
    CHECK_MESSAGE(static_cast<int>(f.temporal_filter_type) == g.temporal_filter_type, where << " temporal_filter_type");
    FIELD(f.temporal_filter_width, g.temporal_filter_width);
    FIELD(f.temporal_filter_exp, g.temporal_filter_exp);
    CHECK_MESSAGE(f.symmetry == g.symmetry, where << " symmetry");

    int bad_entries = 0;
    for (int i = 0; i < 256; ++i) {
        const double ours[4] = {f.palette[i].r, f.palette[i].g, f.palette[i].b, f.palette[i].a};
        for (int k = 0; k < 4; ++k)
            if (std::fabs(ours[k] - g.palette[i].color[k]) > 1e-6) {
                if (bad_entries++ < 3)
                    FAIL_CHECK(where << " palette[" << i << "][" << k << "] " << ours[k] << " vs flam3 " << g.palette[i].color[k]);
            }
    }
    CHECK_MESSAGE(bad_entries == 0, where << " " << bad_entries << " palette values differ");

    const bool flam3_final = g.final_xform_index >= 0;
    CHECK_MESSAGE(f.has_final == flam3_final, where << " has_final");
    const int nstd = g.num_xforms - (flam3_final ? 1 : 0);
    if (static_cast<int>(f.xforms.size()) != nstd) {
        FAIL_CHECK(where << " xform count " << f.xforms.size() << " vs flam3 " << nstd);
        return;
    }
    for (int i = 0; i < nstd; ++i) {
        compare_xform(where + " xform " + std::to_string(i), f.xforms[i], g.xform[i], stats);
        const std::vector<double>& row = f.xforms[i].chaos;
        CHECK_MESSAGE((row.empty() || static_cast<int>(row.size()) == nstd), where << " chaos row length");
        for (int j = 0; j < nstd; ++j) {
            const double ours = row.empty() ? 1.0 : row[j];
            CHECK_MESSAGE(same(ours, g.chaos[i][j]), where << " chaos[" << i << "][" << j << "] " << ours << " vs flam3 " << g.chaos[i][j]);
        }
        ++stats->xforms;
    }
    if (f.has_final && flam3_final) compare_xform(where + " final", f.final_xform, g.xform[g.final_xform_index], stats);
}

// Reads `xml` with both parsers and compares everything; genomes using
// variations we lack are read again with drop_unknown_variations.
void compare_with_flam3(const std::string& name, const std::string& xml, CompareStats* stats, int* dropped_files) {
    Flam3Genomes ref(xml, name);
    if (ref.count <= 0) {
        FAIL_CHECK(name << ": flam3 read no flames");
        return;
    }
    std::vector<fj::Flame> ours;
    try {
        ours = fj::read_flam3_string(xml, name);
    } catch (const fj::GenomeError& e) {
        const std::string what = e.what();
        if (what.find("unknown variation") == std::string::npos) {
            FAIL_CHECK(name << ": " << what);
            return;
        }
        ++*dropped_files;
        fj::ReadOptions options;
        options.drop_unknown_variations = true;
        ours = fj::read_flam3_string(xml, name, options);
    }
    if (static_cast<int>(ours.size()) != ref.count) {
        FAIL_CHECK(name << ": flame count " << ours.size() << " vs flam3 " << ref.count);
        return;
    }
    for (int i = 0; i < ref.count; ++i) compare_flame(name + " flame " + std::to_string(i), ours[i], ref.cps[i], stats);
}

void report(const std::string& what, const CompareStats& s, int dropped_files) {
    MESSAGE(what << ": " << s.flames << " flames, " << s.xforms << " xforms, " << s.params_checked
                 << " parameters compared (" << s.params_without_flam3_field << " without a flam3 field); "
                 << dropped_files << " files needed drop_unknown_variations, " << s.unsupported_variation_uses
                 << " uses of unsupported variations skipped");
}

}  // namespace

TEST_CASE("genome: sample_count and has_xaos follow their definitions") {
    fj::Flame f;
    f.width = 640;
    f.height = 480;
    f.quality = 50;
    f.zoom = 1;
    CHECK(f.sample_count() == doctest::Approx(50.0 * 4 * 640 * 480));
    f.xforms.resize(2);
    CHECK_FALSE(f.has_xaos());
    f.xforms[1].chaos = {1.0, 1.0};
    CHECK_FALSE(f.has_xaos());
    f.xforms[1].chaos = {1.0, 0.0};
    CHECK(f.has_xaos());
}

TEST_CASE("genome: corpus genomes read exactly as flam3_parse_xml2 reads them") {
    if (!fj::test::corpus_present("electric-sheep")) return;
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(fj::test::corpus_path("electric-sheep")))
        files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    const std::string flam3_test = fj::test::flam3_data_path("test.flam3");
    if (fj::test::file_exists(flam3_test)) files.push_back(flam3_test);
    else FAIL_CHECK(flam3_test << " is absent (package flam3-utils): not compared");
    REQUIRE_MESSAGE(!files.empty(), "no genome files to compare");
    CompareStats stats;
    int dropped = 0;
    for (const std::string& file : files) {
        CAPTURE(file);
        compare_with_flam3(file, fj::test::read_file(file), &stats, &dropped);
    }
    report("corpus", stats, dropped);
    CHECK(stats.flames >= static_cast<int>(files.size()));
}

namespace {

std::string var_vector(std::map<int, double> weights) {
    std::string s;
    for (int i = 0; i < flam3_nvariations; ++i) {
        if (i) s += ' ';
        s += weights.count(i) ? std::to_string(weights[i]) : "0";
    }
    return s;
}

// Hand-written genomes for the features the corpus may not exercise.
std::vector<std::pair<std::string, std::string>> edge_cases() {
    return {
        {"defaults", R"(<flame name="defaults"><xform weight="1"/><xform weight="0.5" spherical="1"/>
            <xform weight="2" linear="1" julian="0.5"/></flame>)"},
        {"symmetry-3", R"(<flame size="32 24"><xform weight="1" linear="1"/><symmetry kind="3"/>
            <xform weight="1" julia="1" color="0.2"/><color index="0" rgb="255 0 0"/></flame>)"},
        {"symmetry-minus-2", R"(<flame size="9 9"><symmetry kind="-2"/><xform weight="0.5" spherical="1" chaos="0 2"/></flame>)"},
        {"symmetry-7-twice", R"(<flame size="9 9"><xform weight="1" linear="1"/><symmetry kind="7"/><symmetry kind="-4"/></flame>)"},
        {"symmetry-after-final", R"(<flame size="9 9"><finalxform spherical="1"/><xform weight="1" linear="1"/>
            <symmetry kind="6"/></flame>)"},
        {"chaos", R"(<flame size="9 9"><xform weight="1" linear="1" chaos="0 1 2.5"/><xform weight="1" spherical="1" chaos="0.5"/>
            <xform weight="1" julia="1" chaos="1 1 0"/></flame>)"},
        {"palette-hex-rgb", R"(<flame size="9 9"><xform weight="1" linear="1"/><palette count="4" format="RGB">
            ff0000 00ff00
            0000FF ffffff</palette></flame>)"},
        {"palette-hex-rgba", R"(<flame size="9 9"><xform weight="1" linear="1"/><palette count="3" format="RGBA">ff000080
            00ff00ff 0000ff00</palette></flame>)"},
        {"colors-element", R"(<flame size="9 9"><xform weight="1" linear="1"/><colors count="3" data="00ff0000 0000ff00 000000ff"/></flame>)"},
        {"library-palette-hue", R"(<flame palette="12" hue="1.3"><xform weight="1" linear="1"/>
            <color index="0" rgb="1 2 3"/></flame>)"},
        {"library-palette-negative-hue", R"(<flame palette="250" hue="-0.25"><xform weight="1" linear="1"/></flame>)"},
        {"old-palette-blend", R"(<flame size="9 9"><xform weight="1" linear="1"/>
            <palette index0="3" index1="7" hue0="0.1" hue1="0.7" blend="0.3"/></flame>)"},
        {"missing-palette-entries", R"(<flame size="9 9"><xform weight="1" linear="1"/><color index="10" rgb="255 0 0"/>
            <color index="200" rgba="0 0 255 128"/><color index="100" rgb="0 255 0" a="64"/></flame>)"},
        {"post-affine", R"(<flame size="9 9"><xform weight="1" linear="1" coefs="0.5 -0.25 0.125 0.75 1.5 -2"
            post="1 0.5 -0.5 1 0.25 0.125"/></flame>)"},
        {"finalxform-first", R"(<flame size="9 9"><finalxform linear="1" color="0.3" coefs="1 0 0 1 0.5 0"/>
            <xform weight="1" spherical="1"/><xform weight="1" linear="1"/><xform weight="2" julia="1"/></flame>)"},
        {"legacy-var", "<flame size=\"9 9\"><xform weight=\"1\" var=\"" + var_vector({{0, 0.5}, {2, 0.25}, {13, 1}, {32, -0.5}}) +
                           "\"/><xform weight=\"1\" var1=\"2\"/><xform weight=\"1\" var1=\"13\" linear=\"0.5\"/></flame>"},
        {"plotmode-solo", R"(<flame soloxform="1"><xform weight="1" linear="1" plotmode="off"/>
            <xform weight="1" linear="1" opacity="0.5"/><xform weight="1" spherical="1" opacity="0.7"/></flame>)"},
        {"aliases", R"(<flame oversample="3" interpolation_space="linear" filter_shape="mitchell" palette_mode="linear"
            interpolation="smooth" temporal_filter_type="exp" temporal_filter_width="2" temporal_filter_exp="-1"
            palette_interpolation="rgb" hsv_rgb_palette_blend="0.25"><xform weight="1" linear="1" symmetry="0.6"/>
            <xform weight="1" linear="1" symmetry="-1" color="0.3 0.7"/></flame>)"},
        {"params", R"(<flame name="has spaces in it"><xform weight="1" julian="1" julian_power="5"/>
            <xform weight="1" julian="0.5" julian_dist="-2" julian_power="-3"/><xform weight="1" linear="1" julian_power="9"/></flame>)"},
        // All at one depth: flam3_parse_xml2 loses flames found at different depths
        // (its recursion reallocates the array behind the caller's back).
        {"wrapped-sequence", R"(<anim><flame rotate="170" time="0"><xform weight="1" linear="1"/></flame>
            <flame rotate="-170" time="1" size="50 60" center="1 -2" scale="33" zoom="0.5" quality="7" passes="2"
            temporal_samples="3" background="0.1 0.2 0.3" brightness="3" gamma="2.2" gamma_threshold="0.02"
            vibrancy="0.5" highlight_power="1" estimator_radius="5" estimator_minimum="1" estimator_curve="0.6"
            filter="1.5" unknown_attribute="whatever"><xform weight="1" linear="1"/></flame>
            <flame rotate="400" interpolation_type="old"><xform weight="1" linear="1"/></flame>
            <flame rotate="-400"><xform weight="1" linear="1"/></flame></anim>)"},
    };
}

}  // namespace

TEST_CASE("genome: hand-written edge cases read exactly as flam3_parse_xml2 reads them") {
    CompareStats stats;
    int dropped = 0;
    for (const auto& [name, xml] : edge_cases()) {
        CAPTURE(name);
        compare_with_flam3(name + ".flam3", xml, &stats, &dropped);
    }
    report("edge cases", stats, dropped);
}

TEST_CASE("genome: every registry variation and parameter reads as flam3 reads it") {
    // One xform per variation, each parameter moved off its default; aliases
    // spelled the alias way, so both spellings meet flam3's parser (flam3's
    // own aliases: not another renderer's, such as Fractorium's Mobius_Re_A).
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    std::string xml = R"(<flame size="9 9">)";
    int n = 0;
    for (const fj::VariationInfo& v : registry.all()) {
        if (v.id >= flam3_nvariations) continue;
        xml += "<xform weight=\"1\" " + v.name + "=\"0." + std::to_string(3 + n % 6) + "\"";
        for (size_t p = 0; p < v.params.size(); ++p) {
            std::string name = v.params[p].name;
            for (const auto& [alias, target] : v.aliases)
                if (target == v.params[p].name && n % 2 && !fj::test::other_renderers_alias(v.name, alias)) name = alias;
            xml += " " + name + "=\"" + std::to_string(v.params[p].default_value + 0.125 * (p + 1)) + "\"";
        }
        xml += "/>";
        ++n;
    }
    xml += "</flame>";
    CompareStats stats;
    int dropped = 0;
    compare_with_flam3("all-variations.flam3", xml, &stats, &dropped);
    report("registry (" + std::to_string(n) + " variations)", stats, dropped);
    CHECK(dropped == 0);
}

TEST_CASE("genome: a soloxform past int's range means no solo, as in flam3 on x86") {
    for (const char* solo : {"1e38", "-1e38", "3e9"}) {
        CAPTURE(solo);
        const auto flames = fj::read_flam3_string(std::string(R"(<flame soloxform=")") + solo +
                                                      R"("><xform weight="1" linear="1"/><xform weight="1" linear="1"/></flame>)",
                                                  "solo.flam3");
        for (const fj::Xform& xf : flames[0].xforms) CHECK(xf.opacity == 1);
    }
}

TEST_CASE("genome: a rotate too far for flam3's turn-by-turn unwrap still lands within 180 degrees") {
    // flam3 steps one turn at a time: 1e300 degrees, or 1e20 beside 1e20 +
    // 16384 (where a turn is below the number's precision), would never arrive.
    const std::vector<std::pair<std::string, std::string>> pairs = {
        {"0", "1e300"}, {"0", "-1e300"}, {"1e308", "-1e308"}, {"100000000000000016384", "1e20"}, {"12.5", "3600012.5"}};
    for (const auto& [first, second] : pairs) {
        CAPTURE(first);
        CAPTURE(second);
        const auto flames = fj::read_flam3_string(
            R"(<s><flame rotate=")" + first + R"("><xform weight="1" linear="1"/></flame><flame time="1" rotate=")" +
                second + R"("><xform weight="1" linear="1"/></flame></s>)",
            "rotate.flam3");
        CHECK(flames.size() == 2);
        if (flames.size() != 2) continue;
        const double previous = flames[0].rotate, rotate = flames[1].rotate;
        CHECK(std::isfinite(rotate));
        CHECK(rotate >= previous - 180);
        CHECK(rotate <= previous + 180);
    }
}

TEST_CASE("genome: a library palette's hue may be any number of turns") {
    // The old <palette index0 index1> form: hue0 and hue1 turn like the
    // flame's hue, whole turns changing nothing.
    const auto read = [](const std::string& hue0, const std::string& blend) {
        return fj::read_flam3_string(R"(<flame size="9 9"><palette index0="3" index1="5" hue0=")" + hue0 +
                                         R"(" hue1="-0.25" blend=")" + blend +
                                         R"("/><xform weight="1" linear="1"/></flame>)",
                                     "hue.flam3")[0]
            .palette;
    };
    const auto turned = read("1e300", "0.5"), plain = read("0", "0.5");
    for (int i = 0; i < 256; ++i) {
        CHECK(turned[i].r == plain[i].r);
        CHECK(turned[i].g == plain[i].g);
        CHECK(turned[i].b == plain[i].b);
    }
    // A blend far past the second palette extrapolates to colours far out of
    // range (they made inf and NaN): refused, naming the palette.
    CHECK_THROWS_WITH_AS(read("0.5", "1e300"), doctest::Contains("palette: colour"), fj::GenomeError);
}

TEST_CASE("genome: unknown variations are named, or dropped when asked") {
    const std::string xml = R"(<flame size="9 9"><xform weight="1" linear="1" no_such_variation="1" no_such_param="2"/></flame>)";
    try {
        fj::read_flam3_string(xml, "unknown.flam3");
        FAIL_CHECK("no error for an unknown variation");
    } catch (const fj::GenomeError& e) {
        CHECK(std::string(e.what()).find("unknown variation \"no_such_variation\"") != std::string::npos);
    }
    fj::ReadOptions options;
    options.drop_unknown_variations = true;
    const auto flames = fj::read_flam3_string(xml, "unknown.flam3", options);
    REQUIRE(flames.size() == 1);
    REQUIRE(flames[0].xforms.size() == 1);
    CHECK(flames[0].xforms[0].variations.size() == 1);

    // Read from a file, the error names the file too.
    const std::string path = fj::test::scratch_dir("genome") + "/unknown.flame";
    fj::test::write_file(path, xml);
    try {
        fj::read_flam3_file(path);
        FAIL_CHECK("unknown.flame read without error");
    } catch (const fj::GenomeError& e) {
        const std::string what = e.what();
        CHECK(what.find("unknown.flame") != std::string::npos);
        CHECK(what.find("unknown variation \"no_such_variation\"") != std::string::npos);
    }
}

TEST_CASE("genome: every <flame> is found in document order and its source kept") {
    const std::string xml = R"(<a><b><flame name="one"><xform weight="1" linear="1"/></flame></b>
        <flame name="two"><xform weight="1" linear="1"/></flame></a>)";
    std::vector<fj::FlameSource> sources;
    const auto flames = fj::read_flam3_string(xml, "order.flam3", {}, &sources);
    REQUIRE(flames.size() == 2);
    CHECK(flames[0].name == "one");
    CHECK(flames[1].name == "two");
    REQUIRE(sources.size() == 2);
    CHECK(sources[1].index == 1);
    CHECK(sources[1].file == "order.flam3");
    CHECK(sources[1].xml.rfind("<flame name=\"two\"", 0) == 0);
    // The kept source is itself a genome that reads back to the same flame.
    const auto again = fj::read_flam3_string(sources[0].xml, "again.flam3");
    REQUIRE(again.size() == 1);
    CHECK(again[0].name == "one");
}

TEST_CASE("genome: bad input gives one line naming the file, flame and attribute") {
    struct Bad {
        const char* what;
        std::string xml;
        std::vector<std::string> expect;
    };
    const std::string ok_xform = R"(<xform weight="1" linear="1"/>)";
    const std::vector<Bad> cases = {
        {"empty file", "", {"empty"}},
        {"blank file", "  \n ", {"empty"}},
        {"binary garbage", std::string("\x7f" "ELF\x02\x01\x01\0\0\0", 10), {"binary"}},
        {"truncated XML", R"(<flame size="10 10"><xform weight="1" linear="1"/>)", {"XML"}},
        {"not XML", "hello world", {"XML"}},
        {"no flame", "<flames><sheep/></flames>", {"no <flame>"}},
        {"flame without attributes", "<flame>" + ok_xform + "</flame>", {"flame 0", "no attributes"}},
        {"trailing garbage", R"(<flame quality="1.0f">)" + ok_xform + "</flame>", {"flame 0", "attribute \"quality\"", "1.0f"}},
        {"nan weight", R"(<flame size="9 9"><xform weight="nan" linear="1"/></flame>)", {"<xform 0>", "\"weight\""}},
        {"inf coefs", R"(<flame size="9 9"><xform weight="1" linear="1" coefs="1 0 0 1 inf 0"/></flame>)", {"<xform 0>", "\"coefs\""}},
        {"short coefs", R"(<flame size="9 9"><xform weight="1" linear="1"/><xform weight="1" coefs="1 0 0 1 0"/></flame>)",
         {"<xform 1> attribute \"coefs\": expected 6 numbers, got 5"}},
        {"zero size", R"(<flame size="0 100">)" + ok_xform + "</flame>", {"attribute \"size\""}},
        {"negative size", R"(<flame size="-5 100">)" + ok_xform + "</flame>", {"attribute \"size\""}},
        {"huge size", R"(<flame size="70000 100">)" + ok_xform + "</flame>", {"attribute \"size\""}},
        {"one-number size", R"(<flame size="100">)" + ok_xform + "</flame>", {"attribute \"size\""}},
        {"fractional size", R"(<flame size="100.5 20">)" + ok_xform + "</flame>", {"attribute \"size\""}},
        {"negative quality", R"(<flame quality="-1">)" + ok_xform + "</flame>", {"attribute \"quality\""}},
        {"zero supersample", R"(<flame supersample="0">)" + ok_xform + "</flame>", {"\"supersample\""}},
        {"zero total weight", R"(<flame size="9 9"><xform weight="0" linear="1"/></flame>)", {"weights"}},
        {"no xforms", R"(<flame size="9 9"></flame>)", {"no <xform>"}},
        {"malformed chaos", R"(<flame size="9 9"><xform weight="1" linear="1" chaos="1 x"/></flame>)", {"<xform 0> attribute \"chaos\""}},
        {"long chaos", R"(<flame size="9 9"><xform weight="1" linear="1" chaos="1 0 2"/></flame>)", {"<xform 0> attribute \"chaos\""}},
        {"negative chaos", R"(<flame size="9 9"><xform weight="1" linear="1" chaos="-1"/></flame>)", {"\"chaos\""}},
        {"bad hex palette", R"(<flame size="9 9">)" + ok_xform + R"(<palette count="2" format="RGB">ff0000 zz0000</palette></flame>)", {"<palette>"}},
        {"short hex palette", R"(<flame size="9 9">)" + ok_xform + R"(<palette count="3" format="RGB">ff0000 00ff00</palette></flame>)", {"<palette>"}},
        {"long hex palette", R"(<flame size="9 9">)" + ok_xform + R"(<palette count="1" format="RGB">ff0000 00ff00</palette></flame>)", {"<palette>"}},
        {"bad palette format", R"(<flame size="9 9">)" + ok_xform + R"(<palette count="1" format="BGR">ff0000</palette></flame>)", {"<palette> attribute \"format\""}},
        {"bad colors", R"(<flame size="9 9">)" + ok_xform + R"(<colors count="2" data="00ff0000 11ff0000"/></flame>)", {"<colors>"}},
        {"bad color index", R"(<flame size="9 9">)" + ok_xform + R"(<color index="300" rgb="1 2 3"/></flame>)", {"<color>", "index"}},
        {"bad color rgb", R"(<flame size="9 9">)" + ok_xform + R"(<color index="3" rgb="1 2"/></flame>)", {"<color> attribute \"rgb\""}},
        {"unknown palette number", R"(<flame size="9 9" palette="987654">)" + ok_xform + "</flame>", {"attribute \"palette\"", "987654"}},
        {"vast colour", R"(<flame size="9 9">)" + ok_xform + R"(<color index="3" rgb="1e308 0 0"/></flame>)",
         {"palette: colour", "has a channel of 1e+308, outside -255000..255000"}},
        {"vast blend", R"(<flame size="9 9">)" + ok_xform + R"(<palette index0="1" index1="2" blend="1e300"/></flame>)",
         {"palette", "outside -255000..255000"}},
        {"unknown variation", R"(<flame size="9 9"><xform weight="1" not_a_variation="1"/></flame>)", {"<xform 0>", "unknown variation \"not_a_variation\""}},
        {"weighted final", R"(<flame size="9 9">)" + ok_xform + R"(<finalxform weight="1" linear="1"/></flame>)", {"<finalxform> attribute \"weight\""}},
        {"two finals", R"(<flame size="9 9">)" + ok_xform + R"(<finalxform linear="1"/><finalxform linear="1"/></flame>)", {"<finalxform>"}},
        {"bad var vector", R"(<flame size="9 9"><xform weight="1" var="1 0 0"/></flame>)", {"<xform 0> attribute \"var\"", "expected 99"}},
        {"bad var1", R"(<flame size="9 9"><xform weight="1" var1="120"/></flame>)", {"<xform 0> attribute \"var1\""}},
        {"random symmetry", R"(<flame size="9 9">)" + ok_xform + R"(<symmetry kind="0"/></flame>)", {"<symmetry>"}},
        {"huge symmetry", R"(<flame size="9 9">)" + ok_xform + R"(<symmetry kind="-2147483648"/></flame>)",
         {"<symmetry> attribute \"kind\"", "must be in -254..254"}},
        // Refused at the <symmetry> that passes the limit, before the rest
        // (here 2,540,000 xforms) takes gigabytes.
        {"many symmetries", R"(<flame size="9 9">)" + ok_xform + [] {
             std::string kinds;
             for (int i = 0; i < 10000; ++i) kinds += R"(<symmetry kind="-254"/>)";
             return kinds;
         }() + "</flame>", {"<symmetry> attribute \"kind\"", "brings the flame to 255 xforms"}},
        {"deep nesting", "<flame size=\"9 9\">" + ok_xform + [] {
             std::string edits;
             for (int i = 0; i < 300; ++i) edits = "<edit>" + edits + "</edit>";
             return edits;
         }() + "</flame>", {"nest more than 256 deep"}},
        // libxml2 refuses these, so flam3 reads no genome; pugixml would keep both.
        {"attribute twice", R"(<flame size="9 9"><xform weight="1" linear="1" weight="2"/></flame>)",
         {"line 1, column 19: <xform> gives attribute \"weight\" twice"}},
        {"second flame named", R"(<s><flame size="9 9">)" + ok_xform + R"(</flame><flame name="foo" size="9 9">
            <xform weight="1" linear="1" color="x"/></flame></s>)", {"flame 1 \"foo\"", "<xform 0> attribute \"color\""}},
    };
    for (const Bad& bad : cases) {
        const std::string label = bad.what;
        CAPTURE(label);
        const std::string file = std::string("bad-") + bad.what + ".flam3";
        try {
            fj::read_flam3_string(bad.xml, file);
            FAIL_CHECK(bad.what << ": no error");
        } catch (const fj::GenomeError& e) {
            const std::string what = e.what();
            CHECK_MESSAGE(what.rfind(file + ": ", 0) == 0, what);
            CHECK_MESSAGE(what.find('\n') == std::string::npos, what);
            for (const std::string& part : bad.expect) CHECK_MESSAGE(what.find(part) != std::string::npos, what << "  (wanted: " << part << ")");
        }
    }

    const std::string missing = fj::test::scratch_dir("genome") + "/does-not-exist.flam3";
    try {
        fj::read_flam3_file(missing);
        FAIL_CHECK("no error for a missing file");
    } catch (const fj::GenomeError& e) {
        const std::string what = e.what();
        CHECK_MESSAGE(what.find("does-not-exist.flam3") != std::string::npos, what);
        CHECK_MESSAGE(what.find("cannot open") != std::string::npos, what);
    }
}

TEST_CASE("genome: a source that never ends is refused at the genome size bound") {
    // Blanks forever, as from a wrong file or a pipe that does not close.
    struct Endless : std::streambuf {
        char blanks[1 << 16];
        Endless() {
            std::memset(blanks, ' ', sizeof blanks);
            setg(blanks, blanks, blanks + sizeof blanks);
        }
        int_type underflow() override {
            setg(blanks, blanks, blanks + sizeof blanks);
            return traits_type::to_int_type(blanks[0]);
        }
    } endless;
    std::istream in(&endless);
    CHECK_THROWS_WITH_AS(fj::read_genome_text(in, "pipe"), doctest::Contains("pipe: more than 1024 MiB, too large for a genome"),
                         fj::GenomeError);
    std::istringstream small("<flame/>");
    CHECK(fj::read_genome_text(small, "s") == "<flame/>");
}
