// flamejit — the fidelity suite: random flam3 genomes and the corpus sheep, flam3-render against flamejit.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each genome is rendered by flam3-render at two seeds (A, B) and by
// `flamejit render --backend cpu` (C; FJ_TEST_BACKEND=cuda on a GPU); the fidelity ratio (DESIGN.md,
// image/fidelity.h) says how far C is from flam3 in units of how far flam3
// is from itself. The bar is the issue's: median ≤ 1.15 and worst ≤ 1.3 over
// the random genomes, and ≤ 1.3 for every corpus sheep.
//
// The random genomes come from Debian's flam3-genome with fixed seeds and a
// template (size, quality, supersample, filter, DE, palette mode, highlight
// power, background, zoom, gamma threshold: what flam3_apply_template
// copies). What it cannot randomise is edited into the XML afterwards: gamma,
// brightness, vibrancy and rotate on <flame>, xaos rows, opacity, plotmode,
// soloxform, a final xform, a library palette with hue. Together the cases
// cover DE on and off, all 14 filter names, supersample 1–3, both palette
// modes, xaos, final xforms, symmetry (rotational and mirror, applied twice
// as flam3 does), opacity, transparency, early clip and 16-bit output.
#include <doctest/doctest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "image/fidelity.h"
#include "image/level.h"
#include "image/png_io.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

using fj::test::quoted;

enum Edit : unsigned {
    kXaos = 1,          // a chaos row on every xform: stay ×3, next ×0.2
    kOpacity = 2,       // the first xform at opacity 0.5 (visibility 0.1)
    kFinal = 4,         // a final xform (spherical + linear), unless one is there
    kLibrary = 8,       // inline colours dropped for library palette 42, hue 0.3
    kPlotOff = 16,      // the last xform plotmode="off"
};

struct RandomCase {
    const char* name;
    int seed;
    const char* templ;          // <flame> attributes of the flam3-genome template
    const char* genome_env;     // extra flam3-genome environment (symmetry=N)
    const char* flame_edits;    // name=value pairs set on <flame> afterwards
    unsigned edits;
    const char* flam3_env;      // extra flam3-render environment
    const char* flamejit_args;  // the matching flamejit options
};

