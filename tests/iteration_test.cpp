// flamejit — tests of the iteration pieces both backends share (iterate/common.h).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3's chains (rect.c iter_thread, flam3_iterate): a random start, 15
// unplotted steps, 10000 plotted ones, then a fresh start; bad values retried
// four times and plotted the fifth. The last test checks that lanes which
// all run the same rounds, with the share of fresh first chains the backends
// use, plot young chain points as often as flam3 does. The packed-word tests
// replay --accumulate packed's protocol against plain per-channel sums.
#include <doctest/doctest.h>

#include <array>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "codegen/param_layout.h"
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
    const float share = fj::fresh_chain_fraction(25000.0f);
    CHECK(fj::fresh_lane_rounds(25000.0f, share, fuse) - fj::fresh_lane_rounds(25000.0f, share, FJ_FUSE) ==
          doctest::Approx(3 * (fuse - FJ_FUSE)));
}

TEST_CASE("bad values: four in a row are retried without a plot, the fifth is plotted (flam3_iterate)") {
    fj::Rng rng = fj::make_rng(3, 0);
    int state = fj::point_state(FJ_CHAIN, 0, 3, 0);  // past the fuse, last xform 2
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
    CHECK(fj::state_bad(state) == 0);
}

TEST_CASE("young points: a fresh chain's point is young for FJ_YOUNG steps, a settled one's never") {
    // Young through the fuse and some plotted steps more (it then chooses
    // its own xform under warp-uniform selection); a bad value's retry is
    // no step and leaves it as it was.
    CHECK(FJ_YOUNG > FJ_FUSE + 32);
    fj::Rng rng = fj::make_rng(7, 0);
    unsigned long long bad = 0;
    int state = fj::first_chain_state(0.0f, 1.0f, FJ_FUSE);
    float x = 0.3f, y = 0.1f;
    for (int step = 0; step < FJ_YOUNG; ++step) {
        CAPTURE(step);
        REQUIRE(fj::is_young(state));
        if (step == FJ_FUSE + 3) {
            float nx = NAN, ny = 0.0f;
            CHECK_FALSE(fj::settle_point(nx, ny, state, 2, rng, bad));
            CHECK(fj::state_young(state) == FJ_YOUNG - step);
        }
        fj::settle_point(x, y, state, 1, rng, bad);
    }
    CHECK_FALSE(fj::is_young(state));
    CHECK(fj::state_left(state) == FJ_CHAIN + FJ_FUSE - FJ_YOUNG);
    // No younger for further steps, a move to another time step, or a run of bad values.
    fj::settle_point(x, y, state, 1, rng, bad);
    CHECK_FALSE(fj::is_young(state));
    CHECK_FALSE(fj::is_young(fj::refuse_state(state, FJ_FUSE)));
    float nx = NAN, ny = 0.0f;
    fj::settle_point(nx, ny, state, 1, rng, bad);
    CHECK_FALSE(fj::is_young(state));
    // The chain's end starts a young one; a settled first chain is old, and a
    // young point that moves to another time step stays young.
    state = fj::point_state(0, 0, 2, 0);
    float c = 0.5f;
    fj::end_chain_if_done(x, y, c, state, rng, FJ_FUSE);
    CHECK(fj::state_young(state) == FJ_YOUNG);
    CHECK(fj::state_young(fj::refuse_state(state, FJ_FUSE)) == FJ_YOUNG);
    CHECK_FALSE(fj::is_young(fj::first_chain_state(1.0f, 0.0f, FJ_FUSE)));
}

