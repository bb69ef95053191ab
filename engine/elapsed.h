// flamejit — seconds since a moment of the steady clock, for the timings that
// results and progress lines report.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>

namespace fj {

inline double seconds_since(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace fj