const RandomCase kRandom[] = {
    {"gaussian ss1 DE", 1, "supersample=\"1\" filter=\"1\" filter_shape=\"gaussian\" palette_mode=\"step\"", "", "", 0, "", ""},
    {"hermite ss2 noDE linear", 2,
     "supersample=\"2\" filter=\"1\" filter_shape=\"hermite\" estimator_radius=\"0\" palette_mode=\"linear\"", "", "", 0, "", ""},
    {"box ss3 DE(5,0.5,0.6)", 3,
     "supersample=\"3\" filter=\"1.5\" filter_shape=\"box\" estimator_radius=\"5\" estimator_minimum=\"0.5\" "
     "estimator_curve=\"0.6\" palette_mode=\"step\"", "", "", 0, "", ""},
    {"triangle symmetry 3 solo", 4, "supersample=\"1\" filter=\"1.2\" filter_shape=\"triangle\" palette_mode=\"linear\"",
     "symmetry=3", "soloxform=1", 0, "", ""},
    {"bell xaos", 5, "supersample=\"2\" filter=\"1\" filter_shape=\"bell\" palette_mode=\"step\"", "", "", kXaos, "", ""},
    {"bspline opacity noDE", 6,
     "supersample=\"1\" filter=\"1\" filter_shape=\"bspline\" estimator_radius=\"0\" palette_mode=\"linear\"", "", "", kOpacity, "",
     ""},
    {"lanczos3 final hp1", 7, "supersample=\"2\" filter=\"1\" filter_shape=\"lanczos3\" palette_mode=\"step\" highlight_power=\"1\"",
     "", "vibrancy=0.7", kFinal, "", ""},
    {"lanczos2 transparent", 8,
     "supersample=\"1\" filter=\"1.5\" filter_shape=\"lanczos2\" palette_mode=\"linear\" background=\"0.2 0.1 0.3\"", "", "", 0,
     "transparency=1", "--transparent"},
    {"mitchell ss3 16-bit noDE", 9,
     "supersample=\"3\" filter=\"1\" filter_shape=\"mitchell\" estimator_radius=\"0\" palette_mode=\"step\"", "", "", 0, "bpc=16",
     "--bits 16"},
    {"blackman mirror gamma", 10,
     "supersample=\"1\" filter=\"1.5\" filter_shape=\"blackman\" palette_mode=\"linear\" gamma_threshold=\"0.05\"", "symmetry=-2",
     "gamma=2.5", 0, "", ""},
    {"catrom bg rotate zoom", 11,
     "supersample=\"2\" filter=\"1.5\" filter_shape=\"catrom\" palette_mode=\"step\" background=\"0.1 0.2 0.3\" zoom=\"0.5\"", "",
     "rotate=30", 0, "", ""},
    {"hamming library palette", 12, "supersample=\"1\" filter=\"1\" filter_shape=\"hamming\" palette_mode=\"linear\"", "", "",
     kLibrary, "", ""},
    // The ring's lazy selection named, where --shuffle auto may sort on the CPU.
    {"hanning xaos final", 13, "supersample=\"2\" filter=\"1\" filter_shape=\"hanning\" palette_mode=\"step\"", "", "",
     kXaos | kFinal, "", "--shuffle ring"},
    {"quadratic 16-bit transparent", 14,
     "supersample=\"1\" filter=\"1\" filter_shape=\"quadratic\" palette_mode=\"linear\" highlight_power=\"0.5\"", "",
     "brightness=10", 0, "bpc=16 transparency=1", "--bits 16 --transparent"},
    {"bell earlyclip", 17, "supersample=\"2\" filter=\"1.5\" filter_shape=\"bell\" palette_mode=\"linear\" background=\"0.3 0.1 0\"",
     "", "", 0, "earlyclip=1", "--earlyclip"},
    {"gaussian symmetry 5 plotoff", 15, "supersample=\"2\" filter=\"0.8\" filter_shape=\"gaussian\" palette_mode=\"linear\"",
     "symmetry=5", "", kPlotOff, "", ""},
};

// Sets name="value" on the <xform> tag that starts at `at`.
std::string set_xform_attribute(const std::string& xml, size_t at, const std::string& name, const std::string& value) {
    const size_t close = xml.find('>', at);
    std::string tag = xml.substr(at, close - at);
    const std::regex existing(" " + name + "=\"[^\"]*\"");
    if (std::regex_search(tag, existing))
        tag = std::regex_replace(tag, existing, " " + name + "=\"" + value + "\"");
    else
        tag.insert(7, name + "=\"" + value + "\" ");
    return xml.substr(0, at) + tag + xml.substr(close);
}

std::string apply_edits(std::string xml, const RandomCase& c) {
    // name=value pairs, space separated.
    std::string pairs = c.flame_edits;
    for (size_t at = 0; at < pairs.size();) {
        size_t end = pairs.find(' ', at);
        if (end == std::string::npos) end = pairs.size();
        const std::string pair = pairs.substr(at, end - at);
        const size_t eq = pair.find('=');
        if (eq != std::string::npos) xml = fj::test::set_flame_attribute(xml, pair.substr(0, eq), pair.substr(eq + 1));
        at = end + 1;
    }
    std::vector<size_t> xforms;
    for (size_t at = xml.find("<xform "); at != std::string::npos; at = xml.find("<xform ", at + 1)) xforms.push_back(at);
    const int n = static_cast<int>(xforms.size());
    REQUIRE(n > 0);
    // Back to front, so the earlier positions stay valid.
    if (c.edits & kPlotOff) xml = set_xform_attribute(xml, xforms[n - 1], "plotmode", "off");
    if (c.edits & kXaos) {
        for (int i = n - 1; i >= 0; --i) {
            std::string row;
            for (int j = 0; j < n; ++j) row += std::string(j ? " " : "") + (j == i ? "3" : (n > 1 && j == (i + 1) % n ? "0.2" : "1"));
            xml = set_xform_attribute(xml, xforms[i], "chaos", row);
        }
    }
    if (c.edits & kOpacity) xml = set_xform_attribute(xml, xforms[0], "opacity", "0.5");
    if ((c.edits & kFinal) && xml.find("<finalxform") == std::string::npos)
        xml.insert(xml.find("</flame>"), "   <finalxform color=\"0.7\" color_speed=\"0.3\" spherical=\"0.4\" linear=\"0.6\" "
                                         "coefs=\"0.9 0.1 -0.1 0.9 0.05 0\" opacity=\"1\"/>\n");
    if (c.edits & kLibrary) {
        xml = std::regex_replace(xml, std::regex("\\s*<color index[^>]*/>"), "");
        xml = fj::test::set_flame_attribute(xml, "palette", "42");
        xml = fj::test::set_flame_attribute(xml, "hue", "0.3");
    }
    return xml;
}

