// flamejit — tests of the CPU backend's hit path (cpu/hit_buffer.h).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The CPU backend adds hits into private packed words that spill into a
// float grid; the claim is that the result is the plain per-channel sum of
// every hit, exactly. The reference here is that sum in 64-bit integers,
// which the packed path never sees. The backend keeps those buffers from
// frame to frame and clears them by handing their pages back; a reused
// backend is held to a fresh one.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "cpu/cpu_backend.h"
#include "cpu/hit_buffer.h"
#include "genome/flam3_reader.h"
#include "pipeline/prepared_frame.h"

namespace {

struct Replay {
    std::vector<float> grid;
    std::vector<fj::u64> words;
    std::vector<float> counts;
    std::vector<std::int64_t> exact;  // per channel and cell
    std::vector<std::int64_t> exact_counts;
};

// `hits` hits to `cells` cells, hot ones much more often, amounts drawn from
// 0..255 (less in later channels) except every 97th hit, which takes an amount a word cannot hold
// (above 255 or negative) as opacity above 1 or a negative palette value does.
Replay replay(int cells, int hits, bool packed, bool shared) {
    Replay r;
    r.grid.assign(4 * cells, 0.0f);
    r.words.assign(packed ? cells : 0, 0);
    r.counts.assign(cells, 0.0f);
    r.exact.assign(4 * cells, 0);
    r.exact_counts.assign(cells, 0);
    fj::cpu::HitBuffer buffer({r.grid.data(), packed ? r.words.data() : nullptr, r.counts.data(), shared});
    fj::Rng rng = fj::make_rng(7, 1);
    for (int i = 0; i < hits; ++i) {
        const fj::u32 u = fj::next_u32(rng);
        const int cell = (u & 3) ? static_cast<int>(u >> 8) % 3 : static_cast<int>(u >> 8) % cells;
        float amount[4];
        // Channels fill at different rates, the fastest one depending on
        // the cell, so a spill must watch every field.
        for (int k = 0; k < 4; ++k) amount[(k + cell) % 4] = static_cast<float>(fj::next_u32(rng) % (256u >> (2 * k)));
        if (i % 97 == 0) amount[i % 4] = (i & 1) ? 300.0f : -5.0f;
        const float count = static_cast<float>(fj::next_u32(rng) % 256);
        buffer.add(cell, amount, count);
        for (int k = 0; k < 4; ++k) r.exact[4 * cell + k] += static_cast<std::int64_t>(amount[k]);
        r.exact_counts[cell] += static_cast<std::int64_t>(count);
        if (i % fj::cpu::HitBuffer::kCapacity == fj::cpu::HitBuffer::kCapacity - 1) buffer.end_round();
    }
    buffer.flush_all();
    return r;
}

}  // namespace

TEST_CASE("CPU hit path: packed words and spills sum every hit exactly, hot cells past 2^16 included") {
    for (const bool packed : {true, false}) {
        for (const bool shared : {false, true}) {
            CAPTURE(packed);
            CAPTURE(shared);
            Replay r = replay(1000, 400000, packed, shared);
            int unspilled_high = 0;
            for (size_t i = 0; i < r.words.size(); ++i) {
                // A word never keeps a field at 2^15 or more: it would spill.
                unspilled_high += (r.words[i] & FJ_PACKED_FLUSH_BITS) != 0;
                fj::cpu::spill_word(r.words[i], &r.grid[4 * i]);
            }
            CHECK(unspilled_high == 0);
            int wrong = 0;
            for (size_t i = 0; i < r.grid.size(); ++i) wrong += static_cast<std::int64_t>(r.grid[i]) != r.exact[i];
            for (size_t i = 0; i < r.counts.size(); ++i) wrong += static_cast<std::int64_t>(r.counts[i]) != r.exact_counts[i];
            CHECK(wrong == 0);
            // The three hot cells took about 100000 hits each: far past one
            // 16-bit field, so the spills were exercised.
            CHECK(r.exact[0] > 4 * 65536);
        }
    }
}

TEST_CASE("CPU hit path: a hit's word packs the amounts it was given, and only amounts in 0..255") {
    const float fits[4] = {0.0f, 1.0f, 128.0f, 255.0f};
    const fj::u64 word = fj::cpu::hit_word(fits);
    REQUIRE(word != fj::cpu::kNoWord);
    for (int k = 0; k < 4; ++k) CHECK(fj::packed_field(word, k) == fits[k]);
    const float above[4] = {0.0f, 256.0f, 0.0f, 0.0f}, below[4] = {-1.0f, 0.0f, 0.0f, 0.0f};
    CHECK(fj::cpu::hit_word(above) == fj::cpu::kNoWord);
    CHECK(fj::cpu::hit_word(below) == fj::cpu::kNoWord);
}

TEST_CASE("CPU backend: frames on a reused backend add into buffers that start at zero again") {
    // 512x256 cells (megabytes: mapped memory, cleared by handing pages
    // back) and an attractor a few cells wide, so that words spill into
    // every thread's float grid many times.
    const fj::Flame flame = fj::read_flam3_string(
        "<flame size=\"512 256\" scale=\"2\" quality=\"20\" estimator_radius=\"0\">"
        "<xform weight=\"1\" linear=\"1\" color=\"0\" coefs=\"0.5 0 0 0.5 0.3 0\"/>"
        "<xform weight=\"1\" linear=\"1\" color=\"1\" coefs=\"0.5 0 0 0.5 -0.3 0.2\"/>"
        "<color index=\"0\" rgb=\"255 255 255\"/><color index=\"255\" rgb=\"255 255 255\"/></flame>",
        "reuse test").at(0);
    const fj::PreparedFrame f = fj::prepare_still(flame, {});
    const fj::IterationRequest req{.flame = &f.post_flame, .key = &f.key, .layout = &f.layout, .plan = &f.plan,
                                   .steps = {{&f.samples[0].params, 3000000}}, .seed = 11};
    const auto frame = [&](fj::Backend& backend) {
        backend.begin_frame(f.plan);
        backend.iterate(req);
        const std::span<const float> a = fj::cpu_accumulator(backend);
        return std::vector<float>(a.begin(), a.end());
    };
    auto fresh = fj::make_cpu_backend({2});
    const std::vector<float> expected = frame(*fresh);
    REQUIRE(expected.size() >= size_t(4) * 512 * 256);
    float hottest = 0;
    for (float v : expected) hottest = std::max(hottest, v);
    CHECK(hottest > 4 * 65536.0f);  // far past a 16-bit field: spills happened

    auto reused = fj::make_cpu_backend({2});
    frame(*reused);
    const std::vector<float> second = frame(*reused);
    REQUIRE(second.size() == expected.size());
    size_t differ = 0;
    for (size_t i = 0; i < expected.size(); ++i) differ += second[i] != expected[i];
    CHECK(differ == 0);
}