TEST_CASE("chains: with the fresh share, lanes of equal rounds plot young chain points as often as flam3") {
    // flam3 starts one chain per FJ_CHAIN plotted samples; every chain start
    // is young (plots from age 0). Lanes here all run fresh_lane_rounds(m)
    // rounds; a share fresh_chain_fraction(m) of them start fresh. Short
    // lanes too: a large GPU's pool gives a small frame a few samples per
    // lane, and lanes all fresh would then plot young points only.
    for (double mean : {20.0, 300.0, 900.0, 1500.0, 3000.0, 6000.0, 9000.0, 12448.0, 25000.0, 100000.0}) {
        CAPTURE(mean);
        const float share = fj::fresh_chain_fraction(static_cast<float>(mean));
        const int rounds =
            static_cast<int>(std::ceil(fj::fresh_lane_rounds(static_cast<float>(mean), share, FJ_FUSE)));
        const ChainTrace fresh = run_point(fj::first_chain_state(0.0f, 1.0f, FJ_FUSE), rounds, 4);
        const ChainTrace settled = run_point(fj::first_chain_state(1.0f, 0.0f, FJ_FUSE), rounds, 5);
        auto young_starts = [](const ChainTrace& t) {
            int n = 0;
            for (int u : t.unplotted_before) n += u == FJ_FUSE;
            return n;
        };
        const double plotted = share * fresh.plotted + (1 - share) * settled.plotted;
        const double young = share * young_starts(fresh) + (1 - share) * young_starts(settled);
        // Lanes run whole rounds: one more than the mean needs, at most.
        CHECK(std::abs(plotted - mean) <= std::max(0.02 * mean, 1.0));
        // flam3's share of young points: one chain start per FJ_CHAIN samples.
        CHECK(young / plotted == doctest::Approx(1.0 / FJ_CHAIN).epsilon(0.02));
    }
}

TEST_CASE("chains: rounds through a frame's calls follow the plotted samples, settling first") {
    // 2 % of the lanes fresh: they plot alone until the others have settled.
    const float share = 0.02f;
    CHECK(fj::fresh_lane_rounds(0.0f, share, FJ_FUSE) == 0.0f);
    CHECK(fj::fresh_lane_rounds(10.0f, share, FJ_FUSE) == doctest::Approx(500 + FJ_FUSE));
    CHECK(fj::fresh_lane_rounds(20.0f, share, FJ_FUSE) == doctest::Approx(FJ_SETTLE + FJ_FUSE));
    CHECK(fj::fresh_lane_rounds(120.0f, share, FJ_FUSE) == doctest::Approx(FJ_SETTLE + 100 + FJ_FUSE));
    // With no fresh lane every plotted sample waits for the settling.
    CHECK(fj::fresh_lane_rounds(5.0f, 0.0f, FJ_FUSE) == doctest::Approx(FJ_SETTLE + 5 + FJ_FUSE));
}

TEST_CASE("time steps: blocks' stretches tile a call's samples, and steps are found along them") {
    // Stretches meet end to end and cover the line exactly, even sizes apart
    // by at most one, for any block count, including more blocks than samples.
    for (fj::u64 total : {fj::u64{1}, fj::u64{7}, fj::u64{1000}, fj::u64{123456789}, fj::u64{1} << 40})
        for (fj::u64 blocks : {1, 2, 3, 7, 528, 1056}) {
            CAPTURE(total);
            CAPTURE(blocks);
            CHECK(fj::block_span_start(0, blocks, total) == 0);
            CHECK(fj::block_span_start(blocks, blocks, total) == total);
            fj::u64 smallest = total, largest = 0;
            for (fj::u64 b = 0; b < blocks; ++b) {
                const fj::u64 size = fj::block_span_start(b + 1, blocks, total) - fj::block_span_start(b, blocks, total);
                smallest = std::min(smallest, size);
                largest = std::max(largest, size);
            }
            CHECK(largest - smallest <= 1);
        }
    // Steps ending at 10, 10 (an empty one), 25 and 40.
    const fj::u64 ends[] = {10, 10, 25, 40};
    CHECK(fj::step_at(ends, 4, 0, -1) == 0);
    CHECK(fj::step_at(ends, 4, 9, 0) == 0);
    CHECK(fj::step_at(ends, 4, 10, 0) == 2);
    CHECK(fj::step_at(ends, 4, 24, 2) == 2);
    CHECK(fj::step_at(ends, 4, 25, 0) == 3);
    // Past the end (a block's last round overshoots): the last step.
    CHECK(fj::step_at(ends, 4, 40, 3) == 3);
    CHECK(fj::step_at(ends, 1, 1000, 0) == 0);
}