// An image whose RGB is the other's alpha, so the fidelity ratio can
// measure the alpha of transparent renders too.
fj::PngImage alpha_as_rgb(const fj::PngImage& image) {
    fj::PngImage out = image;
    for (size_t i = 0; i + 3 < out.rgba.size(); i += 4) out.rgba[i] = out.rgba[i + 1] = out.rgba[i + 2] = image.rgba[i + 3];
    return out;
}

struct Row {
    std::string name;
    fj::FidelityResult rgb;
    fj::LevelShift level;     // C's mean level against A's and B's (printed, not judged: two references)
    double alpha_ratio = -1;  // transparent renders only
};

// The backend flamejit renders with: the CPU, or what FJ_TEST_BACKEND names
// (`FJ_TEST_BACKEND=cuda ctest -R fidelity_suite` on a machine with a GPU).
std::string test_backend() {
    const char* b = std::getenv("FJ_TEST_BACKEND");
    return b && *b ? b : "cpu";
}

// flam3-render at two seeds, flamejit once; the fidelity ratio of the result,
// or none (the case failed) where a render did not succeed.
// With `flam3_done`, flam3's renders of this `base` from an earlier call are
// compared again (another flamejit seed).
std::optional<Row> compare_with_flam3(const std::string& name, const std::string& genome, const std::string& base,
                                      const std::string& flam3_env, const std::string& flamejit_args, int seed,
                                      bool flam3_done = false) {
    for (const char* s : {"A", "B"}) {
        if (flam3_done) break;
        const auto r = fj::test::flam3_render_shared(genome, base + s + ".png",
                                                     std::string("isaac_seed=fidelity") + s + " nthreads=2 verbose=0 " + flam3_env);
        CHECK_MESSAGE(r.status == 0, name << ": " << r.output);
        if (r.status != 0) return std::nullopt;
    }
    const auto ours = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " + quoted(base + "C.png") +
                                  " --backend " + test_backend() + " --threads 2 --seed " + std::to_string(seed) + " " + flamejit_args);
    CHECK_MESSAGE(ours.status == 0, name << ": " << ours.output);
    if (ours.status != 0) return std::nullopt;
    const fj::PngImage a = fj::read_png(base + "A.png"), b = fj::read_png(base + "B.png"), c = fj::read_png(base + "C.png");
    Row row;
    row.name = name;
    row.rgb = fj::fidelity_ratio(a, b, c);
    row.level = fj::level_shift({fj::channel_means(a), fj::channel_means(b)}, fj::channel_means(c));
    if (flamejit_args.find("--transparent") != std::string::npos)
        row.alpha_ratio = fj::fidelity_ratio(alpha_as_rgb(a), alpha_as_rgb(b), alpha_as_rgb(c)).ratio;
    return row;
}

