// flamejit — Electric Sheep loops and transitions and <motion> elements, checked against
// libflam3's sheep_loop and sheep_edge and against flam3-genome's sequence= output.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each comparison reads one document with both flam3_parse_xml2 and our
// reader, makes a loop or transition frame from the same flames with both,
// and compares every field (test/flam3_oracle.h's FlameDiff).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <regex>
#include <utility>
#include <sstream>

#include "flam3_oracle.h"
#include "genome/flam3_reader.h"
#include "genome/flam3_writer.h"
#include "genome/sheep.h"
#include "test_support.h"

using fj::test::quoted;
using fj::test::run_command;

namespace {

struct Tally {
    int frames = 0, values = 0, failures = 0;
};

void check_frame(const std::string& what, const fj::Flame& ours, flam3_genome* theirs, Tally* tally) {
    REQUIRE(theirs);
    fj::test::FlameDiff diff(1e-9);
    diff.compare(ours, *theirs);
    clear_cp(theirs, flam3_defaults_on);
    std::free(theirs);
    ++tally->frames;
    tally->values += diff.values_compared();
    if (diff.differences().empty()) return;
    ++tally->failures;
    std::ostringstream lines;
    for (size_t i = 0; i < std::min<size_t>(diff.differences().size(), 6); ++i) lines << "\n  " << diff.differences()[i];
    FAIL_CHECK(what << ": " << diff.differences().size() << " fields differ" << lines.str());
}

// Two lists of <motion> elements hold the same values, field by field.
void check_same_motions(const std::string& where, const std::vector<fj::Motion>& a, const std::vector<fj::Motion>& b) {
    CHECK_MESSAGE(a.size() == b.size(), where << ": " << a.size() << " vs " << b.size() << " motions");
    for (size_t m = 0; m < std::min(a.size(), b.size()); ++m) {
        CAPTURE(where);
        CAPTURE(m);
        const fj::Xform &x = a[m].amplitude, &y = b[m].amplitude;
        CHECK(a[m].function == b[m].function);
        CHECK(a[m].frequency == b[m].frequency);
        CHECK(x.weight == y.weight);
        CHECK(x.color == y.color);
        CHECK(x.color_speed == y.color_speed);
        CHECK(x.opacity == y.opacity);
        CHECK(x.animate == y.animate);
        CHECK(x.direct_color == y.direct_color);
        CHECK(x.affine == y.affine);
        CHECK(x.post == y.post);
        CHECK(x.chaos == y.chaos);
        CHECK(x.variations.size() == y.variations.size());
        for (size_t v = 0; v < std::min(x.variations.size(), y.variations.size()); ++v) {
            CAPTURE(v);
            CHECK(x.variations[v].slot() == y.variations[v].slot());
            CHECK(x.variations[v].weight == y.variations[v].weight);
            CHECK(x.variations[v].params == y.variations[v].params);
        }
    }
}

// `count` random flam3-genome genomes (no edits), restricted to the
// variations we have. Their <symmetry> elements are left out (the xforms they
// add stay, written out): flam3-genome writes both, so flam3 reading its
// output would add them twice, and flamejit writes the element alone.
std::vector<std::string> random_flames(const std::string& dir, int seed, int count) {
    const std::string out = dir + "/random" + std::to_string(seed) + ".flam3";
    const auto gen = run_command("env seed=" + std::to_string(seed) + " isaac_seed=sheep" + std::to_string(seed) +
                                 " noedits=1 repeat=" + std::to_string(count) + " use_vars=" +
                                 fj::test::flam3_genome_variation_ids() + " flam3-genome > " + quoted(out));
    REQUIRE_MESSAGE(gen.status == 0, gen.output);
    std::vector<std::string> flames =
        fj::test::flame_elements(std::regex_replace(fj::test::read_file(out), std::regex("<symmetry [^>]*>"), ""));
    REQUIRE(static_cast<int>(flames.size()) == count);
    return flames;
}

// The flame with `children` put inside its k-th <xform> (or <finalxform>
// for k = -1); `animate`, when not empty, replaces that xform's animate.
std::string in_xform(std::string flame, int k, const std::string& animate, const std::string& children) {
    size_t at = 0;
    const std::string tag = k < 0 ? "<finalxform " : "<xform ";
    for (int i = 0; i <= std::max(k, 0); ++i) {
        at = flame.find(tag, i ? at + 1 : 0);
        if (at == std::string::npos) return flame;
    }
    const size_t end = flame.find('>', at);
    const bool empty = flame[end - 1] == '/';
    const std::string close = k < 0 ? "</finalxform>" : "</xform>";
    std::string open = flame.substr(at, (empty ? end - 1 : end) - at);
    if (!animate.empty()) {
        const std::regex given(" animate=\"[^\"]*\"");
        REQUIRE(std::regex_search(open, given));
        open = std::regex_replace(open, given, " animate=\"" + animate + "\"");
    }
    return flame.substr(0, at) + open + ">" + children + (empty ? close : "") + flame.substr(end + 1);
}

// Motion of every kind flam3 applies: each function, several frequencies,
// affines, weights (of variations the xform has and has not), parameters
// alone, colour, opacity; and a still xform (animate 0) in alternate flames,
// which makes transitions choose reference angles.
std::string with_motion(const std::string& flame, int k) {
    std::string f = in_xform(flame, 0, k % 2 ? "0" : "",
                             "<motion motion_frequency=\"1\" motion_function=\"sin\" weight=\"0.3\" color=\"0.4\""
                             " coefs=\"0.1 -0.2 0.05 0.1 0.3 -0.1\"/>");
    f = in_xform(f, 1, "",
                 "<motion motion_frequency=\"2\" motion_function=\"triangle\" linear=\"0.5\" julian=\"0.2\""
                 " julian_power=\"1\" julian_dist=\"0.5\"/>"
                 "<motion motion_frequency=\"3\" motion_function=\"hill\" post=\"0.1 0 0 0.1 0.2 0\" opacity=\"-0.3\""
                 " rings2_val=\"0.2\" color_speed=\"0.1\"/>");
    return in_xform(f, -1, "", "<motion motion_frequency=\"1\" color=\"0.5\" spherical=\"0.25\"/>");
}

std::string sequence_document(const std::vector<std::string>& flames) {
    std::string doc = "<sequence>\n";
    for (const auto& f : flames) doc += f + "\n";
    return doc + "</sequence>\n";
}

// Four random genomes with motion in one interpolation type, as a document.
std::string test_document(const std::vector<std::string>& base, const char* mode) {
    std::vector<std::string> flames;
    for (size_t k = 0; k < base.size(); ++k)
        flames.push_back(fj::test::set_flame_attribute(with_motion(base[k], static_cast<int>(k)),
                                                       "interpolation_type", mode));
    return sequence_document(flames);
}

const char* const kModes[] = {"log", "linear", "old", "older"};

}  // namespace

