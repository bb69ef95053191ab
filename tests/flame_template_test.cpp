// flamejit — flam3 templates, checked against libflam3's flam3_apply_template and
// flam3-genome's template=, and through the command line.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "flam3_oracle.h"
#include "genome/flam3_reader.h"
#include "genome/flame_template.h"
#include "image/png_io.h"
#include "test_support.h"

using fj::test::quoted;
using fj::test::run_command;

namespace {

// Templates that give every setting flam3 applies the way flamejit does
// (genome/flame_template.h: no gaussian filter, a green that is not
// negative, the three interpolation settings given, not smooth), alone and
// together.
const char* const kTemplates[] = {
    R"(<flame size="320 180"/>)",
    R"(<flame size="64 200" quality="12.5" supersample="3" filter="1.25" filter_shape="lanczos3"/>)",
    R"(<flame background="0.1 0.2 0.3" zoom="0.5" passes="2" temporal_samples="7"/>)",
    R"(<flame estimator_radius="5" estimator_minimum="1" estimator_curve="0.6" gamma_threshold="0.05"
              highlight_power="0.7" palette_mode="linear"/>)",
    R"(<flame interpolation="linear" interpolation_type="older" palette_interpolation="rgb" hsv_rgb_palette_blend="0.3"
              temporal_filter_type="exp" temporal_filter_width="0.4" temporal_filter_exp="1.5"/>)",
    R"(<flame version="a" name="profile" size="1920 1080" oversample="2" quality="50" filter="0.8" filter_shape="mitchell"
              background="1 1 1" temporal_samples="100" interpolation="linear" interpolation_space="linear"
              palette_interpolation="hsv_circular" hsv_rgb_palette_blend="0"/>)",
};

struct Flam3Template {
    flam3_genome* cp = nullptr;
    int count = 0;
    explicit Flam3Template(std::string text) {
        std::string name = "template";
        cp = flam3_parse_xml2(text.data(), name.data(), flam3_defaults_off, &count);
    }
    ~Flam3Template() {
        for (int i = 0; i < count; ++i) clear_cp(&cp[i], flam3_defaults_off);
        free(cp);
    }
};

}  // namespace

TEST_CASE("template: applied to genomes equals flam3_apply_template") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("template");
    const std::string genomes = dir + "/random.flam3";
    const auto gen = run_command("env seed=51 isaac_seed=template51 noedits=1 repeat=3 use_vars=" +
                                 fj::test::flam3_genome_variation_ids() + " flam3-genome > " + quoted(genomes));
    REQUIRE_MESSAGE(gen.status == 0, gen.output);
    const std::string text = fj::test::read_file(genomes);
    int compared = 0;
    for (const std::string templ : kTemplates) {
        CAPTURE(templ);
        const fj::FlameTemplate ours = fj::read_flam3_template_string(templ, "template");
        Flam3Template theirs(templ);
        REQUIRE(theirs.count == 1);
        fj::test::Flam3Genomes ref(text, "random");
        std::vector<fj::Flame> flames = fj::read_flam3_string(text, "random");
        REQUIRE(static_cast<int>(flames.size()) == ref.count);
        for (int k = 0; k < ref.count; ++k) {
            fj::apply_template(flames[k], ours);
            flam3_apply_template(&ref.cps[k], &theirs.cp[0]);
            fj::test::FlameDiff diff(1e-12);
            diff.compare(flames[k], ref.cps[k]);
            compared += diff.values_compared();
            for (const std::string& d : diff.differences()) FAIL_CHECK("flame " << k << ": " << d);
        }
    }
    MESSAGE(compared << " values compared");
    CHECK(compared > 0);
}

TEST_CASE("template: what it does not give stays, and flam3's slips are not repeated") {
    const char* genome =
        R"(<flame size="200 100" scale="40" quality="5" background="0.5 0.5 0.5" filter_shape="box" interpolation_type="linear"
                  palette_interpolation="sweep" brightness="3"><xform weight="1" linear="1"/></flame>)";
    fj::Flame f = fj::read_flam3_string(genome, "g").front();
    const fj::FlameTemplate t = fj::read_flam3_template_string(
        R"(<flame size="100 50" filter_shape="gaussian" background="0.1 -1 0.2" brightness="9" center="1 1"><xform weight="1" linear="1"/></flame>)",
        "t");
    CHECK(t.ignored == std::vector<std::string>{"brightness", "center"});
    fj::apply_template(f, t);
    CHECK(f.width == 100);
    CHECK(f.height == 50);
    CHECK(f.scale == 20);  // the same framing in half the height
    CHECK(f.filter_shape == fj::FilterShape::Gaussian);  // flam3 cannot set gaussian
    CHECK(f.background[2] == 0.2);                       // flam3 skips blue when green < 0
    CHECK(f.quality == 5);
    CHECK(f.brightness == 3);
    CHECK(f.interpolation_type == fj::AffineInterpolation::Linear);        // flam3 resets it
    CHECK(f.palette_interpolation == fj::PaletteInterpolation::Sweep);     // and this
    const fj::FlameTemplate smooth = fj::read_flam3_template_string(R"(<flame interpolation="smooth"/>)", "t");
    fj::apply_template(f, smooth);
    CHECK(f.interpolation == fj::Interpolation::Smooth);  // flam3 reads it linear, as a file's first flame

    CHECK_THROWS_WITH_AS(fj::read_flam3_template_string(R"(<flame size="0 10"/>)", "t"), doctest::Contains("size"),
                         fj::GenomeError);
    CHECK_THROWS_WITH_AS(fj::read_flam3_template_string(R"(<flame supersample="0"/>)", "t"),
                         doctest::Contains("supersample"), fj::GenomeError);
    CHECK_THROWS_WITH_AS(fj::read_flam3_template_string("<flames/>", "t"), doctest::Contains("no <flame>"),
                         fj::GenomeError);
    // Of several flames the first is the template (render warns of the rest).
    const fj::FlameTemplate two =
        fj::read_flam3_template_string(R"(<flames><flame quality="3"/><flame quality="9"/></flames>)", "t");
    CHECK(two.flames == 2);
    CHECK(two.values.quality == 3);
    CHECK_THROWS_WITH_AS(fj::read_flam3_template_string(R"(<flame quality="1" quality="2"/>)", "t"),
                         doctest::Contains("twice"), fj::GenomeError);
}