void print_table(const char* title, const std::vector<Row>& rows) {
    std::printf("\n%s\n%-30s %7s %7s %7s %8s %8s %8s %8s\n", title, "genome", "R", "R(A)", "R(B)", "|A-B|", "level%",
                "A-B %", "R alpha");
    for (const Row& r : rows) {
        std::printf("%-30s %7.3f %7.3f %7.3f %8.3f %+8.2f %8.2f", r.name.c_str(), r.rgb.ratio, r.rgb.ratio_a, r.rgb.ratio_b,
                    r.rgb.error_ab, 100 * r.level.shift, 100 * r.level.spread);
        if (r.alpha_ratio >= 0) std::printf(" %8.3f", r.alpha_ratio);
        std::printf("\n");
    }
    std::fflush(stdout);
}

bool have_flam3_tools() { return run_command("command -v flam3-genome && command -v flam3-render").status == 0; }

}  // namespace

TEST_CASE("fidelity suite: random flam3-genome genomes render as flam3 renders them (median <= 1.15, worst <= 1.3)") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-render not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    const std::string dir = fj::test::scratch_dir("fidelity-suite");
    std::vector<Row> rows;
    for (const RandomCase& c : kRandom) {
        const std::string name = c.name;
        CAPTURE(name);
        const std::string base = dir + "/" + std::to_string(c.seed);
        fj::test::write_file(base + ".template", std::string("<flame size=\"240 180\" quality=\"200\" ") + c.templ + "/>\n");
        const auto gen = run_command("env seed=" + std::to_string(c.seed) + " isaac_seed=suite" + std::to_string(c.seed) +
                                     " noedits=1 template=" + quoted(base + ".template") + " " + c.genome_env + " flam3-genome");
        CHECK_MESSAGE(gen.status == 0, gen.output);
        CHECK(gen.output.find("<flame ") != std::string::npos);
        if (gen.status != 0 || gen.output.find("<flame ") == std::string::npos) continue;
        fj::test::write_file(base + ".flam3", apply_edits(gen.output, c));
        const std::optional<Row> row =
            compare_with_flam3(name, base + ".flam3", base, c.flam3_env, c.flamejit_args, c.seed);
        if (!row) continue;
        rows.push_back(*row);
        // A genome flam3-genome gave up on (all background) would say nothing.
        CHECK_MESSAGE(rows.back().rgb.error_ab > 0.05, name << ": flam3's two renders are identical");
        CHECK_MESSAGE(rows.back().rgb.ratio <= 1.3, name << " (" << base << ".flam3)");
        if (rows.back().alpha_ratio >= 0) CHECK_MESSAGE(rows.back().alpha_ratio <= 1.3, name << " alpha");
    }
    print_table(("random genomes (240x180, quality 200, flam3-render nthreads=2 vs flamejit --backend " + test_backend() + ")").c_str(), rows);
    std::vector<double> ratios;
    for (const Row& r : rows) ratios.push_back(r.rgb.ratio);
    std::sort(ratios.begin(), ratios.end());
    CHECK(ratios.size() >= 12);
    if (ratios.empty()) return;
    const double median = ratios.size() % 2 ? ratios[ratios.size() / 2]
                                            : 0.5 * (ratios[ratios.size() / 2 - 1] + ratios[ratios.size() / 2]);
    std::printf("median %.3f, worst %.3f over %zu genomes\n", median, ratios.back(), ratios.size());
    CHECK(median <= 1.15);
    CHECK(ratios.back() <= 1.3);
}