TEST_CASE("sheep: loops equal flam3's sheep_loop in every interpolation type, motion included") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("sheep-loop");
    Tally tally;
    for (int seed : {41, 42}) {
        const std::vector<std::string> base = random_flames(dir, seed, 4);
        for (const char* mode : kModes) {
            const std::string doc = test_document(base, mode);
            fj::test::Flam3Genomes ref(doc, "loop");
            const std::vector<fj::Flame> ours = fj::read_flam3_string(doc, "loop");
            REQUIRE(static_cast<int>(ours.size()) == ref.count);
            for (int k = 0; k < ref.count; ++k) {
                CHECK(!ours[k].xforms[0].motions.empty());
                for (double blend : {0.0, 0.05, 0.12, 0.3, 0.36, 0.5, 0.75, 0.87, 0.99, 1.3})
                    check_frame(std::string(mode) + " flame " + std::to_string(k) + " blend " + std::to_string(blend),
                                fj::sheep_loop(ours[k], blend), sheep_loop(&ref.cps[k], blend), &tally);
            }
        }
    }
    MESSAGE(tally.frames << " loop frames, " << tally.values << " values compared");
    CHECK(tally.frames == 2 * 4 * 4 * 10);
    CHECK(tally.failures == 0);
}

TEST_CASE("sheep: transitions equal flam3's sheep_edge: padding, still xforms, stagger, sequence ends") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("sheep-edge");
    Tally tally;
    for (int seed : {43, 44}) {
        const std::vector<std::string> base = random_flames(dir, seed, 4);
        for (const char* mode : kModes) {
            const std::string doc = test_document(base, mode);
            fj::test::Flam3Genomes ref(doc, "edge");
            const std::vector<fj::Flame> ours = fj::read_flam3_string(doc, "edge");
            REQUIRE(static_cast<int>(ours.size()) == ref.count);
            for (int k = 0; k + 1 < ref.count; ++k)
                for (double blend : {0.0, 0.01, 0.25, 0.5, 0.9})
                    for (int ends : {0, 1})
                        for (double stagger : {0.0, 0.3, 1.0}) {
                            std::ostringstream what;
                            what << mode << " flames " << k << "-" << k + 1 << " blend " << blend << " ends " << ends
                                 << " stagger " << stagger;
                            check_frame(what.str(), fj::sheep_edge(ours[k], ours[k + 1], blend, ends, stagger),
                                        sheep_edge(&ref.cps[k], blend, ends, stagger), &tally);
                        }
        }
    }
    MESSAGE(tally.frames << " transition frames, " << tally.values << " values compared");
    CHECK(tally.frames == 2 * 4 * 3 * 5 * 2 * 3);
    CHECK(tally.failures == 0);
}

