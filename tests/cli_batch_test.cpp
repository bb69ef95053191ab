// SPDX-License-Identifier: GPL-3.0-or-later
// The command line's batch conveniences, end to end on the CPU backend:
// several genomes in one render, a genome on standard input, an output size
// (--size), flam3's size and quality scales (ss, qs), progress as JSON or a bar, strips under a memory
// budget, render state and progressive stages, an image's line printed once
// its files are written. Each is checked against
// renders of the same pictures asked for the plain way, with the same seed.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "genome/flam3_reader.h"
#include "image/fidelity.h"
#include "image/jpeg_io.h"
#include "image/png_io.h"
#include "pipeline/frame_batch.h"
#include "pipeline/render_state.h"
#include "test_support.h"

using fj::test::quoted;
using fj::test::run_command;

namespace {

const char* kGenome =
    "<flame size=\"64 48\" scale=\"20\" quality=\"2\">\n"
    "  <xform weight=\"1\" color=\"0\" spherical=\"1\" coefs=\"0.5 0 0 0.5 0.2 0\"/>\n"
    "  <xform weight=\"1\" color=\"1\" julia=\"1\" coefs=\"0.5 0 0 0.5 -0.3 0.1\"/>\n"
    "  <color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/>\n"
    "</flame>\n";

// The same picture at half the size on each side: flam3's ss=0.5 written out.
const char* kHalfGenome =
    "<flame size=\"32 24\" scale=\"10\" quality=\"2\">\n"
    "  <xform weight=\"1\" color=\"0\" spherical=\"1\" coefs=\"0.5 0 0 0.5 0.2 0\"/>\n"
    "  <xform weight=\"1\" color=\"1\" julia=\"1\" coefs=\"0.5 0 0 0.5 -0.3 0.1\"/>\n"
    "  <color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/>\n"
    "</flame>\n";

// flamejit ARGS on the CPU backend with a fixed seed and no text chunks, run
// in folder `dir` (relative outputs go there).
fj::test::CommandResult flamejit_in(const std::string& dir, const std::string& args) {
    return run_command("cd " + quoted(dir) + " && " + quoted(fj::test::flamejit_binary()) + " " + args +
                       " --backend cpu --threads 2 --seed 9 --no-png-comments");
}

fj::test::CommandResult flamejit(const std::string& args) { return flamejit_in(".", args); }

// The names in folder `dir`.
std::set<std::string> listing(const std::string& dir) {
    std::set<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) names.insert(entry.path().filename());
    return names;
}

int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }

// kGenome as the keyframes of times 0 and 1.
std::string two_keyframes() {
    return std::string("<flames>") + std::string(kGenome).insert(7, "time=\"0\" ") +
           std::string(kGenome).insert(7, "time=\"1\" ") + "</flames>";
}

// `render ARGS -o DIR/PNG` (as flamejit() runs it), which must succeed; the image.
fj::PngImage render_png(const std::string& dir, const std::string& args, const std::string& png) {
    const auto r = flamejit("render " + args + " -o " + quoted(dir + "/" + png));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    return fj::read_png(dir + "/" + png);
}

// A usage error: exit 2, one line, and no image written to `image`.
void check_refused(const fj::test::CommandResult& r, const std::string& image) {
    CHECK(r.status == 2);
    CHECK(lines(r.output) == 1);
    CHECK_FALSE(fj::test::file_exists(image));
}

// Runs `command`, its output to a file in `dir`, and removes the folder
// `gone` as soon as `started` appears in that output (the command has
// checked its outputs and begun), then waits for it; its status and output.
fj::test::CommandResult run_removing(const std::string& command, const std::string& dir, const std::string& gone,
                                     const std::string& started) {
    const std::string out = quoted(dir + "/output"), status = quoted(dir + "/status");
    return run_command("(" + command + " >" + out + " 2>&1; echo $? >" + status + ") & i=0; until grep -q " +
                       quoted(started) + " " + out + " 2>/dev/null || [ $i -ge 3000 ]; do sleep 0.01; i=$((i+1)); " +
                       "done; rm -rf " + quoted(gone) + "; wait; cat " + out + "; exit $(cat " + status + ")");
}

}  // namespace