TEST_CASE("fidelity suite: palette alpha < 1 with DE, passes=2 with DE, early clip's fuse and points crowding a cell's edge "
          "render as flam3 (two seeds, <= 1.3)") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-render not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    const std::string dir = fj::test::scratch_dir("fidelity-passes");
    auto random_genome = [&](int seed, const std::string& templ) {
        const std::string base = dir + "/g" + std::to_string(seed);
        fj::test::write_file(base + ".template", "<flame size=\"240 180\" quality=\"200\" " + templ + "/>\n");
        const auto gen = run_command("env seed=" + std::to_string(seed) + " isaac_seed=suite" + std::to_string(seed) +
                                     " noedits=1 template=" + quoted(base + ".template") + " flam3-genome");
        REQUIRE_MESSAGE(gen.status == 0, gen.output);
        return gen.output;
    };
    struct Case {
        std::string name, genome, flam3_env, flamejit_args;
        // Below this flam3's two renders count as the same (a seed not
        // taken); a frame of a few bright cells at high quality differs less.
        double least_ab = 0.05;
    };
    std::vector<Case> cases;
    {
        // Palette alpha 8..31 of 255: flam3 chooses DE kernels by hit counts,
        // which ignore alpha (flamejit keeps its count channel for this).
        std::string xml = random_genome(21, "supersample=\"1\" filter=\"1\" filter_shape=\"gaussian\" palette_mode=\"step\" "
                                            "estimator_radius=\"9\" estimator_minimum=\"0\" estimator_curve=\"0.4\"");
        std::string out;
        const std::regex colour("<color index=\"([0-9]+)\" rgb=\"([^\"]*)\"/>");
        auto at = std::sregex_iterator(xml.begin(), xml.end(), colour);
        size_t last = 0;
        for (; at != std::sregex_iterator(); ++at) {
            const int index = std::stoi((*at)[1]);
            out += xml.substr(last, at->position() - last) + "<color index=\"" + (*at)[1].str() + "\" rgb=\"" + (*at)[2].str() +
                   "\" a=\"" + std::to_string(8 + index * 5 % 24) + "\"/>";
            last = at->position() + at->length();
        }
        out += xml.substr(last);
        REQUIRE(out.find(" a=\"") != std::string::npos);
        cases.push_back({"palette alpha DE", out, "", ""});
    }
    cases.push_back({"passes 2 DE ss2",
                     fj::test::set_flame_attribute(
                         random_genome(24, "supersample=\"2\" filter=\"1\" filter_shape=\"gaussian\" palette_mode=\"linear\" "
                                           "estimator_radius=\"7\" estimator_minimum=\"0\" estimator_curve=\"0.5\""),
                         "passes", "2"),
                     "", ""});
    // Two slow spirals around nearly the same centre: chains start anywhere
    // in [-1, 1]² and take about 100 steps to reach the small attractor, so
    // with a 15-step fuse their young points would paint a halo flam3's
    // early-clip render (100-step fuse) does not have.
    cases.push_back({"earlyclip slow fuse",
                     "<flame size=\"240 180\" center=\"0 0\" scale=\"350\" quality=\"200\" supersample=\"1\" filter=\"1\" "
                     "filter_shape=\"gaussian\" estimator_radius=\"5\" estimator_minimum=\"0\" palette_mode=\"linear\">"
                     "<xform weight=\"1\" color=\"0\" color_speed=\"0.2\" linear=\"1\" coefs=\"0.927 0.248 -0.248 0.927 0 0\"/>"
                     "<xform weight=\"1\" color=\"1\" color_speed=\"0.2\" linear=\"1\" coefs=\"0.927 -0.248 0.248 0.927 0.012 0.006\"/>"
                     "<color index=\"0\" rgb=\"255 60 20\"/><color index=\"128\" rgb=\"40 200 80\"/>"
                     "<color index=\"255\" rgb=\"30 80 255\"/></flame>\n",
                     "earlyclip=1", "--earlyclip"});
    // Points crowding a cell's edge: tan sends the points spherical throws
    // far out to within e^-2|y| of x = 0, the left edge of the middle
    // column here. A float camera put those below 1e-7 on the edge, in the
    // column to its right, where flam3's double keeps them left: the middle
    // column lost a sixth of its hits, and R read 1.53-1.58 at this quality.
    cases.push_back({"points crowding a cell's edge",
                     "<flame size=\"240 180\" center=\"0 0\" scale=\"40\" quality=\"1000\" supersample=\"1\" filter=\"0.5\" "
                     "filter_shape=\"gaussian\" estimator_radius=\"0\" brightness=\"4\" gamma=\"4\">"
                     "<xform weight=\"0.5\" color=\"0\" spherical=\"1\" coefs=\"0.3 0 0 0.3 0.01 0\"/>"
                     "<xform weight=\"0.5\" color=\"1\" tan=\"1\" coefs=\"1 0 0 1 0 0\"/>"
                     "<color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/></flame>\n",
                     "", "", 0.005});
    std::vector<Row> rows;
    for (size_t i = 0; i < cases.size(); ++i) {
        const Case& c = cases[i];
        CAPTURE(c.name);
        const std::string base = dir + "/case" + std::to_string(i);
        fj::test::write_file(base + ".flam3", c.genome);
        for (int seed : {1, 2}) {
            // flam3 renders once; flamejit at two seeds.
            const std::optional<Row> row = compare_with_flam3(c.name + " seed " + std::to_string(seed), base + ".flam3",
                                                              base, c.flam3_env, c.flamejit_args, seed, seed > 1);
            if (!row) break;  // the next seed compares with the same flam3 renders
            rows.push_back(*row);
            CHECK_MESSAGE(rows.back().rgb.error_ab > c.least_ab, c.name << ": flam3's two renders are identical");
            CHECK_MESSAGE(rows.back().rgb.ratio <= 1.3, c.name << " (" << base << ".flam3)");
        }
    }
    print_table("count channel, passes, early clip, a cell's edge (240x180, quality 200; the edge 1000)", rows);
}

