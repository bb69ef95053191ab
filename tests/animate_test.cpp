// flamejit — `flamejit animate` end to end: fidelity against flam3-animate with motion blur,
// shards, resuming after a kill, and bad sequences.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

#include "codegen/variation_registry.h"
#include "image/fidelity.h"
#include "image/png_io.h"
#include "pipeline/frame_batch.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

using fj::test::quoted;
std::string flamejit() { return quoted(fj::test::flamejit_binary()); }

bool have_flam3_tools() { return run_command("command -v flam3-genome && command -v flam3-animate").status == 0; }

// The backend the flam3-animate comparisons render with: the CPU on two
// threads, or FJ_TEST_BACKEND on the devices FJ_TEST_DEVICES lists, if any
// (`FJ_TEST_BACKEND=cuda FJ_TEST_DEVICES=0,1 ctest -R animate` where there
// are GPUs).
std::string test_backend() {
    const char* backend = std::getenv("FJ_TEST_BACKEND");
    return backend && *backend ? backend : "cpu";
}

std::string backend_args() {
    if (test_backend() == "cpu") return "--backend cpu --threads 2";
    std::string args = "--backend " + test_backend();
    if (const char* devices = std::getenv("FJ_TEST_DEVICES"); devices && *devices) args += std::string(" --devices ") + devices;
    return args;
}

// Every frame line of a run names the backend it was rendered with.
void check_backend(const std::string& output) {
    const std::regex frame_line("^frame -?[0-9]+: .*, backend ([a-z]+)$");
    std::istringstream in(output);
    int frames = 0;
    for (std::string line; std::getline(in, line);) {
        std::smatch m;
        if (!std::regex_match(line, m, frame_line)) continue;
        ++frames;
        CHECK(m[1].str() == test_backend());
    }
    CHECK(frames > 0);
}

// A flam3-genome sequence=… animation between two random genomes: each
// rotated a full turn in `nframes` frames, then a transition, one keyframe
// per frame (times 0, 1, 2, …), with `temporal_samples` in every keyframe.
std::string make_sequence(const std::string& dir, int seed, const std::string& size, double quality, int temporal_samples,
                          int nframes) {
    const std::string tag = std::to_string(seed);
    fj::test::write_file(dir + "/template" + tag + ".flam3",
                         "<flame size=\"" + size + "\" quality=\"" + std::to_string(quality) +
                             "\" supersample=\"1\" filter=\"0.5\" estimator_radius=\"9\" estimator_minimum=\"0\" "
                             "estimator_curve=\"0.4\" gamma=\"4\" brightness=\"4\" vibrancy=\"1\" background=\"0 0 0\" "
                             "temporal_samples=\"" + std::to_string(temporal_samples) + "\"/>\n");
    const std::string pair = dir + "/pair" + tag + ".flam3", seq = dir + "/seq" + tag + ".flam3";
    const auto gen = run_command("env seed=" + tag + " isaac_seed=pair" + tag + " noedits=1 repeat=2 template=" +
                                 quoted(dir + "/template" + tag + ".flam3") + " use_vars=" + fj::test::flam3_genome_variation_ids() +
                                 " flam3-genome > " + quoted(pair));
    REQUIRE_MESSAGE(gen.status == 0, gen.output);
    const auto s = run_command("env sequence=" + quoted(pair) + " nframes=" + std::to_string(nframes) + " seed=" + tag +
                               " isaac_seed=seq" + tag + " noedits=1 flam3-genome > " + quoted(seq));
    REQUIRE_MESSAGE(s.status == 0, s.output);
    return seq;
}

// The frame numbers a run reported rendering ("frame N: ...").
std::set<long long> rendered_frames(const std::string& output) {
    std::set<long long> frames;
    static const std::regex line("^frame (-?[0-9]+): ");
    std::istringstream in(output);
    for (std::string l; std::getline(in, l);) {
        std::smatch m;
        if (std::regex_search(l, m, line)) frames.insert(std::stoll(m[1]));
    }
    return frames;
}

std::set<long long> complete_frames(const std::string& pattern, long long first, long long last, int w, int h) {
    std::set<long long> done;
    for (long long f = first; f <= last; ++f)
        if (fj::image_complete(fj::format_output(pattern, f), w, h)) done.insert(f);
    return done;
}

}  // namespace