TEST_CASE("cli batch: a genome on standard input renders and converts as the same file does") {
    const std::string dir = fj::test::scratch_dir("stdin");
    const std::string g = dir + "/g.flam3";
    fj::test::write_file(g, std::string("<flames>") + kGenome + kHalfGenome + "</flames>");
    auto r = flamejit("render " + quoted(g) + " -o " + quoted(dir + "/file.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    r = flamejit("render - -o " + quoted(dir + "/piped.png") + " < " + quoted(g));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    for (const char* suffix : {".00000.png", ".00001.png"}) {
        CAPTURE(suffix);
        CHECK(fj::read_png(dir + "/piped" + suffix).rgba == fj::read_png(dir + "/file" + suffix).rgba);
    }
    const auto converted = run_command(quoted(fj::test::flamejit_binary()) + " convert " + quoted(g));
    const auto converted_piped = run_command(quoted(fj::test::flamejit_binary()) + " convert - < " + quoted(g));
    CHECK(converted.status == 0);
    CHECK(converted_piped.output == converted.output);

    SUBCASE("without -o the image is stdin.png, in the current folder") {
        r = run_command("cd " + quoted(dir) + " && " + quoted(fj::test::flamejit_binary()) +
                        " render - --flame 1 --backend cpu --quality 1 < " + quoted(g));
        CHECK_MESSAGE(r.status == 0, r.output);
        CHECK(fj::test::file_exists(dir + "/stdin.png"));
    }
    SUBCASE("bad input on standard input: exit 2, one line naming stdin") {
        r = run_command(quoted(fj::test::flamejit_binary()) + " render - -o " + quoted(dir + "/bad.png") +
                        " --backend cpu < " + quoted(dir + "/file.00000.png"));
        CHECK(r.status == 2);
        CHECK(lines(r.output) == 1);
        CHECK(r.output.find("stdin:") != std::string::npos);
        CHECK_FALSE(fj::test::file_exists(dir + "/bad.png"));
    }
}

TEST_CASE("cli batch: several genomes render in one run, each image named after its file") {
    const std::string dir = fj::test::scratch_dir("several");
    fj::test::write_file(dir + "/a.flam3", kGenome);
    fj::test::write_file(dir + "/b.flam3", std::string("<flames>") + kHalfGenome + kGenome + "</flames>");
    std::filesystem::create_directories(dir + "/out");
    auto r = flamejit("render " + quoted(dir + "/a.flam3") + " " + quoted(dir + "/b.flam3") + " -o " + quoted(dir + "/out"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    // Each image is the one a render of its file alone makes.
    r = flamejit("render " + quoted(dir + "/a.flam3") + " -o " + quoted(dir + "/a.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    r = flamejit("render " + quoted(dir + "/b.flam3") + " -o " + quoted(dir + "/b.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(fj::read_png(dir + "/out/a.png").rgba == fj::read_png(dir + "/a.png").rgba);
    CHECK(fj::read_png(dir + "/out/b.00000.png").rgba == fj::read_png(dir + "/b.00000.png").rgba);
    CHECK(fj::read_png(dir + "/out/b.00001.png").rgba == fj::read_png(dir + "/b.00001.png").rgba);
    CHECK(fj::read_png(dir + "/out/b.00000.png").width == 32);

    SUBCASE("an existing folder takes one genome's image too; without -o the images go to the current folder") {
        std::filesystem::create_directories(dir + "/one");
        r = flamejit("render " + quoted(dir + "/a.flam3") + " -o " + quoted(dir + "/one"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        CHECK(fj::read_png(dir + "/one/a.png").rgba == fj::read_png(dir + "/a.png").rgba);
        r = flamejit("render " + quoted(dir + "/a.flam3") + " -o " + quoted(dir + "/two/"));
        CHECK(r.status == 2);
        CHECK(r.output.find("there is none of that name") != std::string::npos);
        std::filesystem::create_directories(dir + "/here");
        r = fj::test::run_command("cd " + quoted(dir + "/here") + " && " + quoted(fj::test::flamejit_binary()) +
                                  " render ../a.flam3 ../b.flam3 --backend cpu --seed 1");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        CHECK(fj::test::file_exists(dir + "/here/a.png"));
        CHECK(fj::test::file_exists(dir + "/here/b.00001.png"));
    }
    SUBCASE("a bad genome in a later file: exit 2 before any image is written") {
        fj::test::write_file(dir + "/c.flam3", std::string(kGenome).replace(std::string(kGenome).find("scale=\"20\""), 10,
                                                                            "scale=\"-5\""));
        std::filesystem::create_directories(dir + "/none");
        r = flamejit("render " + quoted(dir + "/a.flam3") + " " + quoted(dir + "/c.flam3") + " -o " + quoted(dir + "/none"));
        CHECK(r.status == 2);
        CHECK(r.output.find("c.flam3: flame 0") != std::string::npos);
        CHECK(std::filesystem::is_empty(dir + "/none"));
    }
    SUBCASE("usage errors, and nothing written") {
        std::filesystem::create_directories(dir + "/x");
        std::filesystem::create_directories(dir + "/none");
        fj::test::write_file(dir + "/x/a.flam3", kGenome);
        const std::string two = quoted(dir + "/a.flam3") + " " + quoted(dir + "/b.flam3");
        for (const std::string& args :
             {"render " + quoted(dir + "/a.flam3") + " " + quoted(dir + "/x/a.flam3") + " -o " + quoted(dir + "/none"),
              "render " + two + " -o " + quoted(dir + "/absent"), "render " + two + " -o " + quoted(dir + "/a.png"),
              "render " + two + " --flame 0 -o " + quoted(dir + "/none"), "render - - -o " + quoted(dir + "/none")}) {
            CAPTURE(args);
            r = flamejit(args + " < /dev/null");
            CHECK(r.status == 2);
            CHECK(lines(r.output) == 1);
        }
        CHECK(std::filesystem::is_empty(dir + "/none"));
    }
}

TEST_CASE("cli batch: --size-scale and --quality-scale act as flam3's ss and qs") {
    const std::string dir = fj::test::scratch_dir("scales");
    fj::test::write_file(dir + "/g.flam3", kGenome);
    fj::test::write_file(dir + "/half.flam3", kHalfGenome);
    const std::string g = quoted(dir + "/g.flam3");
    const auto render = [&](const std::string& args, const std::string& png) { return render_png(dir, args, png); };
    // ss scales width, height and scale: the picture of the genome written at that size.
    const fj::PngImage scaled = render(g + " --size-scale 0.5", "scaled.png");
    CHECK(scaled.width == 32);
    CHECK(scaled.height == 24);
    CHECK(scaled.rgba == render(quoted(dir + "/half.flam3"), "half.png").rgba);
    // Sizes are truncated, as flam3-render's (int) casts do.
    const fj::PngImage odd = render(g + " --size-scale 0.3", "odd.png");
    CHECK(odd.width == 19);
    CHECK(odd.height == 14);
    // qs multiplies the genome's quality, or --quality's.
    CHECK(render(g + " --quality-scale 3", "qs.png").rgba == render(g + " --quality 6", "q6.png").rgba);
    CHECK(render(g + " --quality 1 --quality-scale 3", "q1qs.png").rgba ==
          render(g + " --quality 3", "q3.png").rgba);
    // The PNG's genome is the one rendered.
    const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + g + " -o " +
                               quoted(dir + "/chunk.png") + " --backend cpu --size-scale 0.5 --quality-scale 3");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const std::string genome = fj::read_png_text(dir + "/chunk.png").at("flam3_genome");
    CHECK(genome.find("size=\"32 24\"") != std::string::npos);
    CHECK(genome.find("scale=\"10\"") != std::string::npos);
    CHECK(genome.find("quality=\"6\"") != std::string::npos);

    for (const char* bad : {"--size-scale 0", "--size-scale -2", "--size-scale x", "--size-scale 0.001",
                            "--size-scale 2000", "--quality-scale 0", "--quality-scale inf"}) {
        CAPTURE(bad);
        check_refused(flamejit("render " + g + " -o " + quoted(dir + "/bad.png") + " " + bad), dir + "/bad.png");
    }
    SUBCASE("animate takes them too") {
        fj::test::write_file(dir + "/seq.flam3", two_keyframes());
        const auto a = flamejit("animate " + quoted(dir + "/seq.flam3") + " --frames 0:0 --size-scale 0.5 -o " +
                                quoted(dir + "/f%05d.png"));
        REQUIRE_MESSAGE(a.status == 0, a.output);
        CHECK(fj::read_png(dir + "/f00000.png").width == 32);
    }
}

TEST_CASE("cli batch: --size WxH sets the image's size and keeps the picture's height, as a template's size does") {
    const std::string dir = fj::test::scratch_dir("size");
    fj::test::write_file(dir + "/g.flam3", kGenome);
    fj::test::write_file(dir + "/half.flam3", kHalfGenome);
    // kHalfGenome three times as wide, written out: scale 10 still spans its 24 rows.
    std::string wide = kHalfGenome;
    wide.replace(wide.find("size=\"32 24\""), 12, "size=\"96 24\"");
    fj::test::write_file(dir + "/wide.flam3", wide);
    fj::test::write_file(dir + "/template.flam3", "<flame size=\"96 24\"/>\n");
    const std::string g = quoted(dir + "/g.flam3");
    const auto render = [&](const std::string& args, const std::string& png) { return render_png(dir, args, png); };
    const fj::PngImage plain = render(g, "plain.png");
    const fj::PngImage half = render(g + " --size 32x24", "half.png");
    CHECK(half.width == 32);
    CHECK(half.height == 24);
    CHECK(half.rgba == render(quoted(dir + "/half.flam3"), "half-genome.png").rgba);
    const fj::PngImage wider = render(g + " --size 96x24", "wide.png");
    CHECK(wider.width == 96);
    CHECK(wider.rgba == render(quoted(dir + "/wide.flam3"), "wide-genome.png").rgba);
    CHECK(wider.rgba == render(g + " --template " + quoted(dir + "/template.flam3"), "template.png").rgba);
    // It replaces a template's size, and --size-scale applies after it.
    CHECK(render(g + " --size 64x48 --template " + quoted(dir + "/template.flam3"), "over.png").rgba == plain.rgba);
    CHECK(render(g + " --size 32x24 --size-scale 2", "both.png").rgba == plain.rgba);
    // The PNG's genome is the one rendered.
    const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + g + " -o " +
                               quoted(dir + "/chunk.png") + " --backend cpu --size 96x24");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const std::string genome = fj::read_png_text(dir + "/chunk.png").at("flam3_genome");
    CHECK(genome.find("size=\"96 24\"") != std::string::npos);
    CHECK(genome.find("scale=\"10\"") != std::string::npos);

    for (const char* bad : {"--size 0x24", "--size 32", "--size 32x", "--size 32x24x", "--size -32x24", "--size 32X24",
                            "--size 70000x24", "--size 32x24.5"}) {
        CAPTURE(bad);
        const auto b = flamejit("render " + g + " -o " + quoted(dir + "/bad.png") + " " + bad);
        check_refused(b, dir + "/bad.png");
        CHECK(b.output.find("--size must be WxH") != std::string::npos);
    }
    SUBCASE("animate takes it too") {
        fj::test::write_file(dir + "/seq.flam3", two_keyframes());
        const auto a = flamejit("animate " + quoted(dir + "/seq.flam3") + " --frames 0:0 --size 96x24 -o " +
                                quoted(dir + "/f%05d.png"));
        REQUIRE_MESSAGE(a.status == 0, a.output);
        const fj::PngImage frame = fj::read_png(dir + "/f00000.png");
        CHECK(frame.width == 96);
        CHECK(frame.height == 24);
    }
}

TEST_CASE("cli batch: --progress json reports each image's progress and result as JSON lines") {
    const std::string dir = fj::test::scratch_dir("progress");
    fj::test::write_file(dir + "/a.flam3", kGenome);
    fj::test::write_file(dir + "/b.flam3", kHalfGenome);
    const auto r = flamejit("render " + quoted(dir + "/a.flam3") + " " + quoted(dir + "/b.flam3") + " -o " +
                            quoted(dir) + " --progress json --quality 50");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    std::map<std::string, std::vector<nlohmann::json>> events;  // by image
    std::map<std::string, unsigned long long> printed;          // samples on the result lines
    std::istringstream lines_in(r.output);
    for (std::string line; std::getline(lines_in, line);) {
        if (line.rfind("{", 0) == 0) {
            const nlohmann::json e = nlohmann::json::parse(line);
            events[e.at("image").get<std::string>()].push_back(e);
        } else if (const size_t colon = line.find(": "); colon != std::string::npos) {
            printed[line.substr(0, colon)] = std::stoull(line.substr(colon + 2));
        }
    }
    for (const char* name : {"/a.png", "/b.png"}) {
        const std::string image = dir + name;
        CAPTURE(image);
        REQUIRE(events[image].size() >= 2);
        const auto& e = events[image];
        double last = -1;
        for (size_t i = 0; i + 1 < e.size(); ++i) {
            CHECK(e[i].at("fraction").get<double>() > last);
            last = e[i].at("fraction").get<double>();
            // Once all is iterated, the post-pass runs.
            CHECK(e[i].at("stage") == (last < 1.0 ? "iterating" : "post-pass"));
        }
        CHECK(last == 1.0);
        CHECK(e.back().at("done").get<bool>());
        CHECK(e.back().at("backend") == "cpu");
        CHECK(e.back().at("samples").get<unsigned long long>() == printed[image]);
        CHECK(printed[image] > 0);
    }
    CHECK(flamejit("render " + quoted(dir + "/a.flam3") + " -o " + quoted(dir + "/x.png") + " --progress loud").status == 2);
}

TEST_CASE("cli batch: a progress bar is cleared as wide as it was drawn, however long the image's name") {
    const std::string dir = fj::test::scratch_dir("bar");
    // With several images a bar is labelled with the image's file name, and
    // its line is that and some 50 columns: this one's is well over 80.
    const std::string name = std::string(60, 'n');
    fj::test::write_file(dir + "/" + name + ".flam3", kGenome);
    fj::test::write_file(dir + "/b.flam3", kHalfGenome);
    const auto r = flamejit("render " + quoted(dir + "/" + name + ".flam3") + " " + quoted(dir + "/b.flam3") + " -o " +
                            quoted(dir) + " --progress bar --quality 50");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    // Between carriage returns: bars, and runs of spaces that clear them.
    size_t widest = 0, bars = 0, clears = 0;
    std::istringstream pieces(r.output);
    for (std::string piece; std::getline(pieces, piece, '\r');) {
        if (piece.rfind(name + ".png [", 0) == 0) {
            widest = std::max(widest, piece.find_last_not_of(' ') + 1);
            ++bars;
        } else if (!piece.empty() && piece.find_first_not_of(' ') == std::string::npos) {
            CHECK(piece.size() >= widest);
            widest = 0;
            ++clears;
        }
    }
    CHECK(bars >= 1);
    CHECK(clears >= 2);  // one bar an image
    CHECK(widest == 0);  // no bar left on the screen
    CHECK(r.output.find(dir + "/" + name + ".png: ") != std::string::npos);  // the image's line
}

TEST_CASE("cli batch: a frame over the memory budget renders in strips, with the pixels of one piece") {
    const std::string dir = fj::test::scratch_dir("strips");
    // Density estimation and supersampling, so strips need their margins.
    const std::string genome = dir + "/g.flam3";
    std::string xml = fj::test::set_flame_attribute(kGenome, "estimator_radius", "5");
    xml = fj::test::set_flame_attribute(xml, "supersample", "2");
    fj::test::write_file(genome, xml);
    const auto one = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/one.png") + " --strips 1");
    REQUIRE_MESSAGE(one.status == 0, one.output);
    CHECK(one.output.find("strips of") == std::string::npos);
    const fj::PngImage whole = fj::read_png(dir + "/one.png");

    // As many strips as asked; each iterates the whole frame.
    const auto three = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/three.png") + " --strips 3");
    REQUIRE_MESSAGE(three.status == 0, three.output);
    CHECK(three.output.find("3 strips of 16 rows") != std::string::npos);
    CHECK(fj::read_png(dir + "/three.png").rgba == whole.rgba);

    // As few as the budget allows (the frame's buffers come to about 850 KiB
    // here, those of a strip of one row to about 180 KiB).
    const auto budget =
        flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/budget.png") + " --memory-budget 500K");
    REQUIRE_MESSAGE(budget.status == 0, budget.output);
    CHECK(budget.output.find("(memory budget 500 KiB)") != std::string::npos);
    CHECK(budget.output.find("3 strips of 16 rows") != std::string::npos);
    CHECK(fj::read_png(dir + "/budget.png").rgba == whole.rgba);

    // The PNG says how it was made; its genome renders the same picture.
    const auto chunks = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                    quoted(dir + "/text.png") + " --backend cpu --strips 2 --seed 9");
    REQUIRE_MESSAGE(chunks.status == 0, chunks.output);
    const auto text = fj::read_png_text(dir + "/text.png");
    CHECK(text.at("flamejit_strips") == "2");
    CHECK(text.at("flam3_genome").find("estimator_radius=\"5\"") != std::string::npos);

    // A budget not even one-row strips fit, and bad values: exit 2, no file.
    const auto tiny = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/tiny.png") + " --memory-budget 1K");
    CHECK(tiny.status == 2);
    CHECK(lines(tiny.output) == 1);
    CHECK(tiny.output.find("even in strips of one row, more than the 1.0 KiB memory budget") != std::string::npos);
    CHECK_FALSE(fj::test::file_exists(dir + "/tiny.png"));
    const auto thin = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/thin.png") + " --strips 49");
    CHECK(thin.status == 2);
    CHECK(lines(thin.output) == 1);
    CHECK_MESSAGE(thin.output.find("has 48 rows, too few for 49 strips") != std::string::npos, thin.output);
    CHECK_FALSE(fj::test::file_exists(dir + "/thin.png"));
    for (const char* bad : {"--strips 0", "--strips many", "--memory-budget 0", "--memory-budget 2X"})
        CHECK(flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/bad.png") + " " + bad).status == 2);

    // Animation frames too.
    const std::string sequence = dir + "/seq.flam3";
    fj::test::write_file(sequence, "<flames>" + fj::test::set_flame_attribute(xml, "time", "0") +
                                       fj::test::set_flame_attribute(fj::test::set_flame_attribute(xml, "time", "2"),
                                                                     "rotate", "30") +
                                       "</flames>");
    for (const char* strips : {"1", "4"}) {
        const auto r = flamejit("animate " + quoted(sequence) + " --frames 1:1 -o " +
                                quoted(dir + "/f" + strips + "_%d.png") + " --strips " + strips);
        REQUIRE_MESSAGE(r.status == 0, r.output);
    }
    CHECK(fj::read_png(dir + "/f4_1.png").rgba == fj::read_png(dir + "/f1_1.png").rgba);
}

TEST_CASE("cli batch: --save-state and --resume-state carry a histogram to a higher quality or new tone values") {
    const std::string dir = fj::test::scratch_dir("state");
    const std::string genome = dir + "/g.flam3", state = dir + "/g.fjstate";
    fj::test::write_file(genome, kGenome);
    const auto first = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/first.png") + " --quality 5 --save-state " +
                                quoted(state));
    REQUIRE_MESSAGE(first.status == 0, first.output);
    CHECK(fj::test::file_exists(state));

    // New tone values only: the state tone-maps to what a direct render with
    // them makes (same seed), iterating nothing.
    const std::string toned = dir + "/toned.flam3";
    fj::test::write_file(toned, fj::test::set_flame_attribute(kGenome, "gamma", "2"));
    const auto again = flamejit("render " + quoted(toned) + " -o " + quoted(dir + "/again.png") + " --quality 5 --resume-state " +
                                quoted(state));
    REQUIRE_MESSAGE(again.status == 0, again.output);
    CHECK(again.output.find(": 0 samples in") != std::string::npos);
    const auto direct = flamejit("render " + quoted(toned) + " -o " + quoted(dir + "/direct.png") + " --quality 5");
    REQUIRE_MESSAGE(direct.status == 0, direct.output);
    CHECK(fj::read_png(dir + "/again.png").rgba == fj::read_png(dir + "/direct.png").rgba);

    // A higher quality iterates the rest; the PNG counts all the samples.
    const auto more = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                  quoted(dir + "/more.png") + " --backend cpu --seed 4 --quality 20 --resume-state " +
                                  quoted(state) + " --save-state " + quoted(dir + "/more.fjstate"));
    REQUIRE_MESSAGE(more.status == 0, more.output);
    CHECK(more.output.find("resumed from") != std::string::npos);
    const auto text = fj::read_png_text(dir + "/more.png");
    // Backends plot whole rounds until they have the samples asked for: at
    // least as many, and at most a round of lanes more (a few per cent of
    // so small a frame).
    const double all = std::stod(text.at("flam3_samples")), resumed = std::stod(text.at("flamejit_resumed_samples"));
    CHECK(all >= 20.0 * 64 * 48);
    CHECK(all <= 1.05 * 20.0 * 64 * 48);
    CHECK(resumed >= 5.0 * 64 * 48);
    CHECK(resumed <= 1.05 * 5.0 * 64 * 48);

    // Parts of one image rendered apart, each with a seed of its own, sum to
    // the whole: the first state (seed 9) and one of seed 4, quality 5 each,
    // make quality 10 with nothing iterated. A part given twice is refused.
    const auto part = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                  quoted(dir + "/part.png") + " --backend cpu --seed 4 --quality 5 --save-state " +
                                  quoted(dir + "/part.fjstate"));
    REQUIRE_MESSAGE(part.status == 0, part.output);
    const auto summed = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                    quoted(dir + "/summed.png") + " --backend cpu --quality 10 --resume-state " +
                                    quoted(state) + " --resume-state " + quoted(dir + "/part.fjstate"));
    REQUIRE_MESSAGE(summed.status == 0, summed.output);
    CHECK(summed.output.find(": 0 samples in") != std::string::npos);
    CHECK(std::stoull(fj::read_png_text(dir + "/summed.png").at("flamejit_resumed_samples")) ==
          fj::read_render_state(state).plotted + fj::read_render_state(dir + "/part.fjstate").plotted);
    const auto twice = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/twice.png") + " --quality 10 --resume-state " +
                                quoted(state) + " --resume-state " + quoted(state));
    CHECK(twice.status == 2);
    CHECK(lines(twice.output) == 1);
    CHECK(twice.output.find("shares a run's samples") != std::string::npos);
    CHECK_FALSE(fj::test::file_exists(dir + "/twice.png"));

    // Another genome's state, a file that is no state, and two images: exit 2.
    const auto other = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/x.png") + " --size-scale 2 --resume-state " +
                                quoted(state));
    CHECK(other.status == 2);
    CHECK(other.output.find("the render state holds another frame") != std::string::npos);
    CHECK_FALSE(fj::test::file_exists(dir + "/x.png"));
    CHECK(flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/x.png") + " --resume-state " + quoted(genome)).status == 2);
    CHECK(flamejit("render " + quoted(genome) + " " + quoted(toned) + " -o " + quoted(dir) + " --save-state " + quoted(state))
              .status == 2);
    // A state where it cannot go: exit 2 before rendering.
    CHECK(flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/y.png") + " --save-state " +
                   quoted(dir + "/absent/s.fjstate"))
              .status == 2);
    CHECK(flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/y.png") + " --save-state " + quoted(dir + "/y.png"))
              .status == 2);
    CHECK_FALSE(fj::test::file_exists(dir + "/y.png"));

    // --progressive: the image written at each doubling of the quality, the
    // state with it; together the stages iterate the quality asked for.
    const auto staged = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/staged.png") +
                                 " --quality 16 --progressive 3 --save-state " + quoted(dir + "/staged.fjstate"));
    REQUIRE_MESSAGE(staged.status == 0, staged.output);
    CHECK(staged.output.find("quality 4 of 16 (stage 1 of 3)") != std::string::npos);
    CHECK(staged.output.find("quality 8 of 16 (stage 2 of 3)") != std::string::npos);
    const fj::RenderState staged_state = fj::read_render_state(dir + "/staged.fjstate");
    CHECK(staged_state.requested == 16ull * 64 * 48);
    CHECK(staged_state.runs == 3);
    CHECK(fj::test::file_exists(dir + "/staged.png"));
    for (const char* bad : {"--progressive 0", "--progressive 2 --strips 2"})
        CHECK(flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/bad.png") + " " + bad).status == 2);
}

