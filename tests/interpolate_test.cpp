// flamejit — interpolation between control points, checked against libflam3's flam3_interpolate.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Every comparison parses one sequence with both flam3_parse_xml2 and our
// reader, interpolates it at many times (inside, on and outside the keyframe
// range) with both, and compares every field: camera, tone values, palette
// entries, each xform's weight, colour, affines, variation weights and
// parameters, chaos, the final xform.
#include <doctest/doctest.h>

#include <cstring>
#include <filesystem>
#include <set>
#include <sstream>

#include "errors.h"
#include "flam3_oracle.h"
#include "genome/flam3_reader.h"
#include "genome/interpolate.h"
#include "genome/sequence.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

using fj::test::quoted;

std::string sequence_document(const std::vector<std::string>& flames) {
    std::string doc = "<sequence>\n";
    for (const auto& f : flames) doc += f + "\n";
    return doc + "</sequence>\n";
}

struct Tally {
    int sequences = 0, times = 0, values = 0, failures = 0;
};

// Interpolates `xml` at `times` with flam3 and with us; reports every field
// that differs (at most a few lines per time).
void compare_sequence(const std::string& name, const std::string& xml, const std::vector<double>& times, Tally* tally,
                      double stagger = 0) {
    fj::test::Flam3Genomes ref(xml, name);
    REQUIRE_MESSAGE(ref.count > 0, name << ": flam3 read no flames");
    const std::vector<fj::Flame> ours = fj::read_flam3_string(xml, name);
    REQUIRE(static_cast<int>(ours.size()) == ref.count);
    ++tally->sequences;
    for (double t : times) {
        flam3_genome result;
        std::memset(&result, 0, sizeof result);
        flam3_interpolate(ref.cps, ref.count, t, stagger, &result);
        const fj::Flame mine = fj::interpolate(ours, t, stagger);
        fj::test::FlameDiff diff(1e-9);
        diff.compare(mine, result);
        clear_cp(&result, flam3_defaults_on);
        ++tally->times;
        tally->values += diff.values_compared();
        if (!diff.differences().empty()) {
            ++tally->failures;
            std::ostringstream lines;
            for (size_t i = 0; i < std::min<size_t>(diff.differences().size(), 6); ++i)
                lines << "\n  " << diff.differences()[i];
            FAIL_CHECK(name << " at time " << t << ": " << diff.differences().size() << " fields differ" << lines.str());
        }
    }
}

std::vector<double> sample_times(double first, double last, int steps) {
    std::vector<double> times;
    for (int i = 0; i <= steps; ++i) times.push_back(first - 1.25 + (last - first + 2.5) * i / steps);
    return times;
}

// Four random flam3-genome genomes (times 0..3), restricted to the
// variations we have.
std::vector<std::string> random_flames(const std::string& dir, int seed) {
    const std::string out = dir + "/random" + std::to_string(seed) + ".flam3";
    const auto gen = run_command("env seed=" + std::to_string(seed) + " isaac_seed=interp" + std::to_string(seed) +
                                 " noedits=1 repeat=4 use_vars=" + fj::test::flam3_genome_variation_ids() + " flam3-genome > " + quoted(out));
    REQUIRE_MESSAGE(gen.status == 0, gen.output);
    std::vector<std::string> flames = fj::test::flame_elements(fj::test::read_file(out));
    REQUIRE(flames.size() == 4);
    return flames;
}

}  // namespace

