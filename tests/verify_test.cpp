// SPDX-License-Identifier: GPL-3.0-or-later
// `flamejit verify`, end to end on the CPU backend: renders of the genome an
// image carries pass, flamejit's and flam3's alike, still or animation frame;
// an image made otherwise than its genome says does not; what cannot be
// verified is one line and exit 2.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include "image/png_io.h"
#include "test_support.h"

using fj::test::quoted;
using fj::test::run_command;

namespace {

// Density estimation and supersampling, so that the references take the
// post-pass the image took.
const char* kGenome =
    "<flame size=\"96 72\" scale=\"30\" quality=\"40\" supersample=\"2\" estimator_radius=\"5\">\n"
    "  <xform weight=\"1\" color=\"0\" spherical=\"1\" coefs=\"0.5 0 0 0.5 0.2 0\"/>\n"
    "  <xform weight=\"1\" color=\"1\" julia=\"1\" coefs=\"0.5 0 0 0.5 -0.3 0.1\"/>\n"
    "  <color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/>\n"
    "</flame>\n";

std::string flamejit() { return quoted(fj::test::flamejit_binary()); }

// `flamejit verify ARGS` on the CPU backend with fixed reference seeds (and
// threads, which the CPU backend's blocks of lanes follow).
fj::test::CommandResult verify(const std::string& args) {
    return run_command(flamejit() + " verify " + args + " --backend cpu --threads 2 --seed 77");
}

// The ratio a verify line prints.
double ratio_of(const std::string& output) {
    const std::string label = "fidelity ratio ";
    const size_t at = output.find(label);
    REQUIRE_MESSAGE(at != std::string::npos, output);
    return std::stod(output.substr(at + label.size()));
}

int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

}  // namespace