TEST_CASE("cli batch: an image in strips keeps its strips' states in a folder, to tone-map again, resume or sum") {
    const std::string dir = fj::test::scratch_dir("state-strips");
    const std::string genome = dir + "/g.flam3", toned = dir + "/toned.flam3", states = dir + "/states";
    fj::test::write_file(genome, kGenome);
    fj::test::write_file(toned, fj::test::set_flame_attribute(kGenome, "gamma", "2"));
    const auto first = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/first.png") +
                                " --quality 5 --strips 3 --save-state " + quoted(states));
    REQUIRE_MESSAGE(first.status == 0, first.output);
    for (int k = 1; k <= 3; ++k)
        CHECK(fj::test::file_exists(states + "/strip-" + std::to_string(k) + "-of-3.fjstate"));

    // New tone values: the strips' states tone-map to a direct render in
    // strips with them (same seed), iterating nothing; the strips come from
    // the folder, not from --strips.
    const auto again = flamejit("render " + quoted(toned) + " -o " + quoted(dir + "/again.png") +
                                " --quality 5 --resume-state " + quoted(states));
    REQUIRE_MESSAGE(again.status == 0, again.output);
    CHECK(again.output.find(": 0 samples in") != std::string::npos);
    CHECK(again.output.find(", 3 strips") != std::string::npos);
    const auto direct = flamejit("render " + quoted(toned) + " -o " + quoted(dir + "/direct.png") + " --quality 5 --strips 3");
    REQUIRE_MESSAGE(direct.status == 0, direct.output);
    CHECK(fj::read_png(dir + "/again.png").rgba == fj::read_png(dir + "/direct.png").rgba);

    // Another seed's strips sum with them: quality 10, nothing iterated.
    const auto part = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                  quoted(dir + "/part.png") + " --backend cpu --seed 4 --quality 5 --strips 3 " +
                                  "--save-state " + quoted(dir + "/part"));
    REQUIRE_MESSAGE(part.status == 0, part.output);
    const auto summed = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/summed.png") +
                                 " --quality 10 --resume-state " + quoted(states) + " --resume-state " +
                                 quoted(dir + "/part") + " --save-state " + quoted(dir + "/summed"));
    REQUIRE_MESSAGE(summed.status == 0, summed.output);
    CHECK(summed.output.find(": 0 samples in") != std::string::npos);
    const fj::RenderState sum = fj::read_render_state(dir + "/summed/strip-2-of-3.fjstate");
    CHECK(sum.runs == 2);
    CHECK(sum.plotted == fj::read_render_state(states + "/strip-2-of-3.fjstate").plotted +
                             fj::read_render_state(dir + "/part/strip-2-of-3.fjstate").plotted);

    // A later strip's state cut short is found before the first strip renders.
    std::filesystem::create_directory(dir + "/cut");
    for (int k = 1; k <= 3; ++k) {
        const std::string name = "/strip-" + std::to_string(k) + "-of-3.fjstate";
        const std::string bytes = fj::test::read_file(states + name);
        fj::test::write_file(dir + "/cut" + name, k == 3 ? bytes.substr(0, bytes.size() - 4) : bytes);
    }
    const auto cut = flamejit("render " + quoted(toned) + " -o " + quoted(dir + "/cut.png") + " --quality 5 --resume-state " +
                              quoted(dir + "/cut") + " --progress json");
    CHECK(cut.status == 2);
    CHECK_MESSAGE(cut.output.find("strip-3-of-3.fjstate: render state cut short") != std::string::npos, cut.output);
    CHECK(cut.output.find("\"stage\"") == std::string::npos);  // nothing iterated
    CHECK_FALSE(fj::test::file_exists(dir + "/cut.png"));

    // Other strips, state files mixed with folders, and a folder's name for
    // an image in one piece (or a file's for strips): exit 2, one line, no image.
    for (const std::string& bad : {"--resume-state " + quoted(states) + " --strips 2",
                                   "--resume-state " + quoted(states) + " --resume-state " + quoted(dir + "/s.fjstate"),
                                   "--strips 1 --save-state " + quoted(states),
                                   "--strips 2 --save-state " + quoted(genome)}) {
        CAPTURE(bad);
        fj::test::write_file(dir + "/s.fjstate", "x");
        const auto refused = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/bad.png") + " " + bad);
        CHECK(refused.status == 2);
        CHECK(lines(refused.output) == 1);
        CHECK_FALSE(fj::test::file_exists(dir + "/bad.png"));
    }
}

