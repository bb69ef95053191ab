// flamejit — the two kinds of failure the command line tells apart.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// InputError: the user's input is wrong (a genome, a size, a flag): exit 2.
// Anything else that escapes (driver, NVRTC, I/O, bugs): exit 1.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace fj {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// A number as messages show it: %g, since std::to_string writes 1e300 with
// 300 digits.
inline std::string message_number(double v) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", v);
    return text;
}

}  // namespace fj