TEST_CASE("animate: frames of a flam3-genome sequence match flam3-animate with motion blur (ratio <= 1.3)") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-animate not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    const std::string dir = fj::test::scratch_dir("animate-fidelity");
    // Frames 1 and 2 turn the first genome, 5 and 6 are in the transition, 9
    // the second genome: every frame is blurred across a keyframe.
    const std::vector<long long> frames = {1, 2, 5, 6, 9};
    for (int seed : {41, 42}) {
        CAPTURE(seed);
        const std::string seq = make_sequence(dir, seed, "160 120", 60, 20, 4);
        const std::string tag = std::to_string(seed);
        bool references = true;
        for (const char* s : {"A", "B"}) {
            const auto ref = run_command("env in=" + quoted(seq) + " prefix=" + quoted(dir + "/" + s + tag + "_") +
                                         " begin=1 end=9 isaac_seed=ref" + s + tag + " nthreads=2 verbose=0 flam3-animate");
            CHECK_MESSAGE(ref.status == 0, ref.output);
            references = references && ref.status == 0;
        }
        const std::string pattern = dir + "/C" + tag + "_%05d.png";
        const auto ours = run_command(flamejit() + " animate " + quoted(seq) + " --frames 1:9 -o " + quoted(pattern) +
                                      " " + backend_args() + " --seed " + tag);
        CHECK_MESSAGE(ours.status == 0, ours.output);
        if (!references || ours.status != 0) continue;
        check_backend(ours.output);
        CHECK(ours.output.find("time samples") != std::string::npos);
        for (long long f : frames) {
            CAPTURE(f);
            char suffix[16];
            std::snprintf(suffix, sizeof suffix, "_%05lld.png", f);
            const auto ratio = fj::fidelity_ratio(fj::read_png(dir + "/A" + tag + suffix),
                                                  fj::read_png(dir + "/B" + tag + suffix),
                                                  fj::read_png(fj::format_output(pattern, f)));
            MESSAGE("sequence " << seed << " frame " << f << ": fidelity ratio " << ratio.ratio << " (flam3 seed-to-seed "
                                << ratio.error_ab << ")");
            // A blank frame (flam3's two renders alike) would read 1 and say nothing.
            CHECK_MESSAGE(ratio.error_ab > 0.05, "flam3's two renders are identical");
            CHECK(ratio.ratio <= 1.3);
        }
    }
}

TEST_CASE("animate and render: a few thousand samples of a lazy xaos genome are plotted, still and motion-blurred") {
    // Under warp-uniform xaos a lane moves once per M rounds (1.91 for this
    // genome), so its chains settle M times slower; frames this small have
    // almost no fresh lanes, and the guard against genomes that never plot
    // gave up on them while they settled: the CUDA backend plotted nothing,
    // a motion-blurred frame a tenth of its samples.
    const std::string dir = fj::test::scratch_dir("animate-lazy-xaos");
    const std::string xml = fj::test::reduced_genome(
        fj::test::read_file(fj::test::source_path("benchmarks/genomes/xaos.flam3")), 1.0 / 30, 1);
    const double asked = 64 * 36;  // quality 1
    const auto samples = [](const std::string& output) {
        std::smatch m;
        REQUIRE_MESSAGE(std::regex_search(output, m, std::regex(" ([0-9]+) samples")), output);
        return std::stod(m[1]);
    };
    fj::test::write_file(dir + "/still.flam3", xml);
    const auto still = run_command(flamejit() + " render " + quoted(dir + "/still.flam3") + " -o " +
                                   quoted(dir + "/still.png") + " " + backend_args() + " --seed 3");
    REQUIRE_MESSAGE(still.status == 0, still.output);
    CHECK(samples(still.output) >= asked);
    // Two keyframes that differ in one coefficient; frame 2 is blurred over
    // flam3's 1000 time samples, each a few samples.
    std::string later = fj::test::set_flame_attribute(xml, "time", "10");
    later.replace(later.find("coefs=\"0.634415"), 15, "coefs=\"0.6");
    fj::test::write_file(dir + "/seq.flam3", "<flames>\n" + fj::test::set_flame_attribute(xml, "time", "0") + later +
                                                 "</flames>\n");
    const auto blurred = run_command(flamejit() + " animate " + quoted(dir + "/seq.flam3") + " --frames 2:2 -o " +
                                     quoted(dir + "/f%02d.png") + " " + backend_args() + " --seed 3");
    REQUIRE_MESSAGE(blurred.status == 0, blurred.output);
    check_backend(blurred.output);
    CHECK(blurred.output.find("1000 time samples") != std::string::npos);
    // Each time step asks for its whole share, as in flam3: 2 samples.
    CHECK(samples(blurred.output) >= 1000 * std::floor(asked / 1000));
}