TEST_CASE("verify: renders of the genome an image carries pass; an image made otherwise does not") {
    const std::string dir = fj::test::scratch_dir("verify");
    const std::string genome = dir + "/g.flam3";
    fj::test::write_file(genome, kGenome);
    const std::string render = flamejit() + " render " + quoted(genome) + " --backend cpu --seed 3 --threads 2";
    // The genome in the image's text (PNG, JPEG), or only in its sidecar (a PPM).
    auto r = run_command(render + " -o " + quoted(dir + "/g.png") + " -o " + quoted(dir + "/g.jpg") + " -o " +
                         quoted(dir + "/g.ppm") + " --sidecar");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    for (const char* image : {"/g.png", "/g.jpg", "/g.ppm"}) {
        CAPTURE(image);
        r = verify(quoted(dir + image));
        CHECK_MESSAGE(r.status == 0, r.output);
        CHECK(ratio_of(r.output) < 1.15);
    }
    // Another thread count plots other blocks of lanes: as close as another seed.
    r = run_command(flamejit() + " render " + quoted(genome) + " --backend cpu --seed 3 --threads 1 -o " +
                    quoted(dir + "/t1.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    r = verify(quoted(dir + "/t1.png") + " --json");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto line = nlohmann::json::parse(r.output);
    CHECK(line.at("pass") == true);
    CHECK(line.at("ratio").get<double>() < 1.15);
    // The references' first and last seeds: 77 and 78, or 86 where the
    // level took ten.
    CHECK(line.at("seeds").at(0) == 77);
    CHECK(line.at("level").at("pass") == true);

    SUBCASE("flam3-render's image of the genome passes") {
        if (!fj::test::flam3_render_present()) return;
        r = run_command("env in=" + quoted(genome) + " out=" + quoted(dir + "/flam3.png") +
                        " isaac_seed=verify nthreads=2 flam3-render");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        r = verify(quoted(dir + "/flam3.png"));
        CHECK_MESSAGE(r.status == 0, r.output);
    }
    SUBCASE("an image of other tone values, of a changed xform or of fewer samples than its genome says: exit 3") {
        const std::string brighter = fj::test::set_flame_attribute(kGenome, "brightness", "8");
        std::string reweighted = kGenome;
        reweighted.replace(reweighted.find("weight=\"1\""), 10, "weight=\"2\"");
        const std::string fewer = fj::test::set_flame_attribute(kGenome, "quality", "4");
        int n = 0;
        for (const std::string& made : {brighter, reweighted, fewer}) {
            CAPTURE(made);
            // The image from `made`, its sidecar claiming the genome.
            const std::string image = dir + "/other" + std::to_string(n++) + ".png";
            fj::test::write_file(dir + "/made.flam3", made);
            r = run_command(flamejit() + " render " + quoted(dir + "/made.flam3") + " --backend cpu --seed 3 --threads 2 " +
                            "--no-png-comments -o " + quoted(image));
            REQUIRE_MESSAGE(r.status == 0, r.output);
            fj::test::write_file(image + ".json", nlohmann::json{{"genome", fj::test::read_file(genome)}}.dump());
            r = verify(quoted(image));
            CHECK_MESSAGE(r.status == 3, r.output);
            CHECK(ratio_of(r.output) > 1.25);
            CHECK(r.output.find("ABOVE the threshold") != std::string::npos);
        }
        // A threshold of the caller's.
        r = verify(quoted(dir + "/other2.png") + " --threshold 100");
        CHECK_MESSAGE(r.status == 0, r.output);
    }
    SUBCASE("OpenEXR images: tone-mapped ones in half or float verified; linear values not (exit 2)") {
        r = run_command(render + " -o " + quoted(dir + "/half.exr"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        r = run_command(render + " --bits 32 --transparent --color-space adobe-rgb -o " + quoted(dir + "/float.exr"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        r = verify(quoted(dir + "/half.exr") + " " + quoted(dir + "/float.exr"));
        CHECK_MESSAGE(r.status == 0, r.output);
        CHECK(lines(r.output) == 2);
        r = run_command(render + " --linear -o " + quoted(dir + "/linear.exr"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        r = verify(quoted(dir + "/linear.exr"));
        CHECK(r.status == 2);
        CHECK(r.output.find("--linear") != std::string::npos);
        // An EXR of a brighter genome that claims this one.
        fj::test::write_file(dir + "/bright.flam3", fj::test::set_flame_attribute(kGenome, "brightness", "8"));
        r = run_command(flamejit() + " render " + quoted(dir + "/bright.flam3") +
                        " --backend cpu --seed 3 --threads 2 --no-png-comments -o " + quoted(dir + "/bright.exr"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        fj::test::write_file(dir + "/bright.exr.json", nlohmann::json{{"genome", fj::test::read_file(genome)}}.dump());
        r = verify(quoted(dir + "/bright.exr"));
        CHECK_MESSAGE(r.status == 3, r.output);
    }
    SUBCASE("an image of another colour space is held against renders in that space") {
        r = run_command(render + " --color-space display-p3 -o " + quoted(dir + "/p3.png") + " -o " +
                        quoted(dir + "/p3.jpg"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        r = verify(quoted(dir + "/p3.png") + " " + quoted(dir + "/p3.jpg"));
        CHECK_MESSAGE(r.status == 0, r.output);
        // The same pixels without their profile, held against sRGB renders, fail.
        const fj::PngImage p3 = fj::read_png(dir + "/p3.png");
        REQUIRE_FALSE(p3.icc_profile.empty());
        fj::ImageF untagged;
        untagged.width = p3.width;
        untagged.height = p3.height;
        for (size_t i = 0; i < p3.rgba.size(); ++i)
            untagged.rgba.push_back(i % 4 == 3 ? 1.0f : static_cast<float>(p3.rgba[i]));
        fj::ImageOptions options;
        options.genome_xml = fj::read_png_text(dir + "/p3.png").at("flam3_genome");
        fj::write_png(dir + "/untagged.png", untagged, options);
        r = verify(quoted(dir + "/untagged.png"));
        CHECK_MESSAGE(r.status == 3, r.output);
    }
    SUBCASE("a change of tone that the ratio misses moves the mean level: more references, exit 3") {
        // At quality 200 the image's mean strays little from render to
        // render; 5 % more gamma reads a ratio of about 1.15 but moves the
        // level by 2.5-3 %, t 6 to 8 over ten references (4.8 fails).
        const std::string claimed = fj::test::set_flame_attribute(kGenome, "quality", "200");
        fj::test::write_file(dir + "/q200.flam3", claimed);
        fj::test::write_file(dir + "/gamma.flam3", fj::test::set_flame_attribute(claimed, "gamma", "4.2"));
        for (const char* name : {"q200", "gamma"}) {
            r = run_command(flamejit() + " render " + quoted(dir + "/" + name + ".flam3") +
                            " --backend cpu --seed 3 --threads 2 --no-png-comments -o " + quoted(dir + "/" + name + ".png"));
            REQUIRE_MESSAGE(r.status == 0, r.output);
            fj::test::write_file(dir + "/" + name + ".png.json", nlohmann::json{{"genome", claimed}}.dump());
        }
        r = verify(quoted(dir + "/q200.png") + " --json");
        CHECK_MESSAGE(r.status == 0, r.output);
        auto line = nlohmann::json::parse(r.output);
        CHECK(line.at("level").at("references") == 2);
        CHECK(std::fabs(line.at("level").at("shift").get<double>()) < 0.015);
        r = verify(quoted(dir + "/gamma.png") + " --json");
        CHECK_MESSAGE(r.status == 3, r.output);
        line = nlohmann::json::parse(r.output);
        CHECK(line.at("ratio").get<double>() < 1.25);
        CHECK(line.at("level").at("shift").get<double>() > 0.015);
        CHECK(line.at("level").at("references") == 10);
        CHECK(line.at("level").at("pass") == false);
        CHECK(line.at("seeds") == nlohmann::json::array({77, 86}));
        r = verify(quoted(dir + "/gamma.png"));
        CHECK(r.output.find("LEVEL differs") != std::string::npos);
        // A tolerance of the caller's.
        r = verify(quoted(dir + "/gamma.png") + " --level-tolerance 5");
        CHECK_MESSAGE(r.status == 0, r.output);
        r = verify(quoted(dir + "/gamma.png") + " --level-tolerance -1");
        CHECK(r.status == 2);
    }
    SUBCASE("what cannot be verified: exit 2, one line") {
        r = run_command(render + " --no-png-comments -o " + quoted(dir + "/bare.png") + " -o " + quoted(dir + "/g.exr") +
                        " -o " + quoted(dir + "/odd.png"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        // A sidecar whose settings are not what a sidecar's are; a PNG that is not one.
        fj::test::write_file(dir + "/odd.png.json",
                             nlohmann::json{{"genome", fj::test::read_file(genome)}, {"settings", {{"transparent", "yes"}}}}
                                 .dump());
        fj::test::write_file(dir + "/junk.png", "not an image\n");
        for (const std::string& bad :
             {quoted(dir + "/bare.png"), quoted(dir + "/g.exr"), quoted(dir + "/missing.png"), std::string(""),
              quoted(dir + "/g.png") + " --threshold 0", quoted(dir + "/odd.png"), quoted(dir + "/junk.png")}) {
            CAPTURE(bad);
            r = verify(bad);
            CHECK(r.status == 2);
            CHECK(lines(r.output) == 1);
        }
        // Among others, each is one line, and the others are verified.
        r = verify(quoted(dir + "/g.png") + " " + quoted(dir + "/junk.png") + " " + quoted(dir + "/bare.png") + " " +
                   quoted(dir + "/g.jpg"));
        CHECK(r.status == 2);
        CHECK(lines(r.output) == 4);
        CHECK(r.output.find("g.png: fidelity ratio") != std::string::npos);
        CHECK(r.output.find("g.jpg: fidelity ratio") != std::string::npos);
    }
}

TEST_CASE("verify --sequence: an animation frame is rendered as animate renders it, motion blur included") {
    const std::string dir = fj::test::scratch_dir("verify_frames");
    const std::string sequence = dir + "/seq.flam3";
    fj::test::write_file(sequence, "<flames>" +
                                       fj::test::set_flame_attribute(
                                           fj::test::set_flame_attribute(kGenome, "time", "0"), "rotate", "0") +
                                       fj::test::set_flame_attribute(
                                           fj::test::set_flame_attribute(kGenome, "time", "4"), "rotate", "90") +
                                       "</flames>");
    // A turn a loop, at half the size: the frame's camera says its scale.
    auto r = run_command(flamejit() + " animate " + quoted(sequence) + " --loop 8 --frames 9:10 --size-scale 0.5 " +
                         "--backend cpu --threads 2 --seed 5 -o " + quoted(dir + "/f%d.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    r = verify(quoted(dir + "/f9.png") + " " + quoted(dir + "/f10.png") + " --sequence " + quoted(sequence));
    CHECK_MESSAGE(r.status == 0, r.output);
    CHECK(lines(r.output) == 2);
    // As a still (its genome at the frame's time, no motion) it reads the blur.
    r = verify(quoted(dir + "/f9.png"));
    CHECK_MESSAGE(r.status == 3, r.output);
    if (!fj::test::flam3_render_present()) return;
    // flam3-animate's frame, known by its genome's time.
    r = run_command("cd " + quoted(dir) + " && env in=" + quoted(sequence) +
                    " begin=2 end=2 nthreads=2 isaac_seed=verify prefix=flam3. flam3-animate");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    r = verify(quoted(dir + "/flam3.00002.png") + " --sequence " + quoted(sequence));
    CHECK_MESSAGE(r.status == 0, r.output);
}