TEST_CASE("time steps: a point moving to another step runs a fuse before it plots again") {
    // Mid-chain: FJ_FUSE unplotted steps, then a whole chain.
    const int mid = fj::point_state(4000, 2, 3, 0);
    const int moved = fj::refuse_state(mid, FJ_FUSE);
    CHECK(fj::state_left(moved) == FJ_CHAIN + FJ_FUSE);
    CHECK(fj::state_last(moved) == 3);
    CHECK(fj::state_bad(moved) == 2);
    // Still in its fuse or settling: no shorter, and no longer if already longer.
    const int settling = fj::first_chain_state(1.0f, 0.0f, FJ_FUSE);
    CHECK(fj::refuse_state(settling, FJ_FUSE) == settling);
    const int fusing = fj::point_state(FJ_CHAIN + 3, 0, 0, 0);
    CHECK(fj::state_left(fj::refuse_state(fusing, FJ_FUSE)) == FJ_CHAIN + FJ_FUSE);
    // The unplotted steps are taken, then the point plots where it is.
    fj::Rng rng = fj::make_rng(5, 0);
    int state = moved;
    float x = 0.1f, y = 0.2f;
    unsigned long long bad = 0;
    int unplotted = 0;
    while (!fj::settle_point(x, y, state, 1, rng, bad)) ++unplotted;
    CHECK(unplotted == FJ_FUSE);
    CHECK(fj::state_left(state) == FJ_CHAIN - 1);
    CHECK(x == 0.1f);
}

namespace {

// The packed word protocol of --accumulate packed on one cell, replayed on
// the host: hits land one after another; an adder that sees a field reach
// 2^15 exchanges the word for zero, but its exchange lands only after
// `delay` more adds (other threads' adds in flight). Returns the float sums
// that reach the grid and the carries the adders counted.
struct PackedReplay {
    double grid[4] = {0, 0, 0, 0};
    unsigned long long exact[4] = {0, 0, 0, 0};  // the reference: plain per-channel sums
    int carries = 0;
};

PackedReplay replay_packed(const std::vector<std::array<float, 4>>& hits, int delay) {
    PackedReplay r;
    fj::u64 word = 0;
    std::vector<int> exchanges_due;  // hit index after which an exchange lands
    auto exchange = [&] {
        for (int k = 0; k < 4; ++k) r.grid[k] += fj::packed_field(word, k);
        word = 0;
    };
    for (size_t i = 0; i < hits.size(); ++i) {
        const float* v = hits[i].data();
        for (int k = 0; k < 4; ++k) r.exact[k] += static_cast<unsigned long long>(v[k]);
        REQUIRE(fj::packed_fits(v));
        const fj::u64 add = fj::packed_word(v), before = word;
        word += add;
        if (fj::packed_needs_flush(before, add)) {
            r.carries += fj::packed_carries(before, add);
            exchanges_due.push_back(static_cast<int>(i) + delay);
        }
        while (!exchanges_due.empty() && exchanges_due.front() <= static_cast<int>(i)) {
            exchange();
            exchanges_due.erase(exchanges_due.begin());
        }
    }
    exchange();  // fj_packed_flush at the end of the frame
    return r;
}

}  // namespace