TEST_CASE("sheep: <motion> elements are read, written back exactly, and flam3 reads what we write") {
    const std::string flame =
        "<flame size=\"32 24\" rotate=\"10\">"
        "<xform weight=\"0.5\" linear=\"1\" coefs=\"0.5 0 0 0.5 0 0\">"
        "<motion motion_frequency=\"2\" motion_function=\"triangle\" weight=\"0.25\" coefs=\"0.1 0 0 0.1 0 0\""
        " post=\"0 0.1 0.1 0 0 0\" julian=\"0.5\" julian_power=\"2\" ngon_sides=\"1\" animate=\"0.5\"/>"
        "<motion motion_frequency=\"1\" motion_function=\"sin\" color=\"-0.5\" var_color=\"0.5\" opacity=\"0.25\"/>"
        "</xform>"
        "<xform weight=\"0.5\" spherical=\"1\" coefs=\"0.5 0 0 0.5 0.5 0\"/>"
        "<finalxform linear=\"1\" coefs=\"1 0 0 1 0 0\"><motion motion_frequency=\"3\" color_speed=\"0.5\"/></finalxform>"
        "<color index=\"0\" rgb=\"255 0 0\"/><color index=\"255\" rgb=\"0 0 255\"/></flame>";
    const std::vector<fj::Flame> read = fj::read_flam3_string(flame, "motion");
    REQUIRE(read.size() == 1);
    const fj::Xform& xf = read[0].xforms[0];
    REQUIRE(xf.motions.size() == 2);
    const fj::Motion& m = xf.motions[0];
    CHECK(m.function == fj::MotionFunction::Triangle);
    CHECK(m.frequency == 2);
    CHECK(m.amplitude.weight == 0.25);
    CHECK(m.amplitude.color_speed == 0);  // amplitudes default to 0, not to an xform's defaults
    CHECK(m.amplitude.affine.a == doctest::Approx(0.1));
    CHECK(m.amplitude.affine.f == 0);
    CHECK(m.amplitude.post.d == doctest::Approx(0.1));
    // julian moves weight and a parameter; ngon only a parameter (weight 0).
    REQUIRE(m.amplitude.variations.size() == 2);
    CHECK(m.amplitude.variations[0].weight == 0.5);
    CHECK(m.amplitude.variations[0].params[0] == 2);
    CHECK(m.amplitude.variations[0].params[1] == 0);
    CHECK(m.amplitude.variations[1].weight == 0);
    CHECK(m.amplitude.variations[1].params[0] == 1);
    CHECK(xf.motions[1].function == fj::MotionFunction::Sin);
    CHECK(xf.motions[1].amplitude.color == -0.5);
    CHECK(xf.motions[1].amplitude.direct_color == 0.5);
    REQUIRE(read[0].final_xform.motions.size() == 1);
    CHECK(read[0].final_xform.motions[0].function == fj::MotionFunction::Hill);  // flam3's default

    // Written and read again: the same motion, value for value.
    const std::string written = fj::write_flam3_string(read);
    const std::vector<fj::Flame> again = fj::read_flam3_string(written, "motion (written)");
    REQUIRE(again.size() == 1);
    REQUIRE(again[0].xforms.size() == read[0].xforms.size());
    for (size_t i = 0; i < read[0].xforms.size(); ++i)
        check_same_motions("xform " + std::to_string(i), read[0].xforms[i].motions, again[0].xforms[i].motions);
    check_same_motions("final xform", read[0].final_xform.motions, again[0].final_xform.motions);
    for (double blend : {0.1, 0.35, 0.8}) {
        const fj::Flame a = fj::sheep_loop(read[0], blend), b = fj::sheep_loop(again[0], blend);
        for (size_t i = 0; i < a.xforms.size(); ++i) {
            CHECK(a.xforms[i].weight == b.xforms[i].weight);
            CHECK(a.xforms[i].color == b.xforms[i].color);
            CHECK(a.xforms[i].direct_color == b.xforms[i].direct_color);
            CHECK(a.xforms[i].affine == b.xforms[i].affine);
            CHECK(a.xforms[i].post == b.xforms[i].post);
        }
        CHECK(a.final_xform.color_speed == b.final_xform.color_speed);
    }
    // flam3 reads our text to the loops we make of it, and the original text
    // to the same loops (var_color aside: flam3 has none).
    fj::test::Flam3Genomes ref(written, "motion (written)"), original(flame, "motion");
    REQUIRE(ref.count == 1);
    REQUIRE(ref.cps[0].xform[0].num_motion == 2);
    REQUIRE(original.count == 1);
    Tally tally;
    for (double blend : {0.0, 0.1, 0.35, 0.8}) {
        check_frame("written motion at " + std::to_string(blend), fj::sheep_loop(again[0], blend),
                    sheep_loop(&ref.cps[0], blend), &tally);
        check_frame("original motion at " + std::to_string(blend), fj::sheep_loop(again[0], blend),
                    sheep_loop(&original.cps[0], blend), &tally);
    }
    CHECK(tally.failures == 0);
}