TEST_CASE("animate: a gaussian temporal filter with DE matches flam3-animate (flam3's count channel; ratio <= 1.3)") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-animate not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    // Gaussian weights fall to 1 % at the blur's ends: those steps deposit
    // almost no alpha but count fully in flam3's kernel choice, so a frame
    // that counted hits from alpha would take wider DE kernels.
    const std::string dir = fj::test::scratch_dir("animate-gaussian");
    const int seed = 43;
    const std::string tag = std::to_string(seed);
    std::string xml = fj::test::read_file(make_sequence(dir, seed, "160 120", 60, 20, 4));
    xml = std::regex_replace(xml, std::regex(" temporal_filter_type=\"[^\"]*\""), "");
    xml = std::regex_replace(xml, std::regex("<flame "), "<flame temporal_filter_type=\"gaussian\" ");
    const std::string seq = dir + "/gaussian.flam3";
    fj::test::write_file(seq, xml);
    for (const char* s : {"A", "B"}) {
        const auto ref = run_command("env in=" + quoted(seq) + " prefix=" + quoted(dir + "/" + s + "_") +
                                     " begin=4 end=5 isaac_seed=gauss" + s + tag + " nthreads=2 verbose=0 flam3-animate");
        REQUIRE_MESSAGE(ref.status == 0, ref.output);
    }
    const std::string pattern = dir + "/C_%05d.png";
    const auto ours = run_command(flamejit() + " animate " + quoted(seq) + " --frames 4:5 -o " + quoted(pattern) +
                                  " " + backend_args() + " --seed " + tag);
    REQUIRE_MESSAGE(ours.status == 0, ours.output);
    check_backend(ours.output);
    for (long long f : {4, 5}) {
        CAPTURE(f);
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "_%05lld.png", f);
        const auto ratio = fj::fidelity_ratio(fj::read_png(dir + "/A" + suffix), fj::read_png(dir + "/B" + suffix),
                                              fj::read_png(fj::format_output(pattern, f)));
        MESSAGE("gaussian frame " << f << ": fidelity ratio " << ratio.ratio << " (flam3 seed-to-seed " << ratio.error_ab << ")");
        CHECK(ratio.error_ab > 0.05);
        CHECK(ratio.ratio <= 1.3);
    }
}

namespace {

// The rows of one parity of an image: one field of an interlaced frame.
fj::PngImage field_rows(const fj::PngImage& frame, int parity) {
    fj::PngImage field = frame;
    field.height = frame.height / 2;
    field.rgba.clear();
    const size_t row = static_cast<size_t>(frame.width) * 4;
    for (int y = parity; y < frame.height; y += 2)
        field.rgba.insert(field.rgba.end(), frame.rgba.begin() + row * y, frame.rgba.begin() + row * (y + 1));
    return field;
}

}  // namespace

