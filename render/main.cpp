// flamejit — command-line entry point: dispatches to the subcommands.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <cstring>
#include <string>

#include "atomic_file.h"
#include "commands.h"
#include "malloc_policy.h"

namespace {

const char* kUsage =
    "flamejit — renders fractal flames (flam3 genomes) with a kernel generated per genome\n"
    "\n"
    "usage: flamejit COMMAND [options]\n"
    "\n"
    "commands:\n"
    "  render   render genome files to PNG images\n"
    "  animate  render the frames of an animation (keyframe sequence) to numbered PNGs\n"
    "  convert  write a genome (flam3 XML or cuburn JSON) as flam3 XML, or a sequence at one time\n"
    "  sequence Electric Sheep loops and transitions of genomes, one genome per frame\n"
    "  compile  generate and compile a genome's kernel (no GPU needed); print its report\n"
    "  info     which backends work, devices, driver and NVRTC versions, kernel cache\n"
    "  cache    the kernel cache: folder and size; clear it or prune it to a size\n"
    "  compare  fidelity ratio of an image against two reference renders\n"
    "  verify   whether images are renders of the genomes they carry (render farms)\n"
    "  variations  the supported variations: ids, parameters and defaults, aliases\n"
    "  bench    benchmarks: shuffle strategies, throughput against ceilings\n"
    "\n"
    "'flamejit COMMAND --help' describes each command.\n";

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::fputs(kUsage, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    if (!std::strcmp(argv[1], "--version")) {
        std::printf("flamejit %s\n", FLAMEJIT_VERSION);
        return 0;
    }
    fj::keep_freed_memory();
    fj::remove_temporaries_on_signals();
    const std::string command = argv[1];
    const fj::cli::Args args(argv + 2, argv + argc);
    if (command == "render") return fj::cli::cmd_render(args);
    if (command == "animate") return fj::cli::cmd_animate(args);
    if (command == "convert") return fj::cli::cmd_convert(args);
    if (command == "sequence") return fj::cli::cmd_sequence(args);
    if (command == "compile") return fj::cli::cmd_compile(args);
    if (command == "info") return fj::cli::cmd_info(args);
    if (command == "cache") return fj::cli::cmd_cache(args);
    if (command == "compare") return fj::cli::cmd_compare(args);
    if (command == "verify") return fj::cli::cmd_verify(args);
    if (command == "variations") return fj::cli::cmd_variations(args);
    if (command == "bench") return fj::cli::cmd_bench(args);
    std::fprintf(stderr, "flamejit: unknown command '%s' (try flamejit --help)\n", command.c_str());
    return 2;
}
