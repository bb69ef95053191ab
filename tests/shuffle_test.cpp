// SPDX-License-Identifier: GPL-3.0-or-later
// Shuffle strategies: the simulated trajectory statistics against the
// analytic model, each strategy's render against flam3, the exchange
// doing what it is for on a genome whose warps converge, and what
// --shuffle auto chooses.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "analysis/shuffle_simulation.h"
#include "codegen/param_layout.h"
#include "genome/flam3_reader.h"
#include "genome/flam3_writer.h"
#include "genome/interpolate.h"
#include "image/fidelity.h"
#include "image/png_io.h"
#include "pipeline/frame_structure.h"
#include "pipeline/renderer.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

using fj::test::quoted;

double mean_abs_difference(const fj::ImageF& a, const fj::ImageF& b) {
    double sum = 0;
    for (size_t i = 0; i < a.rgba.size(); ++i)
        if (i % 4 != 3) sum += std::abs(std::clamp(a.rgba[i], 0.0f, 255.0f) - std::clamp(b.rgba[i], 0.0f, 255.0f));
    return sum / (a.rgba.size() / 4 * 3);
}

}  // namespace

TEST_CASE("shuffle simulation: probabilities of identical subsequences follow the model") {
    using S = fj::SimulatedStrategy;
    for (int block : {256, 512})
        for (S s : {S::Divergent, S::None, S::Full, S::Ring, S::Sorted}) {
            fj::ShuffleSimulationConfig c;
            c.strategy = s;
            c.block = block;
            c.blocks = 32;
            c.rounds = 100;
            const fj::ShuffleSimulationResult r = fj::simulate_shuffle(c);
            // Exact formulas (1), (2), (4) within 10%; the ring's approximate (3) within 25%.
            const double tolerance = s == S::Ring ? 0.25 : 0.10;
            for (int i = 0; i < 3; ++i) {  // l = 1, 2, 4
                const int l = fj::kSubsequenceLengths[i];
                const double model = fj::model_p_identical(s, 8, 32, block, l);
                CAPTURE(fj::to_string(s));
                CAPTURE(block);
                CAPTURE(l);
                CHECK(r.p_identical[i] == doctest::Approx(model).epsilon(tolerance));
            }
            if (s != S::None) CHECK(r.distinct_trajectories == 1.0);
            // Xform runs per warp and round: one under warp-uniform
            // selection; per-thread draws of 8 equal xforms on 32 lanes
            // give 8(1 - (7/8)^32) distinct ones; sorted, a warp runs a
            // second xform only where one xform's run of slots ends inside
            // it, at most 7 times a round over the block's warps.
            const double warps = block / 32.0;
            if (s == S::Divergent)
                CHECK(r.xforms_per_warp == doctest::Approx(8 * (1 - std::pow(7.0 / 8, 32))).epsilon(0.01));
            else if (s == S::Sorted) CHECK(r.xforms_per_warp <= 1 + 7 / warps);
            else CHECK(r.xforms_per_warp == 1.0);
        }
}

TEST_CASE("shuffle simulation: a fixed ring offset locks lanes together, the varied one does not") {
    fj::ShuffleSimulationConfig c;
    c.blocks = 8;
    c.rounds = 64;
    c.strategy = fj::SimulatedStrategy::RingFixedOffset;
    // 8 warps of 32: lanes equal modulo 8 share an offset and never part.
    CHECK(fj::simulate_shuffle(c).distinct_trajectories == doctest::Approx(0.25));
    c.strategy = fj::SimulatedStrategy::Ring;
    CHECK(fj::simulate_shuffle(c).distinct_trajectories == 1.0);
    c.strategy = fj::SimulatedStrategy::None;
    CHECK(fj::simulate_shuffle(c).distinct_trajectories == doctest::Approx(1.0 / 32));
}