TEST_CASE("selection: a draw takes the xform whose entries of flam3's 16384-entry table it falls in, at any row length") {
    // Rows as the parameter block holds them: each xform owns a whole number
    // of the table's entries (none for weight 0), the row their running sums
    // over 16384, its last entry 1. A draw u falls in entry floor(16384 u),
    // which names its xform; short rows are counted without a branch on the
    // host, longer ones searched (iterate/common.h), and both must agree.
    uint32_t lcg = 12345;
    const auto next = [&lcg] { return (lcg = lcg * 1664525u + 1013904223u) >> 8; };
    for (int n = 1; n <= 40; ++n) {
        CAPTURE(n);
        for (int trial = 0; trial < 8; ++trial) {
            std::vector<int> entries(n, 0);
            int left = 16384;
            for (int k = 0; k + 1 < n; ++k) {
                const int share = next() % 4 == 0 ? 0 : static_cast<int>(next() % (left / 2 + 1));
                entries[k] = share;
                left -= share;
            }
            entries[n - 1] = left;
            if (trial == 0 && n > 1) std::swap(entries[0], entries[n - 1]);  // the last xform's weight 0
            std::vector<float> row(n);
            std::vector<int> owner;
            for (int k = 0, sum = 0; k < n; ++k) {
                sum += entries[k];
                row[k] = static_cast<float>(sum) / 16384.0f;
                owner.insert(owner.end(), entries[k], k);
            }
            row[n - 1] = 1.0f;
            REQUIRE(owner.size() == 16384u);
            for (int e = 0; e < 16384; ++e) {
                // The entry's first draw, one in its middle and its last.
                for (const float u : {e / 16384.0f, (e + 0.5f) / 16384.0f, std::nextafter((e + 1) / 16384.0f, 0.0f)}) {
                    if (fj::select_xform(row.data(), n, u) != owner[e]) {
                        FAIL_CHECK("entry " << e << ", u " << u << ": xform " << fj::select_xform(row.data(), n, u)
                                            << ", not " << owner[e]);
                        break;
                    }
                }
            }
        }
    }
}

TEST_CASE("packed words: hits of integers 0..255 pack into four exact fields; others take the float path") {
    fj::Rng rng = fj::make_rng(3, 0);
    for (int i = 0; i < 1000; ++i) {
        float v[4];
        for (float& x : v) x = static_cast<float>(fj::next_u32(rng) % 256u);
        REQUIRE(fj::packed_fits(v));
        for (int k = 0; k < 4; ++k) CHECK(fj::packed_field(fj::packed_word(v), k) == v[k]);
    }
    for (float bad : {256.0f, -1.0f, 1e9f, NAN}) {
        float v[4] = {1, 2, 3, 4};
        v[2] = bad;
        CHECK_FALSE(fj::packed_fits(v));
    }
    // The largest hit: visibility 1 × a palette entry of 255.
    float top[4];
    for (float& x : top) x = fj::hit_amount(1.0f, 255.0f);
    CHECK(fj::packed_fits(top));
}

TEST_CASE("packed words: exact while fewer than 128 adds land before the flush's exchange; the 128th carries, and is counted") {
    // Random opaque hits, then a run of maximal ones that pushes the word
    // past 2^15 while the exchange is in flight.
    fj::Rng rng = fj::make_rng(5, 0);
    std::vector<std::array<float, 4>> hits;
    for (int i = 0; i < 5000; ++i) {
        std::array<float, 4> h;
        for (int k = 0; k < 3; ++k) h[k] = static_cast<float>(fj::next_u32(rng) % 256u);
        h[3] = 255.0f;
        hits.push_back(h);
    }
    for (int i = 0; i < 400; ++i) hits.push_back({255.0f, 255.0f, 255.0f, 255.0f});
    for (int delay : {0, 1, 64, 127}) {
        CAPTURE(delay);
        const PackedReplay r = replay_packed(hits, delay);
        CHECK(r.carries == 0);
        for (int k = 0; k < 4; ++k) CHECK(r.grid[k] == static_cast<double>(r.exact[k]));
    }
    // The worst case: fields at 2^15 - 1 (128 maximal hits and one of 127),
    // then maximal hits. The crossing add leaves 33022; 127 more reach
    // 65407, the 128th would reach 65662 and carries.
    std::vector<std::array<float, 4>> worst(128, {255.0f, 255.0f, 255.0f, 255.0f});
    worst.push_back({127.0f, 127.0f, 127.0f, 127.0f});
    worst.resize(2000, {255.0f, 255.0f, 255.0f, 255.0f});
    const PackedReplay fits = replay_packed(worst, 127);
    CHECK(fits.carries == 0);
    for (int k = 0; k < 4; ++k) CHECK(fits.grid[k] == static_cast<double>(fits.exact[k]));
    const PackedReplay lost = replay_packed(worst, 128);
    CHECK(lost.carries > 0);
    double lost_total = 0, exact_total = 0;
    for (int k = 0; k < 4; ++k) lost_total += lost.grid[k], exact_total += static_cast<double>(lost.exact[k]);
    CHECK(lost_total != exact_total);
}

