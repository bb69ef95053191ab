// flamejit — how the CPU backend's hits reach its histograms.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A CPU thread's iteration is bound by its histogram adds: each lands on a
// random cell of a grid far larger than the caches. Two things make them
// cheaper without changing a single sum:
//   - a thread adds into a private grid of 64-bit words holding the four
//     channels as 16-bit integers (the packed layout of iterate/common.h), so
//     a hit is one 8-byte read-modify-write and the grid that the adds wander
//     over is half the size of the float grid. Unlike the GPU's packed words
//     this cannot lose counts: the thread owns its words, and before a field
//     can reach 2^16 the word spills into the float grid (a field below 2^15
//     plus one hit of at most 255 cannot carry into its neighbour);
//   - hits wait a round in a buffer with their words prefetched, so the
//     round's other work hides the cache misses.
// Hits that do not fit a word (an amount above 255, from opacity above 1, or
// below 0) go to the float grid directly. All amounts are integers, so float
// sums of them are exact (below 2^24) whatever the order of adds: the image
// is the one the direct float adds gave, bit for bit.
#pragma once

#include <algorithm>
#include <atomic>

#include "iterate/common.h"

namespace fj::cpu {

// Where a thread's hits go. `words` is null when the threads share one float
// grid (frames too large for private copies); then every add is atomic.
struct HitTargets {
    float* grid = nullptr;    // RGBA floats per cell
    u64* words = nullptr;     // packed channels per cell, private to the thread
    float* counts = nullptr;  // flam3's count channel, or null
    bool shared = false;      // grid and counts are shared by all threads
};

// The packed word of a hit's amounts, or kNoWord when they do not fit.
inline constexpr u64 kNoWord = ~0ULL;

inline u64 hit_word(const float amount[4]) { return packed_fits(amount) ? packed_word(amount) : kNoWord; }

// Adds a word's channels to a float cell and clears the word.
inline void spill_word(u64& word, float* cell) {
    for (int k = 0; k < 4; ++k) cell[k] += packed_field(word, k);
    word = 0;
}

class HitBuffer {
public:
    explicit HitBuffer(const HitTargets& targets) : t_(targets) {}

    // A hit of a packed word to `cell`; `count` is what it adds to the
    // count channel when there is one.
    void add(long long cell, u64 word, float count) {
        if (!t_.words) {
            float amount[4];
            for (int k = 0; k < 4; ++k) amount[k] = packed_field(word, k);
            return add_unpacked(cell, amount, count);
        }
        Hit& h = next(cell, count);
        h.word = word;
        __builtin_prefetch(t_.words + cell, 1);
    }

    // A hit of any amounts: packed when they fit.
    void add(long long cell, const float amount[4], float count) {
        const u64 word = hit_word(amount);
        if (word != kNoWord && t_.words) return add(cell, word, count);
        add_unpacked(cell, amount, count);
    }

    // Ends a round: the previous round's hits, prefetched since, are added.
    void end_round() {
        current_ ^= 1;
        flush(current_);
    }

    void flush_all() {
        flush(0);
        flush(1);
    }

    // One round's hits at most: each lane plots at most once.
    static constexpr int kCapacity = 32;

private:
    struct Hit {
        long long cell;
        u64 word;  // kNoWord: the hit adds `amount` to the float grid
        float amount[4];
        float count;
    };

    Hit& next(long long cell, float count) {
        Hit& h = hits_[current_][size_[current_]++];
        h.cell = cell;
        h.count = count;
        return h;
    }

    void add_unpacked(long long cell, const float amount[4], float count) {
        Hit& h = next(cell, count);
        h.word = kNoWord;
        std::copy_n(amount, 4, h.amount);
        __builtin_prefetch(t_.grid + 4 * cell, 1);
    }

    void flush(int buffer) {
        for (int i = 0; i < size_[buffer]; ++i) {
            const Hit& h = hits_[buffer][i];
            if (h.word != kNoWord) {
                u64& w = t_.words[h.cell];
                w += h.word;
                if (w & FJ_PACKED_FLUSH_BITS) spill_word(w, t_.grid + 4 * h.cell);
            } else {
                add_float(t_.grid + 4 * h.cell, h.amount, 4);
            }
            if (t_.counts) add_float(t_.counts + h.cell, &h.count, 1);
        }
        size_[buffer] = 0;
    }

    void add_float(float* to, const float* amount, int n) {
        for (int k = 0; k < n; ++k) {
            if (t_.shared)
                std::atomic_ref<float>(to[k]).fetch_add(amount[k], std::memory_order_relaxed);
            else
                to[k] += amount[k];
        }
    }

    HitTargets t_;
    Hit hits_[2][kCapacity];
    int size_[2] = {0, 0};
    int current_ = 0;
};

}  // namespace fj::cpu
