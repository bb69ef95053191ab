// flamejit — tests of the iteration pieces both backends share (iterate/common.h).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3's chains (rect.c iter_thread, flam3_iterate): a random start, 15
// unplotted steps, 10000 plotted ones, then a fresh start; bad values retried
// four times and plotted the fifth. The last test checks that lanes which
// all run the same rounds, with the share of fresh first chains the backends
// use, plot young chain points as often as flam3 does.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "iterate/common.h"

namespace {

// One point driven through `steps` good steps; returns what it plotted and
// where its chains began (the step index at which each chain plotted first,
// and how many unplotted steps that chain had before).
struct ChainTrace {
    int plotted = 0;
    std::vector<int> first_plot_step;
    std::vector<int> unplotted_before;
    std::vector<float> start_x;  // the point each chain started from
};

ChainTrace run_point(int state, int steps, unsigned long long seed, int fuse = FJ_FUSE) {
    fj::Rng rng = fj::make_rng(seed, 0);
    float x = 0.25f, y = -0.5f, c = 0.5f;
    unsigned long long bad = 0;
    ChainTrace t;
    int unplotted = 0;
    bool in_plot = false;
    t.start_x.push_back(x);
    for (int s = 0; s < steps; ++s) {
        x = 0.5f * x + 0.1f;  // a contraction: never a bad value
        y = 0.5f * y;
        if (fj::settle_point(x, y, state, 0, rng, bad)) {
            if (!in_plot) {
                t.first_plot_step.push_back(s);
                t.unplotted_before.push_back(unplotted);
                in_plot = true;
            }
            ++t.plotted;
        } else {
            CHECK_FALSE(in_plot);  // a chain never stops plotting before it ends
            ++unplotted;
        }
        const int before = fj::state_left(state);
        fj::end_chain_if_done(x, y, c, state, rng, fuse);
        if (before == 0) {
            CHECK(fj::state_last(state) == 0);  // a new chain selects from row 0, as flam3's
            in_plot = false;
            unplotted = 0;
            t.start_x.push_back(x);
        }
    }
    return t;
}

}  // namespace

TEST_CASE("chains: a fresh chain plots after 15 steps, plots 10000 samples, then restarts at a random point") {
    const ChainTrace t = run_point(fj::first_chain_state(0.0f, 1.0f, FJ_FUSE), 3 * (FJ_FUSE + FJ_CHAIN) + FJ_FUSE + 5, 1);
    REQUIRE(t.first_plot_step.size() == 4);
    for (size_t i = 0; i < t.first_plot_step.size(); ++i) {
        CAPTURE(i);
        CHECK(t.unplotted_before[i] == FJ_FUSE);
        CHECK(t.first_plot_step[i] == static_cast<int>(i) * (FJ_FUSE + FJ_CHAIN) + FJ_FUSE);
    }
    CHECK(t.plotted == 3 * FJ_CHAIN + 5);
    // The restarts drew new points in [-1, 1] (not the contraction's fixed point 0.2).
    REQUIRE(t.start_x.size() == 4);
    for (size_t i = 1; i < t.start_x.size(); ++i) {
        CHECK(std::fabs(t.start_x[i]) <= 1.0f);
        CHECK(std::fabs(t.start_x[i] - 0.2f) > 1e-6f);
    }
    CHECK(FJ_FUSE == 15);      // flam3 rect.c FUSE_27
    CHECK(FJ_CHAIN == 10000);  // flam3 sub_batch_size default
}

TEST_CASE("chains: a settled first chain runs FJ_SETTLE more unplotted steps; later chains are fresh") {
    const ChainTrace t = run_point(fj::first_chain_state(0.9f, 0.5f, FJ_FUSE), 2 * (FJ_FUSE + FJ_CHAIN) + FJ_SETTLE, 2);
    REQUIRE(t.unplotted_before.size() == 2);
    CHECK(t.unplotted_before[0] == FJ_FUSE + FJ_SETTLE);
    CHECK(t.unplotted_before[1] == FJ_FUSE);
    CHECK(t.plotted == 2 * FJ_CHAIN);
}

