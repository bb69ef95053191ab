// SPDX-License-Identifier: GPL-3.0-or-later
// Shuffle strategies: the simulated trajectory statistics against the
// analytic model, each strategy's render against flam3, and the exchange
// doing what it is for on a genome whose warps converge.
#include <doctest/doctest.h>

#include <cmath>

#include "analysis/shuffle_simulation.h"
#include "codegen/param_layout.h"
#include "genome/flam3_reader.h"
#include "image/fidelity.h"
#include "image/png_io.h"
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
