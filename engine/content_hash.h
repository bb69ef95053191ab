// flamejit — a 128-bit FNV-1a hash of bytes, for addressing content.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Not cryptographic: kernel cache keys only need to separate the kernels
// one user builds, checksums only need to catch torn or damaged files, and a
// render state's identity only needs to tell frames apart.
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>

namespace fj {

struct Fnv128 {
    using u128 = unsigned __int128;
    u128 state = (static_cast<u128>(0x6c62272e07bb0142ULL) << 64) | 0x62b821756295c58dULL;
    void add(const void* data, size_t size) {
        static const u128 prime = (static_cast<u128>(1) << 88) | 0x13b;
        const auto* bytes = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < size; ++i) {
            state ^= bytes[i];
            state *= prime;
        }
    }
    // Length-prefixed, so ("ab","c") and ("a","bc") differ.
    void add_field(const std::string& text) {
        const uint64_t size = text.size();
        add(&size, sizeof size);
        add(text.data(), text.size());
    }
    uint64_t hi() const { return static_cast<uint64_t>(state >> 64); }
    uint64_t lo() const { return static_cast<uint64_t>(state); }
};

// 32 lowercase hex digits.
inline std::string hex128(uint64_t hi, uint64_t lo) {
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(hi),
                  static_cast<unsigned long long>(lo));
    return text;
}

}  // namespace fj