TEST_CASE("shuffle: on converging warps, no exchange is measurably worse than the ring at equal samples") {
    // Three half-size linear maps (the Sierpinski triangle): the lanes of a
    // warp that share every xform meet within ~24 rounds. Density estimation
    // is off so the error measures sampling noise, not DE's kernel choice.
    const std::string xml = fj::test::read_file(fj::test::source_path("benchmarks/genomes/linear3.flam3"));
    fj::Flame flame = fj::read_flam3_string(fj::test::reduced_genome(xml, 1.0 / 6, 10), "linear3.flam3").at(0);
    flame.estimator_radius = 0;
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Cpu;
    options.threads = 2;
    options.seed = 5;
    options.kernel.shuffle = fj::Shuffle::Divergent;
    options.quality = 400;
    const fj::ImageF reference = fj::Renderer(options).render(flame).image;
    options.quality = 10;
    double error[2];
    const fj::Shuffle strategies[2] = {fj::Shuffle::None, fj::Shuffle::Ring};
    for (int i = 0; i < 2; ++i) {
        options.kernel.shuffle = strategies[i];
        options.seed = 6 + i;
        error[i] = mean_abs_difference(fj::Renderer(options).render(flame).image, reference);
    }
    MESSAGE("error against the reference at quality 10: none " << error[0] << ", ring " << error[1]);
    CHECK(error[0] > 2 * error[1]);
}

TEST_CASE("shuffle: every strategy renders a corpus genome as flam3 does (fidelity ratio <= 1.3)") {
    if (!fj::test::flam3_render_present()) return;
    const std::string dir = fj::test::scratch_dir("shuffle-fidelity");
    const std::string g = dir + "/sheep.flam3";
    fj::test::write_file(g, fj::test::reduced_genome(fj::test::read_file(fj::test::corpus_path("electric-sheep/electricsheep.244.00216.flam3")),
                                    0.3, 150));
    for (const char* s : {"A", "B"}) {
        const auto ref = run_command("env in=" + quoted(g) + " out=" + quoted(dir + "/" + s + ".png") + " isaac_seed=ref" + s +
                                     " nthreads=2 verbose=0 flam3-render");
        REQUIRE_MESSAGE(ref.status == 0, ref.output);
    }
    const fj::PngImage a = fj::read_png(dir + "/A.png"), b = fj::read_png(dir + "/B.png");
    int seed = 20;
    for (const char* strategy : {"none", "ring", "full", "divergent", "sorted"}) {
        const std::string c = dir + "/" + strategy + ".png";
        const auto ours = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(g) + " -o " + quoted(c) +
                                      " --backend cpu --threads 2 --seed " + std::to_string(seed++) + " --shuffle " + strategy);
        CHECK_MESSAGE(ours.status == 0, std::string(strategy) << ": " << ours.output);
        if (ours.status != 0) continue;
        const auto ratio = fj::fidelity_ratio(a, b, fj::read_png(c));
        MESSAGE(std::string(strategy) << ": fidelity ratio " << ratio.ratio);
        CHECK_MESSAGE(ratio.ratio <= 1.3, std::string(strategy));
    }
}

TEST_CASE("shuffle: lazy xaos selection leaves 1 - 1/M of the lane-rounds past the fuse idle, at any size") {
    // A lane moves with probability 1/M each round (README, "Xaos without
    // divergence"), so that is the idle share of the rounds that could plot,
    // however large the fuse's part of a small render is.
    const std::string xml = fj::test::read_file(fj::test::source_path("benchmarks/genomes/xaos.flam3"));
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Cpu;
    options.threads = 2;
    options.seed = 3;
    for (const double factor : {0.05, 0.25}) {
        CAPTURE(factor);
        const fj::Flame flame = fj::read_flam3_string(fj::test::reduced_genome(xml, factor, 2), "xaos.flam3").at(0);
        const double expected = 1 - 1 / fj::xaos_proposal_mass(flame);
        const fj::IterationStats stats = fj::Renderer(options).render(flame).stats;
        const double idle = static_cast<double>(stats.idle_lane_rounds);
        const double share = idle / (idle + static_cast<double>(stats.samples));
        MESSAGE(stats.samples << " samples: idle share " << share << ", 1 - 1/M = " << expected);
        CHECK(share == doctest::Approx(expected).epsilon(0.02));
    }
}