// flam3 counts plotted samples: a step that blows up is retried from a
// random point without a plot. Here three xforms of five always do (cpow
// with power 0 divides by zero), so flam3 computes some 2.4 steps per
// sample (its error rate about 1.39). When the CPU backend counted steps
// instead, it plotted about 42 % of the samples and read R = 1.21 on such
// a genome (1.30 here when asked for that share).
TEST_CASE("fidelity suite: a genome whose xforms mostly blow up plots all its samples and renders as flam3 (<= 1.1)") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-render not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    const std::string dir = fj::test::scratch_dir("fidelity-bad-values");
    const std::string genome = dir + "/bad.flam3";
    fj::test::write_file(
        genome,
        "<flame size=\"200 150\" center=\"0.2 0.1\" scale=\"60\" quality=\"150\" supersample=\"1\" filter=\"0.5\" "
        "filter_shape=\"gaussian\" estimator_radius=\"9\" estimator_minimum=\"0\" estimator_curve=\"0.4\" gamma=\"4\" "
        "brightness=\"4\" palette_mode=\"linear\">"
        "<xform weight=\"1\" color=\"0\" spherical=\"1\" coefs=\"0.6 0.2 -0.2 0.6 0.5 0.3\"/>"
        "<xform weight=\"1\" color=\"1\" julia=\"1\" coefs=\"0.7 -0.3 0.3 0.7 -0.4 0.1\"/>"
        "<xform weight=\"1\" color=\"0.5\" cpow=\"1\" cpow_r=\"1.2\" cpow_i=\"-0.3\" cpow_power=\"0\" "
        "coefs=\"0.5 0 0 0.5 0.1 0\"/>"
        "<xform weight=\"1\" color=\"0.2\" cpow=\"1\" cpow_r=\"0.8\" cpow_i=\"0.2\" cpow_power=\"0\" "
        "coefs=\"0.5 0 0 0.5 0 0.1\"/>"
        "<xform weight=\"1\" color=\"0.8\" cpow=\"1\" cpow_r=\"1.5\" cpow_i=\"0.1\" cpow_power=\"0\" "
        "coefs=\"0.5 0 0 0.5 0 0\"/>"
        "<color index=\"0\" rgb=\"255 60 20\"/><color index=\"128\" rgb=\"40 200 80\"/>"
        "<color index=\"255\" rgb=\"30 80 255\"/>"
        "</flame>\n");
    std::vector<Row> rows;
    for (int seed : {1, 2}) {
        const std::optional<Row> row =
            compare_with_flam3("bad values seed " + std::to_string(seed), genome, dir + "/bad", "", "", seed, seed > 1);
        if (!row) break;  // the next seed compares with the same flam3 renders
        rows.push_back(*row);
        CHECK_MESSAGE(rows.back().rgb.error_ab > 0.05, rows.back().name << ": flam3's two renders are identical");
        CHECK_MESSAGE(rows.back().rgb.ratio <= 1.1, rows.back().name);
        const auto text = fj::read_png_text(dir + "/badC.png");
        CHECK(std::stod(text.at("flam3_samples")) >= 200.0 * 150 * 150);
        CHECK(std::stod(text.at("flam3_error_rate")) > 1.2);
    }
    print_table("bad values (200x150, quality 150)", rows);
    // In a small frame most lanes settle (FJ_SETTLE unplotted steps, which
    // retries do not count either) past the rounds planned for them: the
    // samples still come, and not many times over (a top-up at the rate
    // measured while lanes settled plotted 27 times the samples asked for).
    const std::string small = dir + "/small.png";
    const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " + quoted(small) +
                               " --backend " + test_backend() + " --threads 2 --seed 3 --size 80x60 --quality 30");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const double plotted = std::stod(fj::read_png_text(small).at("flam3_samples")), asked = 80.0 * 60 * 30;
    CHECK(plotted >= asked);
    CHECK(plotted <= 1.05 * asked);
}