TEST_CASE("interpolate: random genome sequences equal flam3_interpolate in every mode, at many times") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("interpolate");
    const char* affine_modes[] = {"log", "linear", "old", "older"};
    const char* palette_modes[] = {"hsv", "hsv_circular", "rgb", "sweep"};
    const double key_times[] = {0, 1.5, 2, 4.25};
    Tally tally;
    for (int seed : {31, 32, 33}) {
        const std::vector<std::string> base = random_flames(dir, seed);
        for (int a = 0; a < 4; ++a)
            for (int p = 0; p < 4; ++p) {
                const bool smooth = (a + p + seed) % 2 == 0;
                std::vector<std::string> flames;
                for (int k = 0; k < 4; ++k) {
                    std::string f = fj::test::set_flame_attribute(base[k], "time", std::to_string(key_times[k]));
                    // The left keyframe's modes govern a segment: vary them along the sequence too.
                    f = fj::test::set_flame_attribute(f, "interpolation_type", affine_modes[(a + (k == 2 ? 1 : 0)) % 4]);
                    f = fj::test::set_flame_attribute(f, "palette_interpolation", palette_modes[p]);
                    if (p == 1 && k == 1) f = fj::test::set_flame_attribute(f, "hsv_rgb_palette_blend", "0.35");
                    if (smooth) f = fj::test::set_flame_attribute(f, "interpolation", "smooth");
                    // Rotations more than half a turn apart test the parser's unwrapping.
                    f = fj::test::set_flame_attribute(f, "rotate", std::to_string(k * 170.0 - 90));
                    flames.push_back(f);
                }
                const std::string name = "random" + std::to_string(seed) + "-" + affine_modes[a] + "-" +
                                         palette_modes[p] + (smooth ? "-smooth" : "");
                std::vector<double> times = sample_times(0, 4.25, 37);
                times.insert(times.end(), std::begin(key_times), std::end(key_times));
                compare_sequence(name, sequence_document(flames), times, &tally);
            }
    }
    MESSAGE(tally.sequences << " sequences, " << tally.times << " times, " << tally.values << " values compared, "
                            << tally.failures << " times with differences");
    CHECK(tally.times >= 3 * 16 * 40);
}

namespace {

std::string xform_element(const std::string& attrs) { return "<xform " + attrs + "/>"; }

std::string flame(double time, const std::string& mode, const std::string& body) {
    std::ostringstream f;
    f << "<flame time=\"" << time << "\" size=\"64 48\" interpolation_type=\"" << mode << "\">" << body
      << "<color index=\"0\" rgb=\"255 0 0\"/><color index=\"128\" rgba=\"0 255 64 128\"/>"
         "<color index=\"255\" rgb=\"0 0 255\"/></flame>";
    return f.str();
}

}  // namespace

TEST_CASE("interpolate: staggered xforms equal flam3_interpolate's stagger, on linear and smooth segments") {
    if (!fj::test::flam3_genome_present()) return;
    const std::string dir = fj::test::scratch_dir("interpolate-stagger");
    Tally tally;
    for (int seed : {34, 35}) {
        const std::vector<std::string> base = random_flames(dir, seed);
        for (bool smooth : {false, true}) {
            std::vector<std::string> flames;
            for (int k = 0; k < 4; ++k) {
                std::string f = fj::test::set_flame_attribute(base[k], "time", std::to_string(k));
                if (smooth) f = fj::test::set_flame_attribute(f, "interpolation", "smooth");
                flames.push_back(f);
            }
            // Four xforms against two to six: padding xforms stagger too.
            for (double stagger : {0.25, 0.6, 1.0})
                compare_sequence("stagger" + std::to_string(seed) + (smooth ? "-smooth" : ""),
                                 sequence_document(flames), sample_times(0, 3, 29), &tally, stagger);
        }
    }
    MESSAGE(tally.times << " times, " << tally.values << " values compared");
    CHECK(tally.failures == 0);
}