TEST_CASE("palette: colour coordinates far outside 0..1, and NaN, pick the end entries as the GPU's saturating cast does") {
    std::vector<float> palette(256 * 4);
    for (int i = 0; i < 256; ++i)
        for (int k = 0; k < 4; ++k) palette[4 * i + k] = static_cast<float>(i);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    struct Case {
        float c;
        int entry;       // the step palette's
        float linear;    // the linear palette's value
    };
    // 1e30 and -1e30 scale past int's range; 0.5 is the middle of entry 128.
    for (const Case& t : {Case{0.5f, 128, 128.0f}, Case{-0.01f, 0, 0.0f}, Case{1.0f, 255, 255.0f}, Case{3.0f, 255, 255.0f},
                          Case{1e30f, 255, 255.0f}, Case{-1e30f, 0, 0.0f}, Case{nan, 0, 0.0f},
                          Case{std::numeric_limits<float>::infinity(), 255, 255.0f}}) {
        CAPTURE(t.c);
        CHECK(fj::palette_entry(t.c) == t.entry);
        float step[4], linear[4];
        fj::palette_lookup(palette.data(), t.c, false, step);
        fj::palette_lookup(palette.data(), t.c, true, linear);
        CHECK(step[0] == static_cast<float>(t.entry));
        CHECK(linear[0] == doctest::Approx(t.linear));
    }
}

// flam3 finds a point's cell in double, (int)(ws0·x − wb0s0). A float sum
// with the camera's whole shift in it put the points within half a float
// ulp below a cell's edge on the edge; at a world axis, where points crowd,
// camera_xy keeps their side (tests/fidelity_suite_test.cpp has the image).
TEST_CASE("camera: a point just left of or above a world axis on a cell's edge stays in the cell before it") {
    // A centred frame of even size, with a gutter of 3: x = 0 is column
    // 103's left edge, y = 0 row 78's top edge (y grows downwards).
    const double world_to_cell[6] = {40, 0, 103, 0, -40, 78};
    float camera[fj::ParamLayout::kCameraSize];
    fj::pack_camera(world_to_cell, camera);
    int ix = -1, iy = -1;
    for (const float x : {-1e-3f, -1e-7f, -1e-9f, -1e-20f, -1e-40f}) {
        CAPTURE(x);
        CHECK(fj::camera_xy(camera, x, 0.25f, 206, 156, 0, ix, iy));
        CHECK(ix == 102);
        CHECK(iy == 68);
    }
    for (const float x : {0.0f, -0.0f, 1e-40f, 1e-9f}) {
        CAPTURE(x);
        CHECK(fj::camera_xy(camera, x, 0.25f, 206, 156, 0, ix, iy));
        CHECK(ix == 103);
    }
    CHECK(fj::camera_xy(camera, 0.3f, 1e-9f, 206, 156, 0, ix, iy));
    CHECK(iy == 77);
    CHECK(fj::camera_xy(camera, 0.3f, -1e-9f, 206, 156, 0, ix, iy));
    CHECK(iy == 78);
    // A strip's rows are the whole frame's, moved.
    CHECK(fj::camera_xy(camera, 0.3f, 1e-9f, 206, 10, 70, ix, iy));
    CHECK(iy == 7);
    CHECK_FALSE(fj::camera_xy(camera, 0.3f, 1e-9f, 206, 7, 70, ix, iy));
    CHECK_FALSE(fj::camera_xy(camera, 0.3f, -1e-9f, 206, 10, 79, ix, iy));
    // The histogram's own edges, and points far outside it or not numbers,
    // which must not reach a conversion.
    CHECK(fj::camera_xy(camera, -2.575f, 0.0f, 206, 156, 0, ix, iy));
    CHECK(ix == 0);
    CHECK_FALSE(fj::camera_xy(camera, std::nextafter(-2.575f, -3.0f), 0.0f, 206, 156, 0, ix, iy));
    CHECK_FALSE(fj::camera_xy(camera, 2.575f, 0.0f, 206, 156, 0, ix, iy));
    CHECK(fj::camera_xy(camera, std::nextafter(2.575f, 0.0f), 0.0f, 206, 156, 0, ix, iy));
    CHECK(ix == 205);
    const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
    for (const float far : {1e10f, -1e10f, 3e38f, -3e38f, inf, -inf, nan}) {
        CAPTURE(far);
        CHECK_FALSE(fj::camera_xy(camera, far, 0.0f, 206, 156, 0, ix, iy));
        CHECK(ix == 0);
        CHECK(iy == 0);
        CHECK_FALSE(fj::camera_xy(camera, 0.0f, far, 206, 156, 0, ix, iy));
    }
}