TEST_CASE("cli batch: an image's line is printed once its file is written; a write that fails prints none, exit 1") {
    // The folder goes while the image renders (its checks passed): the
    // write fails after the render, and no line says the image is there.
    const std::string dir = fj::test::scratch_dir("written");
    fj::test::write_file(dir + "/a.flam3", kGenome);
    fj::test::write_file(dir + "/seq.flam3", two_keyframes());
    const std::string gone = dir + "/gone";
    std::filesystem::create_directories(gone);
    auto r = run_removing(quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/a.flam3") + " -o " +
                              quoted(gone + "/a.png") + " --backend cpu --threads 2 --size 320x240 --quality 1000" +
                              " --progress json",
                          dir, gone, "iterating");
    CAPTURE(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find("cannot write " + gone + "/a.png") != std::string::npos);
    CHECK(r.output.find("\"done\":true") != std::string::npos);  // rendered, then not written
    CHECK(r.output.find("samples in") == std::string::npos);
    // animate's frame lines alike.
    std::filesystem::create_directories(gone);
    r = run_removing(quoted(fj::test::flamejit_binary()) + " animate " + quoted(dir + "/seq.flam3") +
                         " --frames 0:1 -o " + quoted(gone + "/f%d.png") +
                         " --backend cpu --threads 2 --size 320x240 --quality 600",
                     dir, gone, "frames in this job");
    CAPTURE(r.output);
    CHECK(r.status == 1);
    CHECK(r.output.find("cannot write " + gone + "/f") != std::string::npos);
    CHECK(r.output.find("frame 0:") == std::string::npos);
    CHECK(r.output.find("frame 1:") == std::string::npos);
    // Written, each image (and stage) has its line, in order.
    const auto written = flamejit("render " + quoted(dir + "/a.flam3") + " -o " + quoted(dir + "/a.png") +
                                  " --progressive 2 --quality 20");
    REQUIRE_MESSAGE(written.status == 0, written.output);
    const size_t stage = written.output.find(dir + "/a.png: quality 10 of 20 (stage 1 of 2)");
    CHECK(stage != std::string::npos);
    CHECK(written.output.find(dir + "/a.png: ", stage + 1) != std::string::npos);
    CHECK(lines(written.output) == 2);
}

