// flamejit — pixel parity with flam3-render on genomes whose every xform maps to a fixed point.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// An xform with coefs "0 0 0 0 x y" sends every point to (x, y), so the
// histogram holds a few cells whose counts are almost certain (a multinomial
// over hundreds of thousands of samples) and whose colours are exact when the
// colour speed is 1. What flam3-render makes of such a histogram — camera,
// palette lookup, per-hit truncation, log scaling, density estimation,
// spatial filter, tone mapping, background, transparency, 8/16-bit output —
// must then come out of flamejit to within one level. flamejit selects xforms
// per thread here (--shuffle divergent): warp-uniform selection moves counts
// in steps of 32, which would add its own noise to the comparison.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "image/png_io.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

using fj::test::quoted;

struct ParityCase {
    const char* name;
    const char* flame_attributes;  // on <flame>, after the fixed ones
    const char* flam3_env;         // extra flam3-render environment
    const char* flamejit_args;     // matching flamejit options
    const char* extra_children;    // more elements inside <flame>
    bool library_palette = false;  // no <color> elements: the flame names a library palette
};

// Three points (none on a cell boundary at any supersample used here) with
// colours 0, 0.3 and 1 at colour speed 1, so each cell's colour is exact.
std::string genome(const ParityCase& c) {
    std::string xml = std::string("<flame size=\"31 23\" center=\"0.03 0.02\" scale=\"10\" quality=\"200\" ") +
                      c.flame_attributes + ">\n" +
                      "  <xform weight=\"1\" color=\"0\" color_speed=\"1\" linear=\"1\" coefs=\"0 0 0 0 0.013 -0.011\"/>\n"
                      "  <xform weight=\"0.5\" color=\"0.3\" color_speed=\"1\" linear=\"1\" coefs=\"0 0 0 0 0.5 0.31\"/>\n"
                      "  <xform weight=\"0.25\" color=\"1\" color_speed=\"1\" linear=\"1\" coefs=\"0 0 0 0 -0.717 -0.403\"/>\n" +
                      c.extra_children;
    if (!c.library_palette)
        xml += "  <color index=\"0\" rgb=\"255 160 64\"/><color index=\"76\" rgb=\"30 200 90\"/>"
               "<color index=\"77\" rgb=\"200 20 110\"/><color index=\"255\" rgb=\"90 60 250\"/>\n";
    return xml + "</flame>\n";
}