TEST_CASE("fidelity suite: every electric-sheep corpus genome, reduced, renders as flam3 renders it (<= 1.3)") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-render not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    // electricsheep.244.80725 mixes slowly (one xform of weight 0.5 against
    // 100), so flam3's image depends on its chains of 10000 samples; before
    // flamejit kept flam3's chains it read about 1.6 here.
    if (!fj::test::corpus_present("electric-sheep")) return;
    const std::string dir = fj::test::scratch_dir("fidelity-corpus");
    std::vector<std::string> genomes;
    for (const auto& entry : std::filesystem::directory_iterator(fj::test::corpus_path("electric-sheep")))
        if (entry.path().extension() == ".flam3") genomes.push_back(entry.path().string());
    std::sort(genomes.begin(), genomes.end());
    REQUIRE(genomes.size() >= 8);
    std::vector<Row> rows;
    int seed = 100;
    for (const std::string& path : genomes) {
        const std::string name = std::filesystem::path(path).stem().string();
        CAPTURE(name);
        const std::string base = dir + "/" + name;
        fj::test::write_file(base + ".flam3", fj::test::reduced_genome(fj::test::read_file(path), 0.3, 150));
        const std::optional<Row> row = compare_with_flam3(name, base + ".flam3", base, "", "", seed++);
        if (!row) continue;
        rows.push_back(*row);
        CHECK_MESSAGE(rows.back().rgb.error_ab > 0.05, name << ": flam3's two renders are identical");
        CHECK_MESSAGE(rows.back().rgb.ratio <= 1.3, name);
    }
    print_table("electric-sheep corpus (0.3x size, quality 150, supersample 1)", rows);
}

namespace {

// How far an image's mean level wanders from seed to seed, per channel:
// `seeds` renders of `genome` by flamejit (with `flamejit_args`) and by
// flam3-render (named after `tag` in `dir`), the standard deviation of each
// channel's mean over flamejit's seeds over that over flam3's. The seeds are
// fixed, so the ratios are the same from run to run.
std::array<double, 3> level_spread_ratios(const std::string& genome, const std::string& dir, const std::string& tag,
                                          int seeds, const std::string& flamejit_args = "") {
    std::vector<std::array<double, 3>> flam3, ours;
    for (int seed = 1; seed <= seeds; ++seed) {
        const std::string s = std::to_string(seed);
        auto r = fj::test::flam3_render_shared(genome, dir + "/f" + s + ".png",
                                               "isaac_seed=" + tag + s + " nthreads=2 verbose=0");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        flam3.push_back(fj::channel_means(fj::read_png(dir + "/f" + s + ".png")));
        r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                        quoted(dir + "/j" + s + ".png") + " --backend " + test_backend() + " --threads 2 --seed " + s + " " +
                        flamejit_args);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        ours.push_back(fj::channel_means(fj::read_png(dir + "/j" + s + ".png")));
    }
    const auto spread = [](const std::vector<std::array<double, 3>>& means, int c) {
        double mean = 0, squares = 0;
        for (const auto& m : means) mean += m[c] / means.size();
        for (const auto& m : means) squares += (m[c] - mean) * (m[c] - mean);
        return std::sqrt(squares / (means.size() - 1));
    };
    std::array<double, 3> ratios{};
    for (int c = 0; c < 3; ++c) {
        ratios[c] = spread(ours, c) / spread(flam3, c);
        std::printf("%s, channel %d: the mean level's spread over %d seeds %.3f (flam3 %.3f), ratio %.2f\n", tag.c_str(),
                    c, seeds, spread(ours, c), spread(flam3, c), ratios[c]);
    }
    return ratios;
}

}  // namespace

