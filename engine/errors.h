// flamejit — the two kinds of failure the command line tells apart.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// InputError: the user's input is wrong (a genome, a size, a flag): exit 2.
// Anything else that escapes (driver, NVRTC, I/O, bugs): exit 1.
#pragma once

#include <stdexcept>
#include <string>

namespace fj {

class InputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

}  // namespace fj