TEST_CASE("cli batch: render --resume skips the images a run already finished, and renders the rest") {
    const std::string dir = fj::test::scratch_dir("resume");
    fj::test::write_file(dir + "/a.flam3", kGenome);
    fj::test::write_file(dir + "/b.flam3", kHalfGenome);
    fj::test::write_file(dir + "/c.flam3", kGenome);
    const std::string all = quoted(dir + "/a.flam3") + " " + quoted(dir + "/b.flam3") + " " + quoted(dir + "/c.flam3");
    REQUIRE(flamejit("render " + all + " -o " + quoted(dir)).status == 0);
    const auto whole = fj::read_png(dir + "/a.png");
    // b's image cut short (a killed run), c's gone.
    const std::string b = fj::test::read_file(dir + "/b.png");
    fj::test::write_file(dir + "/b.png", b.substr(0, b.size() / 2));
    std::filesystem::remove(dir + "/c.png");
    const auto again = flamejit("render " + all + " -o " + quoted(dir) + " --resume");
    REQUIRE_MESSAGE(again.status == 0, again.output);
    CHECK(again.output.find("a.png: complete, skipped") != std::string::npos);
    CHECK(again.output.find("b.png: complete") == std::string::npos);
    CHECK(again.output.find("c.png: complete") == std::string::npos);
    CHECK(fj::read_png(dir + "/b.png").width == 32);
    CHECK(fj::read_png(dir + "/c.png").rgba == whole.rgba);
    CHECK(flamejit("render " + all + " -o " + quoted(dir) + " --resume --progressive 2").status == 2);
}

TEST_CASE("cli batch: outputs named .exr are OpenEXR files; --linear and --bits are checked against the format") {
    const std::string dir = fj::test::scratch_dir("exr");
    const std::string genome = dir + "/g.flam3";
    fj::test::write_file(genome, kGenome);
    const std::string magic("\x76\x2f\x31\x01", 4);
    for (const char* args : {"", " --bits 32 --linear", " --transparent"}) {
        CAPTURE(args);
        const auto r = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/g.exr") + args);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        CHECK(fj::test::read_file(dir + "/g.exr").substr(0, 4) == magic);
    }
    const std::string sequence = dir + "/seq.flam3";
    fj::test::write_file(sequence, "<flames>" + fj::test::set_flame_attribute(kGenome, "time", "0") +
                                       fj::test::set_flame_attribute(kGenome, "time", "2") + "</flames>");
    const auto frames = flamejit("animate " + quoted(sequence) + " --frames 0:1 -o " + quoted(dir + "/f%d.exr"));
    REQUIRE_MESSAGE(frames.status == 0, frames.output);
    CHECK(fj::test::read_file(dir + "/f1.exr").substr(0, 4) == magic);
    // In strips, the same file byte for byte (no text: the same header).
    for (const char* strips : {"1", "3"}) {
        const auto r = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/s" + strips + ".exr") + " --strips " +
                                strips + " --linear");
        REQUIRE_MESSAGE(r.status == 0, r.output);
    }
    CHECK(fj::test::read_file(dir + "/s3.exr") == fj::test::read_file(dir + "/s1.exr"));
    // --resume knows a whole EXR from one cut short.
    const std::string s1 = fj::test::read_file(dir + "/s1.exr");
    fj::test::write_file(dir + "/s3.exr", s1.substr(0, s1.size() - 10));
    CHECK_FALSE(fj::image_complete(dir + "/s3.exr", 64, 48));
    const auto resumed = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/s1.exr") + " --resume");
    CHECK(resumed.output.find("s1.exr: complete, skipped") != std::string::npos);
    const auto cut = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/s3.exr") + " --resume");
    CHECK(cut.output.find("complete, skipped") == std::string::npos);
    CHECK_FALSE(fj::image_complete(dir + "/s1.exr", 63, 48));
    CHECK(fj::image_complete(dir + "/s3.exr", 64, 48));
    // Options that do not fit the format: exit 2, no file.
    const std::set<std::string> before = listing(dir);
    for (const std::string& bad : {std::string(" -o x.png --linear"), std::string(" -o x.exr --bits 8"),
                                   std::string(" -o x.png --bits 32"), std::string(" -o x.exr --linear --earlyclip")}) {
        CAPTURE(bad);
        CHECK(flamejit_in(dir, "render " + quoted(genome) + bad).status == 2);
        CHECK(listing(dir) == before);
    }
}