TEST_CASE("template: render, convert and sequence take --template as flam3-genome's template=") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("template-cli");
    const std::string flamejit = quoted(fj::test::flamejit_binary());
    const std::string templ = dir + "/t.flam3", genomes = dir + "/g.flam3";
    fj::test::write_file(templ, R"(<flame size="48 27" quality="2" supersample="2" filter_shape="hermite" brightness="7"
        interpolation="linear" interpolation_type="log" palette_interpolation="hsv_circular"/>)");
    const auto gen = run_command("env seed=52 isaac_seed=template52 noedits=1 repeat=2 use_vars=" +
                                 fj::test::flam3_genome_variation_ids() + " flam3-genome > " + quoted(genomes));
    REQUIRE_MESSAGE(gen.status == 0, gen.output);

    // render: the image has the template's size; one warning for what it ignores.
    const auto rendered = run_command(flamejit + " render " + quoted(genomes) + " --flame 1 --backend cpu --template " +
                                      quoted(templ) + " -o " + quoted(dir + "/one.png") + " 2>&1");
    REQUIRE_MESSAGE(rendered.status == 0, rendered.output);
    CHECK(rendered.output.find("ignoring brightness") != std::string::npos);
    CHECK(rendered.output.find("flames; the first is the template") == std::string::npos);
    // A value no genome can be drawn with is the template's error.
    fj::test::write_file(dir + "/bad.flam3", R"(<flame supersample="1000"/>)");
    const auto refused = run_command(flamejit + " render " + quoted(genomes) + " --flame 1 --backend cpu --template " +
                                     quoted(dir + "/bad.flam3") + " -o " + quoted(dir + "/bad.png") + " 2>&1");
    CHECK(refused.status == 2);
    CHECK_MESSAGE(refused.output.find("bad.flam3: as a template: supersample") != std::string::npos, refused.output);
    CHECK(!fj::test::file_exists(dir + "/bad.png"));
    const fj::PngImage image = fj::read_png(dir + "/one.png");
    CHECK(image.width == 48);
    CHECK(image.height == 27);

    // sequence: the frames flam3-genome makes with the same template.
    const std::string ours = dir + "/ours.flam3", theirs = dir + "/theirs.flam3";
    REQUIRE(run_command(flamejit + " sequence " + quoted(genomes) + " --frames 3 --template " + quoted(templ) + " -o " +
                        quoted(ours) + " 2>/dev/null")
                .status == 0);
    REQUIRE(run_command("env nframes=3 noedits=1 template=" + quoted(templ) + " sequence=" + quoted(genomes) +
                        " flam3-genome > " + quoted(theirs))
                .status == 0);
    const std::vector<fj::Flame> mine = fj::read_flam3_file(ours);
    fj::test::Flam3Genomes ref(fj::test::read_file(theirs), "flam3-genome");
    REQUIRE(static_cast<int>(mine.size()) == ref.count);
    for (int i = 0; i < ref.count; ++i) {
        CHECK(mine[i].width == 48);
        fj::test::FlameDiff diff(1e-5);  // flam3-genome prints six digits
        diff.compare(mine[i], ref.cps[i]);
        for (const std::string& d : diff.differences()) FAIL_CHECK("frame " << i << ": " << d);
    }

    // convert --time: the interpolated genome, then the template.
    const auto converted = run_command(flamejit + " convert " + quoted(ours) + " --time 1.5 --template " + quoted(templ) +
                                       " 2>/dev/null");
    REQUIRE(converted.status == 0);
    CHECK(converted.output.find("size=\"48 27\"") != std::string::npos);

    // A template that cannot be read: exit 2, one line, nothing written (of
    // two flames, a render would write bad.00000.png and bad.00001.png).
    const auto pngs = [&dir] {
        int n = 0;
        for (const auto& entry : std::filesystem::directory_iterator(dir)) n += entry.path().extension() == ".png";
        return n;
    };
    const int pngs_before = pngs();
    fj::test::write_file(dir + "/bad.flam3", R"(<flame size="48"/>)");
    const auto bad = run_command(flamejit + " render " + quoted(genomes) + " --backend cpu --template " +
                                 quoted(dir + "/bad.flam3") + " -o " + quoted(dir + "/bad.png") + " 2>&1");
    CHECK(bad.status == 2);
    CHECK(std::count(bad.output.begin(), bad.output.end(), '\n') == 1);
    CHECK(pngs() == pngs_before);
}