namespace {

// Xforms of equal weight, each halving the way to its own point of the unit
// circle; `chaos` rows as flam3 writes them (empty: no xaos).
fj::Flame flame_with_rows(int xforms, const std::vector<std::string>& chaos) {
    std::string xml = "<flame size=\"64 48\" scale=\"20\" quality=\"20\">";
    for (int i = 0; i < xforms; ++i) {
        const double angle = 6.283185307179586 * i / xforms;
        xml += "<xform weight=\"1\" color=\"" + std::to_string(double(i) / xforms) + "\" linear=\"1\" coefs=\"0.5 0 0 0.5 " +
               std::to_string(std::cos(angle)) + " " + std::to_string(std::sin(angle)) + "\"" +
               (chaos.empty() ? "" : " chaos=\"" + chaos[i] + "\"") + "/>";
    }
    xml += "</flame>";
    return fj::read_flam3_string(xml, "rows.flam3").at(0);
}

fj::Shuffle auto_shuffle(const fj::Flame& flame, int block = 256) {
    fj::FrameOptions options;
    options.kernel.sort_idle_frames = true;
    options.kernel.block_size = block;
    return fj::prepare_still(flame, options).key.shuffle;
}

}  // namespace

TEST_CASE("shuffle: auto sorts a frame whose lazy selection would idle a third of its lanes or more, else keeps the ring") {
    using fj::Shuffle;
    // Each xform leads only to the next: every row draws one xform, so each
    // m(k) is 1, M = 3 and two lanes in three would stay put.
    const fj::Flame cycle = flame_with_rows(3, {"0 1 0", "0 0 1", "1 0 0"});
    CHECK(fj::xaos_proposal_mass(cycle) == doctest::Approx(3));
    CHECK(auto_shuffle(cycle) == Shuffle::Sorted);
    // Two xforms that mostly repeat themselves (x after the other): each m
    // is 1/(1 + x), so M = 2/(1 + x), and 1 - 1/M = (1 - x)/2 falls below
    // kSortFromIdle (a third) as x passes 1/3.
    const fj::Flame below = flame_with_rows(2, {"1 0.36", "0.36 1"}), above = flame_with_rows(2, {"1 0.3", "0.3 1"});
    CHECK(1 - 1 / fj::xaos_proposal_mass(below) == doctest::Approx(0.32).epsilon(0.001));
    CHECK(1 - 1 / fj::xaos_proposal_mass(above) == doctest::Approx(0.35).epsilon(0.001));
    CHECK(auto_shuffle(below) == Shuffle::Ring);
    CHECK(auto_shuffle(above) == Shuffle::Sorted);
    // A row that only halves one xform's weight: m = (0.4, 0.4, 1/3), M 1.13.
    const fj::Flame mild = flame_with_rows(3, {"1 1 0.5", "1 1 1", "1 1 1"});
    CHECK(fj::xaos_proposal_mass(mild) == doctest::Approx(1.1333).epsilon(0.001));
    CHECK(auto_shuffle(mild) == Shuffle::Ring);
    // No xaos and no rare xform: nothing idles.
    CHECK(auto_shuffle(flame_with_rows(4, {})) == Shuffle::Ring);
    // 48 xforms of equal weight, each drawn with probability 1/48, below
    // kSpreadBelow: raised to 1/16 each, M = 3.
    CHECK(auto_shuffle(flame_with_rows(48, {})) == Shuffle::Sorted);
    // A rare xform that idles a few lanes: 1/201 raised to 1/16, M 1.06.
    fj::Flame rare = flame_with_rows(2, {});
    rare.xforms[1].weight = 0.005;
    CHECK(fj::has_rare_xform(rare));
    CHECK(auto_shuffle(rare) == Shuffle::Ring);
    fj::FrameOptions spread;
    spread.kernel.sort_idle_frames = true;
    CHECK(fj::prepare_still(rare, spread).key.xaos);  // still spread over the lanes
    // 254 xforms would idle 15 lanes in 16, but the sort's tables for them in
    // blocks of 1024 do not fit in shared memory: the ring.
    REQUIRE(fj::sorted_shared_bytes(254, 1024) > fj::kMaxStaticShared);
    CHECK(auto_shuffle(flame_with_rows(254, {}), 1024) == Shuffle::Ring);
    CHECK(auto_shuffle(flame_with_rows(254, {}), 128) == Shuffle::Sorted);
    // Only a ring asked for as auto changes.
    fj::FrameOptions asked;
    CHECK(fj::prepare_still(cycle, asked).key.shuffle == Shuffle::Ring);
    asked.kernel.sort_idle_frames = true;
    asked.kernel.shuffle = Shuffle::None;
    CHECK(fj::prepare_still(cycle, asked).key.shuffle == Shuffle::None);
}