TEST_CASE("interpolate: padding identities, parameter copies, finals and edge values equal flam3's") {
    const std::string one = xform_element("weight=\"1\" linear=\"1\" coefs=\"0.5 0.1 -0.2 0.6 0.3 -0.1\"");
    // Each partner xform makes flam3 choose a different identity for the
    // padding xform that faces it.
    const std::vector<std::string> partners = {
        "spherical=\"1\"", "ngon=\"0.5\" ngon_sides=\"7\"", "julian=\"1\" julian_power=\"4\"", "juliascope=\"1\"",
        "polar=\"1\"", "wedge_sph=\"1\"", "wedge_julia=\"0.7\" wedge_julia_power=\"3\"",
        "rectangles=\"1\" rectangles_x=\"0.4\"", "rings2=\"1\" rings2_val=\"0.3\"", "fan2=\"1\" fan2_x=\"0.2\"",
        "blob=\"1\" blob_low=\"0.3\"", "perspective=\"1\" perspective_dist=\"2\"", "curl=\"1\" curl_c1=\"0.5\"",
        "super_shape=\"1\" super_shape_m=\"5\"", "fan=\"1\"", "rings=\"1\"", "rectangles=\"0.5\" fan2=\"0.5\"",
        "fan=\"0.3\" rings=\"0.7\"", "swirl=\"1\"", "spherical=\"-1\"",
        "flower=\"1\" flower_petals=\"5\" flower_holes=\"0.5\"", "pdj=\"1\" pdj_a=\"2\" linear=\"0.5\""};
    Tally tally;
    const std::vector<double> times = {-0.7, 0, 0.25, 0.5, 0.999, 1, 1.6};
    for (const char* mode : {"log", "linear", "old"}) {
        for (size_t i = 0; i < partners.size(); ++i) {
            const std::string other = xform_element("weight=\"0.5\" color=\"0.8\" " + partners[i] +
                                            " coefs=\"0.9 -0.3 0.3 0.9 0.1 0.2\" post=\"1 0.2 0 1 0 0.1\"");
            const std::string name = std::string(mode) + "-partner-" + std::to_string(i);
            // Padding on the right, then on the left.
            compare_sequence(name + "-right",
                             sequence_document({flame(0, mode, one + other), flame(1, mode, one)}), times, &tally);
            compare_sequence(name + "-left",
                             sequence_document({flame(0, mode, one), flame(1, mode, one + other)}), times, &tally);
            // The final xform: present on one side only.
            compare_sequence(name + "-final",
                             sequence_document({flame(0, mode, one + "<finalxform " + partners[i] + "/>"),
                                                flame(1, mode, one + other)}),
                             times, &tally);
        }
        const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
            // Exactly a half turn apart: flam3 turns clockwise.
            {"half-turn", {one, xform_element("weight=\"1\" linear=\"1\" coefs=\"-0.5 -0.1 0.2 -0.6 0.3 -0.1\"")}},
            // A zero-length column borrows the other's angle; a tiny one blends linearly.
            {"zero-column", {xform_element("weight=\"1\" linear=\"1\" coefs=\"0 0 1 1 0 0\""),
                             xform_element("weight=\"1\" linear=\"1\" coefs=\"1e-6 0 0 1 0 0\"")}},
            // Chaos and weights that extrapolate below 0, colours beyond 1.
            {"chaos-clamp", {one + xform_element("weight=\"2\" color=\"0.9\" color_speed=\"0.9\" chaos=\"0.1 3\" spherical=\"1\""),
                             one + xform_element("weight=\"0.1\" color=\"0.1\" color_speed=\"0.1\" chaos=\"2 0\" spherical=\"1\"")}},
            // Post affines that are the identity on one side only.
            {"post-one-side", {xform_element("weight=\"1\" linear=\"1\" post=\"0.5 0.5 -0.5 0.5 1 0\""), one}},
        };
        for (const auto& [label, bodies] : cases)
            compare_sequence(std::string(mode) + "-" + label,
                             sequence_document({flame(0, mode, bodies[0]), flame(1, mode, bodies[1])}), times, &tally);
    }
    MESSAGE(tally.sequences << " sequences, " << tally.values << " values compared");
    CHECK(tally.failures == 0);
}

