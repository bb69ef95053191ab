// flamejit — the subcommands of the command line.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each takes the arguments after its name and returns the process exit status:
// 0 success, 2 bad input or usage, 1 internal or device failure (verify: 3 for
// an image that is not a render of its genome).
#pragma once

#include <string>
#include <vector>

namespace fj::cli {

using Args = std::vector<std::string>;

int cmd_render(const Args& args);
int cmd_animate(const Args& args);
int cmd_compile(const Args& args);
int cmd_info(const Args& args);
int cmd_compare(const Args& args);
int cmd_verify(const Args& args);
int cmd_variations(const Args& args);
int cmd_bench(const Args& args);
int cmd_convert(const Args& args);
int cmd_sequence(const Args& args);
int cmd_cache(const Args& args);

}  // namespace fj::cli