// pack_camera splits a shift below 2^23 only, so that the whole parts, a
// strip's row and the histogram's edges add exactly; a larger one stays in
// the sum (a picture that far out lies on floats coarser than its cells).
TEST_CASE("camera: a shift of 2^23 cells or more stays whole in the sum, its cells the sum's floor") {
    const double world_to_cell[6] = {1, 0, -1e7, 0, 1, 2.5};
    float camera[fj::ParamLayout::kCameraSize];
    fj::pack_camera(world_to_cell, camera);
    CHECK(camera[2] == -1e7f);
    CHECK(camera[6] == 0.0f);
    CHECK(camera[5] == 0.5f);
    CHECK(camera[7] == 2.0f);
    int ix = -1, iy = -1;
    CHECK(fj::camera_xy(camera, 10000005.0f, 1.25f, 20, 20, 0, ix, iy));
    CHECK(ix == 5);
    CHECK(iy == 3);
    CHECK_FALSE(fj::camera_xy(camera, 9999999.0f, 1.25f, 20, 20, 0, ix, iy));
    CHECK_FALSE(fj::camera_xy(camera, 10000020.0f, 1.25f, 20, 20, 0, ix, iy));
}

// Against the double sum over many points and cameras (rotated or not,
// shifts whole or not): the same cell wherever the float sum without the
// shift's whole part is farther from an edge than its own rounding.
TEST_CASE("camera: cells as the double sum has them, away from the float sum's rounding") {
    std::mt19937 gen(19);
    std::uniform_real_distribution<double> scale(10, 2000), angle(0, 6.2831853), shift(0, 4000);
    std::uniform_real_distribution<float> world(-3.0f, 3.0f);
    int checked = 0;
    for (int i = 0; i < 200000; ++i) {
        const double s = scale(gen), t = i % 2 ? angle(gen) : 0.0;
        const double m[6] = {s * std::cos(t), s * std::sin(t), i % 3 ? std::floor(shift(gen)) : shift(gen),
                             s * std::sin(t), -s * std::cos(t), i % 3 ? std::floor(shift(gen)) : shift(gen)};
        float camera[fj::ParamLayout::kCameraSize];
        fj::pack_camera(m, camera);
        const float x = world(gen), y = world(gen);
        // The sum with the float coefficients the kernel reads and the
        // double shift, whose split keeps it.
        const double dx = static_cast<double>(camera[0]) * x + static_cast<double>(camera[1]) * y + m[2];
        const double dy = static_cast<double>(camera[3]) * x + static_cast<double>(camera[4]) * y + m[5];
        // The float sum's rounding: a few 2^-24 of its terms (the shift's
        // fraction below 1), for both rows.
        const double slack = 1e-6 * (std::fabs(camera[0] * x) + std::fabs(camera[1] * y) + std::fabs(camera[3] * x) +
                                     std::fabs(camera[4] * y) + 2.0);
        if (std::fabs(dx - std::round(dx)) < slack || std::fabs(dy - std::round(dy)) < slack) continue;
        const int w = 8000, h = 8000;
        int ix, iy;
        const bool inside = fj::camera_xy(camera, x, y, w, h, 0, ix, iy);
        const bool want = dx >= 0 && dy >= 0 && dx < w && dy < h;
        CHECK(inside == want);
        if (inside && want) {
            CHECK(ix == static_cast<int>(std::floor(dx)));
            CHECK(iy == static_cast<int>(std::floor(dy)));
        }
        ++checked;
    }
    CHECK(checked > 190000);
}