TEST_CASE("sheep: motion that flam3 refuses is refused, naming the element") {
    const auto read = [](const std::string& xform_body) {
        return fj::read_flam3_string("<flame size=\"8 8\"><xform weight=\"1\" linear=\"1\">" + xform_body +
                                         "</xform></flame>",
                                     "bad");
    };
    CHECK_THROWS_WITH_AS(read("<motion motion_frequency=\"1\" motion_function=\"square\"/>"),
                         doctest::Contains("<xform 0> <motion> attribute \"motion_function\""), fj::GenomeError);
    CHECK_THROWS_WITH_AS(read("<motion motion_frequency=\"1\" chaos=\"1 0\"/>"), doctest::Contains("chaos"),
                         fj::GenomeError);
    CHECK_THROWS_WITH_AS(read("<motion motion_frequency=\"1\" plotmode=\"off\"/>"), doctest::Contains("plot mode"),
                         fj::GenomeError);
    CHECK_THROWS_WITH_AS(read("<motion motion_frequency=\"x\"/>"), doctest::Contains("motion_frequency"),
                         fj::GenomeError);
    CHECK_THROWS_AS(read("<motion/>"), fj::GenomeError);
    CHECK_THROWS_WITH_AS(fj::read_flam3_string("<flame size=\"8 8\"><xform weight=\"1\" motion_frequency=\"2\"/></flame>", "bad"),
                         doctest::Contains("belong in a <motion> element"), fj::GenomeError);
}