const ParityCase kCases[] = {
    // The 14 filter names (flam3's scrambled kernels), supersample 1–3, DE on and off.
    {"gaussian", "supersample=\"1\" filter=\"1\" filter_shape=\"gaussian\" estimator_radius=\"0\"", "", "", ""},
    {"hermite", "supersample=\"2\" filter=\"1\" filter_shape=\"hermite\" estimator_radius=\"4\" estimator_minimum=\"1\"", "", "", ""},
    {"box", "supersample=\"3\" filter=\"1.5\" filter_shape=\"box\" estimator_radius=\"0\"", "", "", ""},
    {"triangle", "supersample=\"1\" filter=\"1.5\" filter_shape=\"triangle\" estimator_radius=\"5\" estimator_minimum=\"1.5\" estimator_curve=\"0.6\"", "", "", ""},
    {"bell", "supersample=\"2\" filter=\"1\" filter_shape=\"bell\" estimator_radius=\"0\"", "", "", ""},
    {"bspline", "supersample=\"3\" filter=\"1\" filter_shape=\"bspline\" estimator_radius=\"3\" estimator_minimum=\"1\"", "", "", ""},
    {"lanczos3", "supersample=\"1\" filter=\"2\" filter_shape=\"lanczos3\" estimator_radius=\"0\"", "", "", ""},
    {"lanczos2", "supersample=\"2\" filter=\"1.5\" filter_shape=\"lanczos2\" estimator_radius=\"0\"", "", "", ""},
    {"mitchell", "supersample=\"2\" filter=\"1\" filter_shape=\"mitchell\" estimator_radius=\"5\" estimator_minimum=\"1\"", "", "", ""},
    {"blackman", "supersample=\"1\" filter=\"1.5\" filter_shape=\"blackman\" estimator_radius=\"0\"", "", "", ""},
    {"catrom", "supersample=\"3\" filter=\"1\" filter_shape=\"catrom\" estimator_radius=\"0\"", "", "", ""},
    {"hamming", "supersample=\"1\" filter=\"1\" filter_shape=\"hamming\" estimator_radius=\"2\" estimator_minimum=\"1\"", "", "", ""},
    {"hanning", "supersample=\"2\" filter=\"1.5\" filter_shape=\"hanning\" estimator_radius=\"0\"", "", "", ""},
    {"quadratic", "supersample=\"1\" filter=\"1\" filter_shape=\"quadratic\" estimator_radius=\"0\"", "", "", ""},
    // Tone mapping: gamma and its linear toe, vibrancy, highlight power, background.
    {"tone", "filter=\"1\" estimator_radius=\"0\" gamma=\"2.5\" gamma_threshold=\"0.05\" vibrancy=\"0.6\" brightness=\"30\" "
             "highlight_power=\"0.5\" background=\"0.2 0.1 0\"", "", "", ""},
    {"legacy highlights", "filter=\"1\" estimator_radius=\"0\" brightness=\"60\" highlight_power=\"-1\"", "", "", ""},
    {"partial highlights", "filter=\"1\" estimator_radius=\"0\" brightness=\"60\" highlight_power=\"-0.4\"", "", "", ""},
    // Output forms.
    {"transparent", "supersample=\"2\" filter=\"1\" filter_shape=\"mitchell\" estimator_radius=\"0\" background=\"0.3 0.3 0.3\"",
     "transparency=1", "--transparent", ""},
    {"16-bit", "supersample=\"2\" filter=\"1\" estimator_radius=\"0\" vibrancy=\"0.7\"", "bpc=16", "--bits 16", ""},
    {"16-bit transparent", "filter=\"1.5\" filter_shape=\"lanczos3\" estimator_radius=\"0\"", "bpc=16 transparency=1",
     "--bits 16 --transparent", ""},
    // Early clip: tone mapping per cell, then the filter.
    {"earlyclip", "supersample=\"2\" filter=\"1.5\" filter_shape=\"mitchell\" estimator_radius=\"3\" estimator_minimum=\"1\" "
                  "background=\"0.1 0.2 0.3\" vibrancy=\"0.8\"", "earlyclip=1", "--earlyclip", ""},
    {"earlyclip transparent", "filter=\"1.5\" filter_shape=\"lanczos3\" estimator_radius=\"0\"", "earlyclip=1 transparency=1",
     "--earlyclip --transparent", ""},
    // Camera, palette and iteration features with deterministic results.
    {"rotate zoom", "filter=\"1\" estimator_radius=\"0\" rotate=\"33\" zoom=\"0.4\"", "", "", ""},
    {"linear palette", "filter=\"1\" estimator_radius=\"0\" palette_mode=\"linear\"", "", "", ""},
    {"opacity", "filter=\"1\" estimator_radius=\"0\"", "", "", ""},
    {"final xform", "filter=\"1\" estimator_radius=\"0\"", "", "",
     "  <finalxform color=\"0.8\" color_speed=\"0.5\" linear=\"1\" coefs=\"0.7 0.2 -0.2 0.7 0.1 0.05\"/>\n"},
    {"library palette", "filter=\"1\" estimator_radius=\"0\" palette=\"42\" hue=\"0.3\" palette_mode=\"linear\"", "", "", "", true},
};

// Every sample of two same-sized images: the largest difference in 8-bit
// levels (16-bit samples are divided by 256).
double max_level_difference(const fj::PngImage& a, const fj::PngImage& b) {
    double worst = 0;
    const double scale = a.bits == 16 ? 1.0 / 256.0 : 1.0;
    for (size_t i = 0; i < a.rgba.size(); ++i) worst = std::max(worst, std::fabs(double(a.rgba[i]) - b.rgba[i]) * scale);
    return worst;
}

}  // namespace