TEST_CASE("shuffle: auto decides an animation's frames per keyframe segment, so a segment's frames share a kernel") {
    using fj::Shuffle;
    // Keyframe 0 cycles (M = 3), keyframes 1 and 2 have no xaos: frames in
    // segment 0 are sorted however far their interpolated rows have relaxed,
    // frames in segment 1 keep the ring.
    std::vector<fj::Flame> keys = {flame_with_rows(3, {"0 1 0", "0 0 1", "1 0 0"}), flame_with_rows(3, {}),
                                   flame_with_rows(3, {})};
    for (int i = 0; i < 3; ++i) keys[i].time = 4.0 * i;
    keys[2].xforms[0].affine.c = 0.3;
    fj::FrameOptions options;
    options.temporal_samples = 1;
    options.kernel.sort_idle_frames = true;
    for (double t : {0.0, 2.0, 3.9}) {
        CAPTURE(t);
        CHECK(fj::prepare_animation_frame(keys, t, options).key.shuffle == Shuffle::Sorted);
    }
    // The reason it is decided per segment: this frame's own rows would keep the ring.
    CHECK(1 - 1 / fj::xaos_proposal_mass(fj::interpolate(keys, 3.9)) < fj::kSortFromIdle);
    for (double t : {4.1, 6.0, 8.0}) {
        CAPTURE(t);
        CHECK(fj::prepare_animation_frame(keys, t, options).key.shuffle == Shuffle::Ring);
    }
    // A motion-blurred frame whose time steps reach back into segment 0.
    options.temporal_samples = 8;
    CHECK(fj::prepare_animation_frame(keys, 4.1, options).key.shuffle == Shuffle::Sorted);
}

TEST_CASE("shuffle: render --shuffle auto on the CPU backend makes sorted's image where it sorts, ring's elsewhere") {
    const std::string dir = fj::test::scratch_dir("shuffle-auto");
    struct Case {
        const char* name;
        std::vector<std::string> chaos;
        const char* made;
    };
    for (const Case& c : {Case{"cycle", {"0 1 0", "0 0 1", "1 0 0"}, "sorted"}, Case{"mild", {"1 1 0.5", "1 1 1", "1 1 1"}, "ring"}}) {
        CAPTURE(c.name);
        const std::string genome = dir + "/" + c.name + ".flam3";
        fj::test::write_file(genome, fj::write_flam3_string(flame_with_rows(3, c.chaos)));
        const std::string base = quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) +
                                 " --backend cpu --threads 2 --seed 5 --sidecar -o ";
        const auto chosen = run_command(base + quoted(dir + "/auto.png"));
        REQUIRE_MESSAGE(chosen.status == 0, chosen.output);
        // The cycle's ring would idle two lanes in three (M = 3).
        CHECK((chosen.output.find("sorted exchange (--shuffle auto): the ring's lazy selection would leave 66.7 % of "
                                  "lane-rounds idle") != std::string::npos) == (std::string(c.made) == "sorted"));
        const auto asked = run_command(base + quoted(dir + "/asked.png") + " --shuffle " + c.made);
        REQUIRE_MESSAGE(asked.status == 0, asked.output);
        CHECK(fj::read_png(dir + "/auto.png").rgba == fj::read_png(dir + "/asked.png").rgba);
        const std::string sidecar = fj::test::read_file(dir + "/auto.png.json");
        CHECK(sidecar.find("\"shuffle\": \"auto\"") != std::string::npos);
        CHECK(sidecar.find(std::string("\"flamejit_shuffle\": \"") + c.made + "\"") != std::string::npos);
    }
}