TEST_CASE("fidelity suite: a rare xform's share varies from seed to seed about as flam3's does") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-render not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    // electricsheep.244.80725 draws one xform with probability 1/201. Drawn
    // for a whole warp at once, its 32 lanes' applications come in bursts
    // and the image's mean level (what that xform draws) wandered from seed
    // to seed 2.4-4.3 times as far as flam3's (per channel, these 36 seeds
    // each); spread over the lanes (codegen/param_layout.h, kSpreadBelow)
    // 1.1-1.5 times. 36 seeds, since a spread of 12 draws is itself only
    // known to about a third.
    if (!fj::test::corpus_present("electric-sheep")) return;
    const std::string dir = fj::test::scratch_dir("fidelity-rare");
    const std::string genome = dir + "/rare.flam3";
    fj::test::write_file(genome, fj::test::reduced_genome(
                                     fj::test::read_file(fj::test::corpus_path("electric-sheep") +
                                                         "/electricsheep.244.80725.flam3"),
                                     0.3, 150));
    for (const double ratio : level_spread_ratios(genome, dir, "rare", 36, "--shuffle ring")) CHECK(ratio < 1.8);
}

TEST_CASE("fidelity suite: a fresh chain's young points vary from seed to seed about as flam3's do") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-render not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    // Two strongly contracting xforms and two isometries (a mirror and a
    // half turn) of four times their weight, after a random flam3-genome
    // flame of symmetry -2: a point needs many steps to reach the attractor,
    // and flam3 plots faint copies of it from its chains' young points. A
    // frame's fresh chains start together; drawn for a whole warp, the young
    // points of its lanes took one path, and how many strays an image
    // showed went by a few warps' draws: the mean level wandered from seed
    // to seed 2.0-2.3 times as far as flam3's (per channel, these 24 seeds).
    // Young points choose their own xforms (iterate/common.h, FJ_YOUNG):
    // 0.8-1.2 times.
    const std::string dir = fj::test::scratch_dir("fidelity-young");
    const std::string genome = dir + "/young.flam3";
    fj::test::write_file(
        genome,
        "<flame size=\"200 150\" center=\"-0.11 0.21\" scale=\"77\" quality=\"150\" supersample=\"2\" filter=\"1\" "
        "filter_shape=\"hermite\" estimator_radius=\"8\" estimator_minimum=\"0\" estimator_curve=\"0.4\" gamma=\"4\" "
        "brightness=\"4\" palette_mode=\"linear\">"
        "<xform weight=\"0.5\" color=\"0\" linear=\"0.268\" "
        "coefs=\"-0.344576 0.287645 -0.0965949 0.858537 0.594093 0.0916607\"/>"
        "<xform weight=\"0.5\" color=\"1\" linear=\"0.268\" "
        "coefs=\"-0.350344 0.611755 -0.556553 -0.376579 -0.248803 -0.623856\"/>"
        "<xform weight=\"2\" color=\"1\" color_speed=\"0\" linear=\"1\" coefs=\"-1 0 0 1 0 0\"/>"
        "<xform weight=\"2\" color=\"0\" color_speed=\"0\" linear=\"1\" coefs=\"-1 0 0 -1 0 0\"/>"
        "<color index=\"0\" rgb=\"255 120 40\"/><color index=\"128\" rgb=\"80 255 60\"/>"
        "<color index=\"255\" rgb=\"60 90 255\"/>"
        "</flame>\n");
    for (const double ratio : level_spread_ratios(genome, dir, "young", 24)) CHECK(ratio < 1.4);
}