TEST_CASE("interpolate: the electric-sheep corpus as one smooth sequence equals flam3_interpolate") {
    if (!fj::test::corpus_present("electric-sheep")) return;
    const std::string dir = fj::test::corpus_path("electric-sheep");
    std::vector<std::string> files;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    std::vector<std::string> flames;
    for (const auto& file : files)
        for (const auto& f : fj::test::flame_elements(fj::test::read_file(file))) {
            std::string g = fj::test::set_flame_attribute(f, "time", std::to_string(2 * flames.size()));
            if (flames.size() % 3 != 2) g = fj::test::set_flame_attribute(g, "interpolation", "smooth");
            flames.push_back(g);
        }
    REQUIRE(flames.size() >= 4);
    Tally tally;
    compare_sequence("electric-sheep", sequence_document(flames),
                     sample_times(0, 2.0 * (flames.size() - 1), 8 * static_cast<int>(flames.size())), &tally);
    MESSAGE(tally.times << " times, " << tally.values << " values compared");
    CHECK(tally.failures == 0);
}

TEST_CASE("interpolate: all times of one segment give each xform the same variations, and the final xform too") {
    const std::string xml = sequence_document(
        {flame(0, "log", xform_element("weight=\"1\" linear=\"1\"") + xform_element("weight=\"1\" julian=\"1\" post=\"1 0 0 1 0.5 0\"")),
         flame(1, "log", xform_element("weight=\"1\" spherical=\"1\"")),
         flame(2, "log", xform_element("weight=\"1\" swirl=\"1\"") + "<finalxform linear=\"1\"/>")});
    const std::vector<fj::Flame> seq = fj::read_flam3_string(xml, "structure");
    for (int segment = 0; segment < 2; ++segment) {
        std::set<std::string> keys;
        // Segment (k, k+1] in flam3's choice of segment; the left end itself
        // belongs to the previous segment except for the first.
        for (int i = 1; i <= 10; ++i) {
            fj::Flame f = fj::interpolate(seq, segment + i / 10.0);
            // A post affine that happens to be exactly the identity at an end
            // is a value, not a structure change: compare variation lists.
            std::ostringstream key;
            for (const auto& xf : f.xforms) {
                key << '[';
                for (const auto& v : xf.variations) key << v.id << ',';
                key << ']';
            }
            key << (f.has_final ? "final" : "");
            keys.insert(key.str());
        }
        CAPTURE(segment);
        CHECK(keys.size() == 1);
    }
}

TEST_CASE("sequence: times out of order, empty flames and oversized padding are rejected") {
    auto seq = [](const std::vector<std::string>& flames) { return fj::read_flam3_string(sequence_document(flames), "s"); };
    const std::string body = xform_element("weight=\"1\" linear=\"1\"");
    std::vector<fj::Flame> ok = seq({flame(0, "log", body), flame(1, "log", body)});
    CHECK_NOTHROW(fj::check_sequence(ok, "s"));
    std::vector<fj::Flame> backwards = seq({flame(1, "log", body), flame(0, "log", body)});
    CHECK_THROWS_WITH_AS(fj::check_sequence(backwards, "s"), doctest::Contains("strictly increase"), fj::InputError);
    std::vector<fj::Flame> same = seq({flame(1, "log", body), flame(1, "log", body)});
    CHECK_THROWS_AS(fj::check_sequence(same, "s"), fj::InputError);
    std::vector<fj::Flame> empty;
    CHECK_THROWS_AS(fj::check_sequence(empty, "s"), fj::InputError);
    std::vector<fj::Flame> big = ok;
    big[1].xforms.resize(fj::kMaxSequenceXforms + 1, big[1].xforms[0]);
    CHECK_THROWS_WITH_AS(fj::check_sequence(big, "s"), doctest::Contains("cannot be padded"), fj::InputError);
    std::vector<fj::Flame> sizes = ok;
    sizes[1].width = 99;
    CHECK(fj::check_sequence(sizes, "s").resized == 1);
    CHECK(sizes[1].width == sizes[0].width);
}