TEST_CASE("animate: --fields matches flam3-animate's fields=1, each field on its own (ratio <= 1.3)") {
    if (!have_flam3_tools()) {
        FAIL("flam3-genome / flam3-animate not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    // A full turn in 4 frames: half a frame apart, the two fields differ
    // clearly, so rows from the wrong time or place read far from flam3's.
    const std::string dir = fj::test::scratch_dir("animate-fields");
    const int seed = 41;
    const std::string tag = std::to_string(seed);
    const std::string seq = make_sequence(dir, seed, "160 120", 60, 20, 4);
    for (const char* s : {"A", "B"}) {
        const auto ref = run_command("env in=" + quoted(seq) + " prefix=" + quoted(dir + "/" + s + "_") +
                                     " begin=1 end=5 fields=1 isaac_seed=fields" + s + tag +
                                     " nthreads=2 verbose=0 flam3-animate");
        REQUIRE_MESSAGE(ref.status == 0, ref.output);
    }
    const std::string pattern = dir + "/C_%05d.png", whole = dir + "/W_%05d.png";
    const auto ours = run_command(flamejit() + " animate " + quoted(seq) + " --frames 1:5 --fields -o " +
                                  quoted(pattern) + " " + backend_args() + " --seed " + tag);
    REQUIRE_MESSAGE(ours.status == 0, ours.output);
    check_backend(ours.output);
    CHECK(ours.output.find("40 time samples") != std::string::npos);  // 20 a field
    CHECK(fj::read_png_text(fj::format_output(pattern, 1)).at("flamejit_fields") == "1");
    const auto plain = run_command(flamejit() + " animate " + quoted(seq) + " --frames 1:5 -o " + quoted(whole) + " " +
                                   backend_args() + " --seed " + tag);
    REQUIRE_MESSAGE(plain.status == 0, plain.output);
    for (long long f : {1, 2, 5}) {
        CAPTURE(f);
        char suffix[16];
        std::snprintf(suffix, sizeof suffix, "_%05lld.png", f);
        const fj::PngImage a = fj::read_png(dir + "/A" + suffix), b = fj::read_png(dir + "/B" + suffix);
        const fj::PngImage c = fj::read_png(fj::format_output(pattern, f));
        const fj::PngImage w = fj::read_png(fj::format_output(whole, f));
        REQUIRE(c.height == 120);
        for (int parity : {0, 1}) {
            CAPTURE(parity);
            const auto ratio = fj::fidelity_ratio(field_rows(a, parity), field_rows(b, parity), field_rows(c, parity));
            MESSAGE("fields frame " << f << " rows of parity " << parity << ": fidelity ratio " << ratio.ratio
                                    << " (flam3 seed-to-seed " << ratio.error_ab << ")");
            CHECK(ratio.ratio <= 1.3);
            // The other field's rows are not these; nor, for the odd field
            // (half a frame later), the rows of the frame rendered whole.
            // (Its even rows are the even field's picture.)
            const auto other = fj::fidelity_ratio(field_rows(a, parity), field_rows(b, parity), field_rows(c, 1 - parity));
            MESSAGE("against the other field's rows: " << other.ratio);
            CHECK(other.ratio > 1.5);
            if (parity == 1) {
                const auto at_n = fj::fidelity_ratio(field_rows(a, 1), field_rows(b, 1), field_rows(w, 1));
                MESSAGE("against the odd rows of the frame rendered whole: " << at_n.ratio);
                CHECK(at_n.ratio > 1.5);
            }
        }
    }
    // An odd height, or strips: one line, exit 2, no frame.
    std::string xml = fj::test::read_file(seq);
    xml = std::regex_replace(xml, std::regex("size=\"160 120\""), "size=\"160 121\"");
    fj::test::write_file(dir + "/odd.flam3", xml);
    const auto odd = run_command(flamejit() + " animate " + quoted(dir + "/odd.flam3") + " --frames 1:1 --fields -o " +
                                 quoted(dir + "/odd_%05d.png") + " --backend cpu");
    CHECK(odd.status == 2);
    CHECK(odd.output.find("--fields needs an even image height, not 121") != std::string::npos);
    CHECK_FALSE(fj::test::file_exists(dir + "/odd_00001.png"));
    const auto strips = run_command(flamejit() + " animate " + quoted(seq) + " --frames 1:1 --fields --strips 2 -o " +
                                    quoted(dir + "/s_%05d.png") + " --backend cpu");
    CHECK(strips.status == 2);
    CHECK(strips.output.find("no --strips") != std::string::npos);
}

TEST_CASE("animate: --shard slices partition the frame range") {
    const std::string dir = fj::test::scratch_dir("animate-shard");
    fj::test::write_file(dir + "/seq.flam3", R"(<sequence>
      <flame time="0" size="32 24" scale="10" quality="2" temporal_samples="2">
        <xform weight="1" linear="1" coefs="0.5 0 0 0.5 0.2 0"/><xform weight="1" spherical="1"/>
        <color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/></flame>
      <flame time="20" size="32 24" scale="10" quality="2" temporal_samples="2" rotate="90">
        <xform weight="1" linear="1" coefs="0.5 0 0 0.5 -0.2 0"/><xform weight="1" julia="1"/>
        <color index="0" rgb="0 255 0"/><color index="255" rgb="255 255 0"/></flame>
    </sequence>)");
    std::multiset<long long> seen;
    for (int i = 0; i < 3; ++i) {
        const auto r = run_command(flamejit() + " animate " + quoted(dir + "/seq.flam3") + " --frames 2:12 -o " +
                                   quoted(dir + "/f%03d.png") + " --backend cpu --threads 1 --seed 5 --shard " +
                                   std::to_string(i) + "/3");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        const std::set<long long> got = rendered_frames(r.output);
        CHECK(got.size() >= 3);
        seen.insert(got.begin(), got.end());
        // The last line says where the worker's time went.
        CHECK(r.output.find("render workers: ") != std::string::npos);
        CHECK(r.output.find("s for the image writer\n") != std::string::npos);
    }
    std::multiset<long long> all;
    for (long long f = 2; f <= 12; ++f) all.insert(f);
    CHECK(seen == all);
    CHECK(complete_frames(dir + "/f%03d.png", 2, 12, 32, 24).size() == 11);
}

TEST_CASE("animate: after a run killed midway, --resume renders exactly the missing frames; a truncated PNG is missing") {
    const std::string dir = fj::test::scratch_dir("animate-resume");
    fj::test::write_file(dir + "/seq.flam3", R"(<sequence>
      <flame time="0" size="64 48" scale="20" quality="40" temporal_samples="4">
        <xform weight="1" linear="1" coefs="0.5 0 0 0.5 0.2 0"/><xform weight="1" spherical="1"/>
        <color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/></flame>
      <flame time="40" size="64 48" scale="20" quality="40" temporal_samples="4" rotate="120">
        <xform weight="1" linear="1" coefs="0.5 0 0 0.5 -0.2 0"/><xform weight="1" julia="1"/>
        <color index="0" rgb="0 255 0"/><color index="255" rgb="255 255 0"/></flame>
    </sequence>)");
    const std::string pattern = dir + "/f%05d.png";
    const std::string command = flamejit() + " animate " + quoted(dir + "/seq.flam3") + " --frames 0:39 -o " +
                                quoted(pattern) + " --backend cpu --threads 1 --seed 9";
    // Start a run, wait for a few frames, kill it without warning.
    const auto killed = run_command("(exec " + command + " > " + quoted(dir + "/first.log") + " 2>&1) & pid=$!; " +
                                    "n=0; while [ $(ls " + quoted(dir) + " | grep -c '^f.*png$') -lt 3 ] && [ $n -lt 600 ]; " +
                                    "do sleep 0.05; n=$((n+1)); done; kill -9 $pid; wait $pid; true");
    const std::set<long long> before = complete_frames(pattern, 0, 39, 64, 48);
    MESSAGE("frames complete after the kill: " << before.size() << " of 40");
    REQUIRE(before.size() >= 3);
    REQUIRE(before.size() < 40);
    // Every file with a frame's name is complete: frames appear by rename only.
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
        const std::string name = entry.path().filename().string();
        if (std::regex_match(name, std::regex("f[0-9]{5}\\.png"))) CHECK(fj::image_complete(entry.path().string(), 64, 48));
    }
    // Cut one finished frame short: it must count as missing.
    const long long cut = *before.begin();
    const std::string cut_path = fj::format_output(pattern, cut);
    const std::string bytes = fj::test::read_file(cut_path);
    fj::test::write_file(cut_path, bytes.substr(0, bytes.size() / 2));

    std::set<long long> missing;
    for (long long f = 0; f <= 39; ++f)
        if (!before.count(f) || f == cut) missing.insert(f);
    const auto resumed = run_command(command + " --resume");
    REQUIRE_MESSAGE(resumed.status == 0, resumed.output);
    CHECK(rendered_frames(resumed.output) == missing);
    CHECK(complete_frames(pattern, 0, 39, 64, 48).size() == 40);
    // Nothing left to do: a second resume renders nothing.
    const auto again = run_command(command + " --resume");
    CHECK(again.status == 0);
    CHECK(rendered_frames(again.output).empty());
}

TEST_CASE("animate: --help describes the command and the top-level usage lists it") {
    const auto help = run_command(flamejit() + " animate --help");
    CHECK(help.status == 0);
    CHECK(help.output.find("usage: flamejit animate") != std::string::npos);
    const auto top = run_command(flamejit() + " --help");
    CHECK(top.output.find("animate") != std::string::npos);
}

TEST_CASE("animate: bad sequences and ranges exit 2 with one line and write nothing") {
    const std::string dir = fj::test::scratch_dir("animate-bad");
    const std::string body = R"(<xform weight="1" linear="1"/><color index="0" rgb="255 0 0"/>)";
    auto flame = [&](const std::string& time, const std::string& inner) {
        return "<flame time=\"" + time + "\" size=\"16 12\" temporal_samples=\"2\">" + inner + "</flame>";
    };
    std::string many;
    for (int i = 0; i < 255; ++i) many += R"(<xform weight="1" linear="1"/>)";
    struct Case {
        std::string name;
        std::string genome;
        std::string args;
        std::string names;  // what the message must name: the genome file, or the argument
    };
    const std::string good = "<s>" + flame("0", body) + flame("4", body) + "</s>";
    const std::vector<Case> cases = {
        {"out-of-order", "<s>" + flame("3", body) + flame("1", body) + "</s>", "--frames 0:2",
         "out-of-order.flam3: flame 1"},
        {"same-time", "<s>" + flame("1", body) + flame("1", body) + "</s>", "--frames 0:2", "same-time.flam3: flame 1"},
        {"unpaddable", "<s>" + flame("0", body) + flame("1", many) + "</s>", "--frames 0:1",
         "unpaddable.flam3: flame 1"},
        {"no-xforms", "<s>" + flame("0", body) + flame("1", "") + "</s>", "--frames 0:1", "no-xforms.flam3: flame 1"},
        {"empty-range", good, "--frames 3:1", "--frames \"3:1\""},
        {"zero-step", good, "--frames 1:3:0", "--frames \"1:3:0\""},
        {"bad-range", good, "--frames 1..3", "--frames \"1..3\""},
        {"bad-shard", good, "--frames 0:3 --shard 2/2", "--shard \"2/2\""},
        {"bad-pattern", good, "--frames 0:3 -o " + quoted(dir + "/frame.png"), "output pattern"},
        {"bad-temporal", good, "--frames 0:3 --temporal-samples 0", "--temporal-samples"},
        {"devices-on-cpu", good, "--frames 0:3 --devices 0", "--devices"},
        {"bad-accumulate", good, "--frames 0:3 --accumulate lossy", "--accumulate"},
        {"not-a-genome", "hello", "--frames 0:3", "not-a-genome.flam3: line 1"},
        // Found while planning a frame, which names only the time.
        {"bad-camera", R"(<s><flame time="0" size="16 12" temporal_samples="2" scale="-5">)" + body + "</flame>" +
                           flame("4", body) + "</s>",
         "--frames 0:1", "bad-camera.flam3: at time 0"},
    };
    for (const auto& c : cases) {
        CAPTURE(c.name);
        const std::string path = dir + "/" + c.name + ".flam3";
        fj::test::write_file(path, c.genome);
        const std::string args = c.args.find(" -o ") == std::string::npos ? c.args + " -o " + quoted(dir + "/out%05d.png")
                                                                          : c.args;
        const auto r = run_command(flamejit() + " animate " + quoted(path) + " " + args + " --backend cpu");
        CHECK(r.status == 2);
        // One error line (the job line comes first where the range was taken).
        const bool job_line = r.output.find(" frames in this job") != std::string::npos;
        CHECK_MESSAGE(std::count(r.output.begin(), r.output.end(), '\n') == (job_line ? 2 : 1), r.output);
        CHECK_MESSAGE((!c.names.empty() && r.output.find(c.names) != std::string::npos), r.output);
    }
    // Kernel options are accepted as render accepts them.
    const std::string ok_dir = fj::test::scratch_dir("animate-accumulate");
    const auto ok = run_command(flamejit() + " animate " + quoted(dir + "/empty-range.flam3") +
                                " --frames 0:1 --accumulate packed --backend cpu -o " + quoted(ok_dir + "/f%02d.png"));
    CHECK_MESSAGE(ok.status == 0, ok.output);
    CHECK(fj::test::file_exists(ok_dir + "/f01.png"));
    bool wrote = false;
    for (const auto& entry : std::filesystem::directory_iterator(dir))
        wrote = wrote || entry.path().extension() == ".png";
    CHECK_FALSE(wrote);
}
