// flamejit bench — benchmark harnesses (each one run, strategies side by side).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <cstring>

#include "bench_common.h"
#include "cli_common.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit bench WHAT [options]\n"
    "\n"
    "  shuffle      the shuffle strategies: simulated statistics, error per sample and per second\n"
    "  throughput   iterations/s per genome against the atomic and compute ceilings\n"
    "\n"
    "'flamejit bench WHAT --help' describes each.\n";

}  // namespace

int cmd_bench(const Args& args) {
    return run_guarded("bench", [&] {
        if (args.empty() || args[0] == "--help" || args[0] == "-h") {
            std::fputs(kHelp, args.empty() ? stderr : stdout);
            return args.empty() ? 2 : 0;
        }
        const Args rest(args.begin() + 1, args.end());
        if (args[0] == "shuffle") return bench_shuffle(rest);
        if (args[0] == "throughput") return bench_throughput(rest);
        throw UsageError("unknown benchmark '" + args[0] + "'");
    });
}

}  // namespace fj::cli