TEST_CASE("sequence: flamejit sequence writes flam3-genome's sequence= genomes, and animate renders them") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("sheep-sequence");
    const std::vector<std::string> base = random_flames(dir, 45, 3);
    const std::string input = dir + "/input.flam3";
    const std::string document = test_document(base, "log");
    fj::test::write_file(input, document);
    // The same flames in two files, the first with one and the second with two.
    const std::vector<std::string> flames = fj::test::flame_elements(document);
    const std::string first = dir + "/first.flam3", second = dir + "/second.flam3";
    fj::test::write_file(first, flames[0]);
    fj::test::write_file(second, "<flames>" + flames[1] + flames[2] + "</flames>");
    const std::string flamejit = quoted(fj::test::flamejit_binary());
    struct Case {
        std::string inputs, flamejit_args, flam3_env;
        int frames;
    };
    for (const Case& c : {Case{quoted(input), "--frames 5 --stagger 0.4", "nframes=5 stagger=0.4", 5 * 5 + 1},
                          Case{quoted(first) + " " + quoted(second), "--frames 4 --no-loops", "nframes=4 loops=0", 2 * 4 + 1}}) {
        CAPTURE(c.flamejit_args);
        const std::string ours = dir + "/ours.flam3", theirs = dir + "/theirs.flam3";
        const auto made = run_command(flamejit + " sequence " + c.inputs + " " + c.flamejit_args + " -o " + quoted(ours));
        REQUIRE_MESSAGE(made.status == 0, made.output);
        const auto reference = run_command("env " + c.flam3_env + " noedits=1 sequence=" + quoted(input) +
                                           " flam3-genome > " + quoted(theirs));
        REQUIRE_MESSAGE(reference.status == 0, reference.output);
        const std::vector<fj::Flame> mine = fj::read_flam3_file(ours);
        fj::test::Flam3Genomes ref(fj::test::read_file(theirs), "flam3-genome");
        REQUIRE(ref.count == c.frames);
        REQUIRE(static_cast<int>(mine.size()) == c.frames);
        int failures = 0;
        for (int i = 0; i < c.frames; ++i) {
            CHECK(mine[i].name == ref.cps[i].flame_name);
            // flam3-genome prints six significant digits.
            fj::test::FlameDiff diff(1e-5);
            diff.compare(mine[i], ref.cps[i]);
            if (!diff.differences().empty()) {
                ++failures;
                FAIL_CHECK("frame " << i << ": " << diff.differences().size() << " fields differ, first "
                                    << diff.differences().front());
            }
        }
        CHECK(failures == 0);
        // The last frame names the last flame's file and index there; the
        // transitions name both parents.
        const std::string last = c.inputs == quoted(input) ? "filename=\"" + input + "\" index=\"2\""
                                                            : "filename=\"" + second + "\" index=\"1\"";
        CHECK(mine.back().edit.find("<edit action=\"rotate 0\"><edit " + last) == 0);
        CHECK(std::any_of(mine.begin(), mine.end(), [](const fj::Flame& f) {
            return f.edit.find("<edit action=\"interpolate ") == 0 && f.edit.find("index=\"0\"") != std::string::npos &&
                   f.edit.find("index=\"1\"") != std::string::npos;
        }));
    }

    // The sequence is an animation: a transition frame renders, motion blurred.
    const std::string seq = dir + "/seq.flam3";
    REQUIRE(run_command(flamejit + " sequence " + quoted(input) + " --frames 4 -o " + quoted(seq)).status == 0);
    const auto animated = run_command(flamejit + " animate " + quoted(seq) + " --frames 5:6 --backend cpu --quality 2" +
                                      " --temporal-samples 3 -o " + quoted(dir + "/f%05d.png"));
    CHECK_MESSAGE(animated.status == 0, animated.output);
    CHECK(fj::test::file_exists(dir + "/f00005.png"));
    CHECK(fj::test::file_exists(dir + "/f00006.png"));
}

TEST_CASE("sequence: bad arguments exit 2 with one line, writing nothing") {
    const std::string dir = fj::test::scratch_dir("sheep-bad");
    const std::string flamejit = quoted(fj::test::flamejit_binary());
    const std::string out = dir + "/out.flam3", good = dir + "/good.flam3", pair = dir + "/pair.flam3";
    const std::string flame = "<flame size=\"8 8\"><xform weight=\"1\" linear=\"1\"/></flame>";
    fj::test::write_file(good, flame);
    fj::test::write_file(pair, "<flames>" + flame + flame + "</flames>");
    // @1: a file of one flame, @2: of two (3 × 30000 + 1 genomes is too many).
    for (const std::string& args :
         std::vector<std::string>{"@1 --frames 0", "@1 --frames 60000", "@2 --frames 30000", "@1 --stagger 1.5",
                                  "@1 --stagger x", "@1 --flame 1", "- -", "@1 @0", ""}) {
        CAPTURE(args);
        std::string line = args;
        for (const auto& [mark, path] : {std::pair{"@0", dir + "/missing.flam3"}, {"@1", good}, {"@2", pair}})
            for (size_t at; (at = line.find(mark)) != std::string::npos;) line.replace(at, 2, quoted(path));
        const auto r = run_command(flamejit + " sequence " + line + " -o " + quoted(out) + " 2>&1");
        CHECK(r.status == 2);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
        CHECK(!fj::test::file_exists(out));
    }
}