TEST_CASE("parity: fixed-point genomes come out of flamejit as flam3-render draws them (within one level)") {
    if (!fj::test::flam3_render_present()) return;
    const std::string dir = fj::test::scratch_dir("parity");
    std::printf("%-20s %10s %10s\n", "case", "flam3 A-B", "flamejit");
    int index = 0;
    for (ParityCase c : kCases) {
        const std::string name = c.name;
        CAPTURE(name);
        std::string xml = genome(c);
        if (name == "opacity") {
            // Visibility 0.5^log2(10) = 0.1: every hit adds floor(0.1 · 255 · colour).
            const std::string at = "weight=\"0.5\"";
            xml.replace(xml.find(at), at.size(), at + " opacity=\"0.5\"");
        }
        const std::string base = dir + "/" + std::to_string(index++);
        fj::test::write_file(base + ".flam3", xml);
        bool rendered = true;
        for (const char* s : {"A", "B"}) {
            const auto r = run_command(std::string("env in=") + quoted(base + ".flam3") + " out=" + quoted(base + s + ".png") +
                                       " isaac_seed=parity" + s + " nthreads=1 verbose=0 " + c.flam3_env + " flam3-render");
            CHECK_MESSAGE(r.status == 0, r.output);
            rendered = rendered && r.status == 0;
        }
        const auto ours = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(base + ".flam3") + " -o " +
                                      quoted(base + "C.png") + " --backend cpu --threads 1 --seed 5 --shuffle divergent " +
                                      c.flamejit_args);
        CHECK_MESSAGE(ours.status == 0, ours.output);
        if (!rendered || ours.status != 0) continue;
        const fj::PngImage a = fj::read_png(base + "A.png"), b = fj::read_png(base + "B.png"), ours_png = fj::read_png(base + "C.png");
        CHECK(a.width == ours_png.width);
        CHECK(a.height == ours_png.height);
        CHECK(a.bits == ours_png.bits);
        if (a.width != ours_png.width || a.height != ours_png.height || a.bits != ours_png.bits) continue;
        const double self = max_level_difference(a, b), diff = max_level_difference(a, ours_png);
        std::printf("%-20s %10.2f %10.2f\n", c.name, self, diff);
        CHECK_MESSAGE(diff <= 1.0 + 1e-9, "genome " << base << ".flam3");
    }
}

TEST_CASE("parity: --palettes and $flam3_palettes pick the palette library as flam3's flam3_palettes does") {
    if (!fj::test::flam3_render_present()) return;
    const std::string dir = fj::test::scratch_dir("parity-library");
    // A two-palette library whose palette 5 is a ramp unlike the stock file's.
    std::string library = "<palettes>\n";
    for (int number : {0, 5}) {
        library += "<palette number=\"" + std::to_string(number) + "\" name=\"test\" data=\"";
        for (int i = 0; i < 256; ++i) {
            char entry[9];
            std::snprintf(entry, sizeof entry, "00%02x%02x%02x", number == 5 ? i : 255 - i, (i * 7) & 255, number == 5 ? 40 : 200);
            library += entry;
        }
        library += "\"/>\n";
    }
    library += "</palettes>\n";
    fj::test::write_file(dir + "/library.xml", library);
    ParityCase c{"library file", "filter=\"1\" estimator_radius=\"0\" palette=\"5\" hue=\"0.25\"", "", "", "", true};
    fj::test::write_file(dir + "/g.flam3", genome(c));
    const std::string in = quoted(dir + "/g.flam3"), lib = quoted(dir + "/library.xml");
    const auto ref = run_command("env in=" + in + " out=" + quoted(dir + "/A.png") + " flam3_palettes=" + lib +
                                 " isaac_seed=lib nthreads=1 verbose=0 flam3-render");
    REQUIRE_MESSAGE(ref.status == 0, ref.output);
    const std::string render = quoted(fj::test::flamejit_binary()) + " render " + in + " --backend cpu --threads 1 --seed 5 --shuffle divergent";
    const auto by_option = run_command(render + " --palettes " + lib + " -o " + quoted(dir + "/option.png"));
    REQUIRE_MESSAGE(by_option.status == 0, by_option.output);
    const auto by_env = run_command("env flam3_palettes=" + lib + " " + render + " -o " + quoted(dir + "/env.png"));
    REQUIRE_MESSAGE(by_env.status == 0, by_env.output);
    const auto stock = run_command("env -u flam3_palettes " + render + " -o " + quoted(dir + "/stock.png"));
    REQUIRE_MESSAGE(stock.status == 0, stock.output);
    const fj::PngImage a = fj::read_png(dir + "/A.png");
    CHECK(max_level_difference(a, fj::read_png(dir + "/option.png")) <= 1.0);
    CHECK(max_level_difference(a, fj::read_png(dir + "/env.png")) <= 1.0);
    // The stock library's palette 5 looks different, so the file was used.
    CHECK(max_level_difference(a, fj::read_png(dir + "/stock.png")) > 20.0);
}