TEST_CASE("sequence: a loop's keyframes interpolate as flam3_interpolate does the keyframes written out three times over") {
    // The loop, read as one, against flam3 reading the same flames one period
    // apart three times (its own fix-ups and rotate unwrapping, which touch
    // only the ends), taken in the middle period, where every segment has its
    // neighbours; the join from the last keyframe to the first is a segment
    // there like any other. Rotates that come back (no winding) and rotates
    // that wind once a period, whose written-out copies flam3 unwraps a turn
    // further each period.
    const std::string dir = fj::test::scratch_dir("loop");
    const double period = 5.5;  // keyframes at 0..3, the join 2.5 long
    Tally tally;
    for (int seed : {11, 12})
        for (const char* interpolation : {"linear", "smooth"})
            for (const bool winds : {false, true}) {
                const std::string name = "loop-" + std::to_string(seed) + "-" + interpolation + (winds ? "-winding" : "");
                std::vector<std::string> flames = random_flames(dir, seed);
                const double rotates[2][4] = {{10, 100, 40, -30}, {0, 100, 200, 300}};
                for (size_t i = 0; i < flames.size(); ++i)
                    flames[i] = fj::test::set_flame_attribute(
                        fj::test::set_flame_attribute(flames[i], "interpolation", interpolation), "rotate",
                        std::to_string(rotates[winds][i]));
                std::vector<std::string> written;
                for (int turn = 0; turn < 3; ++turn)
                    for (size_t i = 0; i < flames.size(); ++i)
                        written.push_back(
                            fj::test::set_flame_attribute(flames[i], "time", std::to_string(i + turn * period)));
                fj::test::Flam3Genomes ref(sequence_document(written), name);
                REQUIRE(ref.count == 12);
                fj::ReadOptions as_loop;
                as_loop.loop = true;
                std::vector<fj::Flame> ours = fj::read_flam3_string(sequence_document(flames), name, as_loop);
                fj::check_sequence(ours, name);
                const std::vector<fj::Flame> keyframes = fj::loop_keyframes(ours, period, name);
                ++tally.sequences;
                for (double t = -7.1; t < 12; t += 0.37) {
                    const double in_loop = fj::loop_time(t, 0, period);
                    REQUIRE(in_loop >= 0);
                    REQUIRE(in_loop < period);
                    flam3_genome result;
                    std::memset(&result, 0, sizeof result);
                    flam3_interpolate(ref.cps, ref.count, in_loop + period, 0, &result);
                    result.time -= period;
                    if (winds) result.rotate -= 360;  // the middle period's copies are a turn on
                    const fj::Flame mine = fj::interpolate(keyframes, in_loop);
                    fj::test::FlameDiff diff(1e-9);
                    diff.compare(mine, result);
                    clear_cp(&result, flam3_defaults_on);
                    ++tally.times;
                    if (!diff.differences().empty()) {
                        ++tally.failures;
                        FAIL_CHECK(name << " at time " << t << ": " << diff.differences().size()
                                        << " fields differ, first " << diff.differences()[0]);
                    }
                }
                // A time a whole number of periods away is the same time of the loop.
                CHECK(fj::loop_time(3.25 + 4 * period, 0, period) == doctest::Approx(3.25));
                CHECK(fj::loop_time(-period, 0, period) == 0);
            }
    MESSAGE(tally.sequences << " loops, " << tally.times << " times compared");
    CHECK(tally.failures == 0);
    // A period no longer than the keyframes' span leaves the join no time.
    std::vector<fj::Flame> short_loop = fj::read_flam3_string(
        sequence_document({flame(0, "log", xform_element("weight=\"1\" linear=\"1\"")),
                           flame(2, "log", xform_element("weight=\"1\" linear=\"1\""))}),
        "s");
    CHECK_THROWS_WITH_AS(fj::loop_keyframes(short_loop, 2, "s"), doctest::Contains("longer than its keyframes' span"),
                         fj::InputError);
    CHECK_NOTHROW(fj::loop_keyframes(short_loop, 2.01, "s"));
}