TEST_CASE("chains: under early clip every chain, first and later, runs flam3's 100-step fuse") {
    CHECK(FJ_FUSE_EARLYCLIP == 100);  // flam3 rect.c FUSE_28
    const int fuse = FJ_FUSE_EARLYCLIP;
    const ChainTrace t = run_point(fj::first_chain_state(0.0f, 1.0f, fuse), 2 * (fuse + FJ_CHAIN) + fuse + 3, 6, fuse);
    REQUIRE(t.first_plot_step.size() == 3);
    for (size_t i = 0; i < t.first_plot_step.size(); ++i) {
        CAPTURE(i);
        CHECK(t.unplotted_before[i] == fuse);
        CHECK(t.first_plot_step[i] == static_cast<int>(i) * (fuse + FJ_CHAIN) + fuse);
    }
    CHECK(t.plotted == 2 * FJ_CHAIN + 3);
    // A lane's rounds count the longer fuse once per chain.
    CHECK(fj::fresh_lane_rounds(25000.0f, fuse) - fj::fresh_lane_rounds(25000.0f, FJ_FUSE) ==
          doctest::Approx(3 * (fuse - FJ_FUSE)));
}

TEST_CASE("bad values: four in a row are retried without a plot, the fifth is plotted (flam3_iterate)") {
    fj::Rng rng = fj::make_rng(3, 0);
    int state = fj::point_state(FJ_CHAIN, 0, 3);  // past the fuse, last xform 2
    unsigned long long bad = 0;
    for (int i = 0; i < 4; ++i) {
        float x = NAN, y = 0.0f;
        CHECK_FALSE(fj::settle_point(x, y, state, 7, rng, bad));
        CHECK(std::fabs(x) <= 1.0f);  // replaced by a random point
        CHECK(fj::state_last(state) == 3);  // the retry keeps the previous xform's row
        CHECK(fj::state_left(state) == FJ_CHAIN);  // and does not count as a step
    }
    float x = 2e10f, y = 0.0f;
    CHECK(fj::settle_point(x, y, state, 7, rng, bad));
    CHECK(std::fabs(x) <= 1.0f);
    CHECK(fj::state_last(state) == 8);
    CHECK(bad == 5);
    // A good value resets the run of bad ones.
    x = 0.5f;
    CHECK(fj::settle_point(x, y, state, 1, rng, bad));
    CHECK(((state >> 8) & 7) == 0);
}

TEST_CASE("chains: with the fresh share, lanes of equal rounds plot young chain points as often as flam3") {
    // flam3 starts one chain per FJ_CHAIN plotted samples; every chain start
    // is young (plots from age 0). Lanes here all run fresh_lane_rounds(m)
    // rounds; a share fresh_chain_fraction(m) of them start fresh.
    for (double mean : {1500.0, 3000.0, 6000.0, 9000.0, 12448.0, 25000.0, 100000.0}) {
        CAPTURE(mean);
        const float share = fj::fresh_chain_fraction(static_cast<float>(mean));
        const int rounds = static_cast<int>(std::ceil(fj::fresh_lane_rounds(static_cast<float>(mean), FJ_FUSE)));
        const ChainTrace fresh = run_point(fj::first_chain_state(0.0f, 1.0f, FJ_FUSE), rounds, 4);
        const ChainTrace settled = run_point(fj::first_chain_state(1.0f, 0.0f, FJ_FUSE), rounds, 5);
        auto young_starts = [](const ChainTrace& t) {
            int n = 0;
            for (int u : t.unplotted_before) n += u == FJ_FUSE;
            return n;
        };
        const double plotted = share * fresh.plotted + (1 - share) * settled.plotted;
        const double young = share * young_starts(fresh) + (1 - share) * young_starts(settled);
        CHECK(plotted == doctest::Approx(mean).epsilon(0.02));
        // flam3's share of young points: one chain start per FJ_CHAIN samples.
        CHECK(young / plotted == doctest::Approx(1.0 / FJ_CHAIN).epsilon(0.02));
    }
    // Lanes too short to settle are all fresh.
    CHECK(fj::fresh_chain_fraction(FJ_SETTLE * 0.5f) == 1.0f);
}