TEST_CASE("cli batch: outputs named .jpg or .ppm are JPEG and PPM, as flam3's; the options are checked against them") {
    const std::string dir = fj::test::scratch_dir("jpeg-ppm");
    const std::string genome = dir + "/g.flam3";
    fj::test::write_file(genome, kGenome);
    auto r = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/g.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const fj::PngImage png = fj::read_png(dir + "/g.png");
    // The PPM holds the PNG's colour; the JPEG is close, and closer at a
    // higher quality; strips write the same bytes as one piece.
    for (const char* name : {"g.ppm", "g.jpg", "G.JPEG", "g95.jpg", "s3.jpg"}) {
        CAPTURE(name);
        const std::string extra = std::string(name) == "g95.jpg" ? " --jpeg-quality 95"
                                  : std::string(name) == "s3.jpg" ? " --strips 3"
                                                                  : "";
        r = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/" + name) + extra);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        const fj::PngImage image = fj::read_image(dir + "/" + name);
        REQUIRE(image.width == png.width);
        REQUIRE(image.height == png.height);
    }
    CHECK(fj::read_image(dir + "/g.ppm").rgba == png.rgba);
    CHECK(fj::test::read_file(dir + "/s3.jpg") == fj::test::read_file(dir + "/g.jpg"));
    CHECK(fj::test::read_file(dir + "/G.JPEG") == fj::test::read_file(dir + "/g.jpg"));
    CHECK(fj::downsampled_mean_abs_difference(fj::read_image(dir + "/g95.jpg"), png) <
          fj::downsampled_mean_abs_difference(fj::read_image(dir + "/g.jpg"), png));
    // The text as comments, flam3's keys; enable_jpeg_comments=0 (flam3's
    // switch) or --no-png-comments leave them out.
    const std::string plain = quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " --backend cpu -o ";
    r = run_command(plain + quoted(dir + "/text.jpg"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto text = fj::read_jpeg_text(dir + "/text.jpg");
    CHECK(text.at("flam3_genome").find("<flame") == 0);
    CHECK(text.count("flam3_samples") == 1);
    CHECK(text.count("flamejit_seed") == 1);
    r = run_command("env enable_jpeg_comments=0 " + plain + quoted(dir + "/bare.jpg"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(fj::read_jpeg_text(dir + "/bare.jpg").empty());
    // A genome longer than a comment holds: a warning, the image without it,
    // the sidecar with it.
    const std::string long_name = dir + "/long.flam3";
    std::string xforms;
    for (int i = 0; i < 250; ++i)  // about 270 bytes each, written back
        xforms += "<xform weight=\"1\" color=\"" + std::to_string(i / 250.0) +
                  "\" linear=\"0.5\" julian=\"0.25\" julian_power=\"3\" julian_dist=\"1\" ngon=\"0.25\" "
                  "ngon_sides=\"5\" ngon_power=\"3\" ngon_circle=\"1\" ngon_corners=\"2\" coefs=\"0.5 0 0 0.5 " +
                  std::to_string(i % 7 / 7.0) + " 0\" post=\"1 0 0 1 0.1 0\"/>";
    fj::test::write_file(long_name, "<flame size=\"32 24\" scale=\"10\" quality=\"1\">" + xforms +
                                        "<color index=\"0\" rgb=\"255 0 0\"/></flame>");
    r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(long_name) + " --backend cpu --sidecar -o " +
                    quoted(dir + "/long.jpg"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(r.output.find("longer than a JPEG comment holds") != std::string::npos);
    CHECK(fj::read_jpeg_text(dir + "/long.jpg").count("flam3_genome") == 0);
    CHECK(fj::read_jpeg_text(dir + "/long.jpg").count("flam3_samples") == 1);
    CHECK(nlohmann::json::parse(fj::test::read_file(dir + "/long.jpg.json")).at("genome").get<std::string>().size() > 65533);
    // Animation frames, and --resume telling a whole JPEG from one cut short.
    const std::string sequence = dir + "/seq.flam3";
    fj::test::write_file(sequence, "<flames>" + fj::test::set_flame_attribute(kGenome, "time", "0") +
                                       fj::test::set_flame_attribute(kGenome, "time", "2") + "</flames>");
    r = flamejit("animate " + quoted(sequence) + " --frames 0:1 -o " + quoted(dir + "/f%d.jpg"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const std::string f1 = fj::test::read_file(dir + "/f1.jpg");
    fj::test::write_file(dir + "/f1.jpg", f1.substr(0, f1.size() * 3 / 4));
    r = flamejit("animate " + quoted(sequence) + " --frames 0:1 --resume -o " + quoted(dir + "/f%d.jpg"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(r.output.find("1 already complete") != std::string::npos);
    CHECK(fj::test::read_file(dir + "/f1.jpg") == f1);
    // Options that do not fit the format: exit 2, one line, no file.
    const std::set<std::string> before = listing(dir);
    for (const std::string& bad :
         {std::string(" -o x.jpg --bits 16"), std::string(" -o x.ppm --bits 16"), std::string(" -o x.jpg --transparent"),
          std::string(" -o x.ppm --transparent"), std::string(" -o x.png --jpeg-quality 90"),
          std::string(" -o x.jpg --jpeg-quality 0"), std::string(" -o x.jpg --jpeg-quality 101"),
          std::string(" -o x.jpg --linear"), std::string(" -o x.gif")}) {
        CAPTURE(bad);
        r = flamejit_in(dir, "render " + quoted(genome) + bad);
        CHECK(r.status == 2);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
        CHECK(listing(dir) == before);
    }
}

TEST_CASE("cli batch: --format sets the format of the names render and animate make; --names, flam3's name_enable") {
    const std::string dir = fj::test::scratch_dir("names");
    const std::string genome = dir + "/g.flam3";
    auto named = [](const char* name) { return fj::test::set_flame_attribute(kGenome, "name", name); };
    // Named, a name with a path separator, none, and one name twice.
    fj::test::write_file(genome, "<flames>" + named("Alpha") + named("Beta/Gamma") +
                                     fj::test::set_flame_attribute(kGenome, "name", "") + named("Dup") + named("Dup") +
                                     "</flames>");
    fj::test::CommandResult r = flamejit("render " + quoted(genome) + " --names --format jpg -o " + quoted(dir + "/out/"));
    CHECK(r.status == 2);  // no such folder yet
    std::filesystem::create_directory(dir + "/out");
    r = flamejit("render " + quoted(genome) + " --names --format jpg -o " + quoted(dir + "/out/"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    std::set<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir + "/out")) files.insert(entry.path().filename());
    CHECK(files == std::set<std::string>{"Alpha.jpg", "Beta_Gamma.jpg", "g.00002.jpg", "g.00003.jpg", "g.00004.jpg"});
    CHECK(fj::image_complete(dir + "/out/Alpha.jpg", 64, 48));
    // The default name takes --format too, and animate's default pattern.
    const std::string sequence = dir + "/seq.flam3";
    fj::test::write_file(sequence, "<flames>" + fj::test::set_flame_attribute(kGenome, "time", "0") +
                                       fj::test::set_flame_attribute(kGenome, "time", "2") + "</flames>");
    const std::string in_dir = "cd " + quoted(dir) + " && ";
    r = run_command(in_dir + quoted(fj::test::flamejit_binary()) + " render " + quoted(sequence) +
                    " --backend cpu --flame 0 --format ppm");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(fj::image_complete(dir + "/seq.ppm", 64, 48));
    r = run_command(in_dir + quoted(fj::test::flamejit_binary()) + " animate " + quoted(sequence) +
                    " --backend cpu --frames 0:0 --format exr");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(fj::image_complete(dir + "/seq00000.exr", 64, 48));
    // Refused, exit 2, no file: --names with -o a file, a --format that -o's
    // name contradicts, a format flamejit does not write.
    const std::set<std::string> before = listing(dir);
    for (const std::string& bad : {std::string(" --names -o x.png"), std::string(" --format jpg -o x.png"),
                                   std::string(" --format exr -o x"), std::string(" --format gif")}) {
        CAPTURE(bad);
        r = flamejit_in(dir, "render " + quoted(genome) + bad);
        CHECK(r.status == 2);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
        CHECK(listing(dir) == before);
    }
}

TEST_CASE("cli batch: --sidecar writes IMAGE.json, whose genome and seed render the image again") {
    const std::string dir = fj::test::scratch_dir("sidecar");
    // Density estimation and supersampling, and a random seed: the sidecar
    // must carry whatever the command line did not say.
    const std::string genome = dir + "/g.flam3";
    fj::test::write_file(genome, fj::test::set_flame_attribute(fj::test::set_flame_attribute(kGenome, "supersample", "2"),
                                                                "estimator_radius", "5"));
    for (const char* strips : {"1", "2"}) {
        CAPTURE(strips);
        const std::string image = dir + "/s" + strips + ".png";
        const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                   quoted(image) + " --backend cpu --threads 2 --quality 3 --size-scale 2 --sidecar " +
                                   "--no-png-comments --strips " + strips);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        // The artist's parameters stay out of the image, and go to the sidecar.
        CHECK(fj::read_png_text(image).empty());
        const nlohmann::json j = nlohmann::json::parse(fj::test::read_file(image + ".json"));
        CHECK(j.at("image") == image);
        CHECK(j.at("command").at(1) == "render");
        CHECK(j.at("command").back() == strips);
        CHECK(j.at("settings").at("shuffle") == "auto");
        CHECK(j.at("text").at("flamejit_shuffle") == "ring");  // what auto made of it: kGenome has no xaos
        CHECK(j.at("settings").at("threads") == 2);
        CHECK(j.at("text").at("flamejit_backend") == "cpu");
        CHECK(std::stoull(j.at("text").at("flam3_samples").get<std::string>()) > 0);
        // Its genome (size, scale and quality as rendered) and seed give the
        // image bit for bit.
        fj::test::write_file(dir + "/again.flam3", j.at("genome").get<std::string>());
        const auto again = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/again.flam3") +
                                       " -o " + quoted(dir + "/again.png") + " --backend cpu --threads 2 --seed " +
                                       j.at("text").at("flamejit_seed").get<std::string>());
        REQUIRE_MESSAGE(again.status == 0, again.output);
        CHECK(fj::read_png(dir + "/again.png").rgba == fj::read_png(image).rgba);
    }
    // Animation frames get theirs too.
    const std::string sequence = dir + "/seq.flam3";
    fj::test::write_file(sequence, "<flames>" + fj::test::set_flame_attribute(kGenome, "time", "0") +
                                       fj::test::set_flame_attribute(kGenome, "time", "2") + "</flames>");
    const auto frames = flamejit("animate " + quoted(sequence) + " --frames 0:1 -o " + quoted(dir + "/f%d.png") + " --sidecar");
    REQUIRE_MESSAGE(frames.status == 0, frames.output);
    for (const char* frame : {"0", "1"}) {
        const nlohmann::json j = nlohmann::json::parse(fj::test::read_file(dir + "/f" + frame + ".png.json"));
        CHECK(j.at("command").at(1) == "animate");
        CHECK(j.at("text").at("flamejit_shuffle") == "ring");
        CHECK(j.at("genome").get<std::string>().find("time=\"" + std::string(frame) + "\"") != std::string::npos);
    }
    // --resume renders again an image whose sidecar is missing.
    std::filesystem::remove(dir + "/f1.png.json");
    const auto resumed =
        flamejit("animate " + quoted(sequence) + " --frames 0:1 -o " + quoted(dir + "/f%d.png") + " --sidecar --resume");
    CHECK(resumed.output.find("1 already complete") != std::string::npos);
    CHECK(fj::test::file_exists(dir + "/f1.png.json"));
    // Written whole: no temporaries (hidden names) left beside them.
    for (const auto& e : std::filesystem::directory_iterator(dir))
        CHECK(e.path().filename().string().front() != '.');
}

TEST_CASE("cli batch: one render written in several formats (-o given again, a --format list), each file as a render of "
          "its own") {
    const std::string dir = fj::test::scratch_dir("several_formats");
    const std::string genome = dir + "/g.flam3";
    fj::test::write_file(genome, fj::test::set_flame_attribute(kGenome, "supersample", "2"));
    const char* const extensions[] = {".png", ".exr", ".jpg", ".ppm"};
    // Each format alone, then all four from one render: the same bytes
    // (no text, the same seed), one piece and in strips, with --bits 16
    // taken by the formats that have it (PNG, EXR half).
    for (const char* bits : {" --bits 16", ""}) {
        for (const char* strips : {"1", "3"}) {
            CAPTURE(strips);
            CAPTURE(bits);
            const std::string common = std::string(" --strips ") + strips + bits;
            std::string all;
            for (const char* extension : extensions) {
                if (*bits && (std::string(extension) == ".jpg" || std::string(extension) == ".ppm")) continue;
                const auto r = flamejit("render " + quoted(genome) + " -o " + quoted(dir + "/alone" + extension) + common);
                REQUIRE_MESSAGE(r.status == 0, r.output);
                all += " -o " + quoted(dir + "/all" + extension);
            }
            const auto r = flamejit("render " + quoted(genome) + all + common);
            REQUIRE_MESSAGE(r.status == 0, r.output);
            CHECK(lines(r.output) == (std::string(strips) == "1" ? 1 : 2));  // strips: one line on stderr
            for (const char* extension : extensions) {
                if (*bits && (std::string(extension) == ".jpg" || std::string(extension) == ".ppm")) continue;
                CAPTURE(extension);
                CHECK(fj::test::read_file(dir + "/all" + extension) == fj::test::read_file(dir + "/alone" + extension));
                CHECK(r.output.find(dir + "/all" + extension) != std::string::npos);
            }
        }
    }

    SUBCASE("each file carries the text of its format, and its own sidecar") {
        const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                   quoted(dir + "/t.png") + " -o " + quoted(dir + "/t.jpg") +
                                   " --backend cpu --seed 4 --sidecar --jpeg-quality 90");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        const auto png = fj::read_png_text(dir + "/t.png");
        const auto jpg = fj::read_jpeg_text(dir + "/t.jpg");
        CHECK(png.at("flam3_genome").find("<flame") == 0);
        CHECK(jpg.at("flam3_genome") == png.at("flam3_genome"));
        CHECK(jpg.at("flamejit_seed") == "4");
        for (const char* extension : {".png", ".jpg"}) {
            const auto sidecar = nlohmann::json::parse(fj::test::read_file(dir + "/t" + extension + ".json"));
            CHECK(sidecar.at("image") == dir + "/t" + extension);
            CHECK(sidecar.at("settings").at("format") == (std::string(extension) == ".png" ? "png" : "jpeg"));
        }
        CHECK(nlohmann::json::parse(fj::test::read_file(dir + "/t.jpg.json")).at("settings").at("jpeg_quality") == 90);
    }
    SUBCASE("--format png,exr names a file of each for every image; --resume renders an image again when one is missing") {
        std::filesystem::create_directory(dir + "/out");
        fj::test::write_file(dir + "/h.flam3", kHalfGenome);
        const std::string both = quoted(genome) + " " + quoted(dir + "/h.flam3") + " --format png,exr -o " +
                                 quoted(dir + "/out");
        auto r = flamejit("render " + both);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        std::set<std::string> files;
        for (const auto& entry : std::filesystem::directory_iterator(dir + "/out")) files.insert(entry.path().filename());
        CHECK(files == std::set<std::string>{"g.png", "g.exr", "h.png", "h.exr"});
        CHECK(fj::test::read_file(dir + "/out/g.png") == fj::test::read_file(dir + "/alone.png"));
        std::filesystem::remove(dir + "/out/h.exr");
        r = flamejit("render " + both + " --resume");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        CHECK(r.output.find("g.png, " + dir + "/out/g.exr: complete, skipped") != std::string::npos);
        CHECK(r.output.find("h.png, " + dir + "/out/h.exr: complete") == std::string::npos);
        CHECK(fj::image_complete(dir + "/out/h.exr", 32, 24));
    }
    SUBCASE("animate writes every frame to each pattern") {
        const std::string sequence = dir + "/seq.flam3";
        fj::test::write_file(sequence, "<flames>" + fj::test::set_flame_attribute(kGenome, "time", "0") +
                                           fj::test::set_flame_attribute(kGenome, "time", "2") + "</flames>");
        auto r = flamejit("animate " + quoted(sequence) + " --frames 0:1 -o " + quoted(dir + "/f%d.png"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        r = flamejit("animate " + quoted(sequence) + " --frames 0:1 -o " + quoted(dir + "/b%d.png") + " -o " +
                     quoted(dir + "/b%d.ppm") + " --sidecar");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        for (const char* frame : {"0", "1"}) {
            CAPTURE(frame);
            CHECK(fj::test::read_file(dir + "/b" + frame + ".png") == fj::test::read_file(dir + "/f" + frame + ".png"));
            CHECK(fj::read_image(dir + "/b" + frame + ".ppm").rgba == fj::read_png(dir + "/f" + frame + ".png").rgba);
            CHECK(fj::test::file_exists(dir + "/b" + frame + ".ppm.json"));
        }
        // Without -o, the default pattern in each --format.
        r = run_command("cd " + quoted(dir) + " && " + quoted(fj::test::flamejit_binary()) + " animate " +
                        quoted(sequence) + " --backend cpu --frames 0:0 --format exr,jpg");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        CHECK(fj::image_complete(dir + "/seq00000.exr", 64, 48));
        CHECK(fj::image_complete(dir + "/seq00000.jpg", 64, 48));
    }
    SUBCASE("outputs that do not go together: exit 2, one line, no file") {
        for (const std::string& bad :
             {std::string(" -o x.png -o x.png"), std::string(" -o x.png -o ./x.png"), std::string(" -o x.png -o x.exr --linear"),
              std::string(" -o x.png -o x.exr --bits 32"), std::string(" -o x.png -o x.jpg --bits 16"),
              std::string(" -o x.png -o x.jpg --transparent"), std::string(" -o x.png -o x.exr --jpeg-quality 90"),
              std::string(" --format png,png"), std::string(" --format png,jpeg,jpg"), std::string(" --format png,"),
              std::string(" --format png,exr -o x.jpg"), std::string(" -o x.png -o x.exr --save-state x.exr")}) {
            CAPTURE(bad);
            const auto r = run_command("cd " + quoted(dir) + " && " + quoted(fj::test::flamejit_binary()) + " render " +
                                       quoted(genome) + " --backend cpu" + bad);
            CHECK(r.status == 2);
            CHECK(lines(r.output) == 1);
            for (const char* extension : extensions) CHECK_FALSE(fj::test::file_exists(dir + "/x" + extension));
        }
        const auto r = flamejit("animate " + quoted(genome) + " -o " + quoted(dir + "/x%d.png") + " -o " +
                                quoted(dir + "/x%01d.png"));
        CHECK(r.status == 2);
        CHECK(lines(r.output) == 1);
    }
}

TEST_CASE("cli batch: animate --loop renders the keyframes as a seamless loop; convert --time --loop gives its genomes") {
    const std::string dir = fj::test::scratch_dir("loop");
    const std::string sequence = dir + "/seq.flam3";
    auto keyframe = [](const char* time, const char* rotate) {
        return fj::test::set_flame_attribute(
            fj::test::set_flame_attribute(fj::test::set_flame_attribute(kGenome, "time", time), "rotate", rotate),
            "interpolation", "smooth");
    };
    // A turn a loop: the camera winds on through the join.
    fj::test::write_file(sequence, "<flames>" + keyframe("0", "0") + keyframe("1", "120") + keyframe("2", "240") +
                                       "</flames>");
    const std::string animate = quoted(fj::test::flamejit_binary()) + " animate " + quoted(sequence) +
                                " --backend cpu --seed 2 --loop 4 -o " + quoted(dir + "/f%d.png");
    // Without --frames, one period: frames 0 to 3.
    auto r = run_command(animate);
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(r.output.find("4 frames in this job") != std::string::npos);
    CHECK_FALSE(fj::test::file_exists(dir + "/f4.png"));
    r = run_command(animate + " --frames 4:6");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    for (int frame = 0; frame < 3; ++frame) {
        CAPTURE(frame);
        const auto text = fj::read_png_text(dir + "/f" + std::to_string(frame) + ".png");
        const auto again = fj::read_png_text(dir + "/f" + std::to_string(frame + 4) + ".png");
        CHECK(again.at("flam3_genome") == text.at("flam3_genome"));
        CHECK(again.at("flamejit_loop") == "4");
    }
    // convert gives the genome each frame shows: the join at 3.5 winds on
    // from the last keyframe's 240 degrees towards 360.
    const std::string convert = quoted(fj::test::flamejit_binary()) + " convert " + quoted(sequence) + " --loop 4 --time ";
    r = run_command(convert + "5");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(r.output == fj::read_png_text(dir + "/f5.png").at("flam3_genome"));
    const std::vector<fj::Flame> join = fj::read_flam3_string(run_command(convert + "3.5").output, "join");
    REQUIRE(join.size() == 1);
    CHECK(join[0].rotate > 240);
    CHECK(join[0].rotate < 360);
    // A loop no longer than its keyframes' span, a period of 0, --loop
    // without --time: exit 2, one line.
    for (const std::string& bad : {animate + " --loop 2", animate + " --loop 0",
                                   quoted(fj::test::flamejit_binary()) + " convert " + quoted(sequence) + " --loop 4"}) {
        CAPTURE(bad);
        r = run_command(bad);
        CHECK(r.status == 2);
        CHECK(lines(r.output) == 1);
    }
}
