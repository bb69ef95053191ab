// flamejit — `flamejit convert`: flam3 XML or cuburn JSON to flam3 XML.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cmath>
#include <cstdio>

#include "cli_args.h"
#include "cli_common.h"
#include "genome/interpolate.h"
#include "genome/sequence.h"

namespace fj::cli {
namespace {

// A printf format: the %s takes kTemplateHelp.
const char* kHelp =
    "usage: flamejit convert INPUT [-o OUT.flam3] [--time T [--loop P]] [options]\n"
    "\n"
    "Reads INPUT (flam3 XML, or a cuburn .json node; - reads standard input) and writes its\n"
    "flames as flam3 XML, as flamejit reads them: defaults, library palettes and symmetry made\n"
    "explicit, every number exact, readable by flam3 and flamejit alike. A flame's <edit>\n"
    "genealogy is kept as it is (an interpolated genome, with --time, has none).\n"
    "\n"
    "  -o OUT.flam3          output file (default: standard output); written to a temporary\n"
    "                        name and renamed\n"
    "  --time T              only the genome at time T, interpolated between the keyframes as\n"
    "                        flamejit animate renders frame T (a cuburn node: its loop)\n"
    "  --loop P              with --time: the keyframes as a loop of P frames, as animate --loop\n"
    "  --flame I             only flame I (0-based) of INPUT; its other flames may use\n"
    "                        variations flamejit lacks\n"
    "  --profile FILE        cuburn output profile for a .json node (size, quality, loop length)\n"
    "%s"
    "  --palettes FILE       flam3 palette library (default: $flam3_palettes or flam3's)\n"
    "  --drop-unknown        write without what flamejit does not know or render (unknown\n"
    "                        variations, Fractorium's 3D camera, a log_base other than e),\n"
    "                        with a warning for each\n"
    "\n"
    "Exit status: 0 success, 2 bad input or usage, 1 internal failure.\n";

int run(const Args& args) {
    const ParsedArgs a = parse_args(args, {"o", "output", "time", "loop", "flame", "profile", "template", "palettes"},
                                    {"help", "h", "drop-unknown"});
    if (a.has("help") || a.has("h")) {
        std::printf(kHelp, kTemplateHelp);
        return 0;
    }
    if (a.positional.size() != 1)
        throw UsageError("convert takes one genome file, got " + std::to_string(a.positional.size()));
    if (a.has("time") && a.has("flame")) throw UsageError("--time and --flame exclude each other");
    const double time = a.number("time", 0);
    if (!std::isfinite(time)) throw UsageError("--time must be a finite number");
    const double loop = loop_from(a);
    if (loop > 0 && !a.has("time")) throw UsageError("--loop goes with --time: the genome a loop shows at that time");

    // With --time a cuburn node is read as its loop, as animate reads it.
    GenomeInput input = load_genomes(a, a.has("time"));
    std::vector<Flame> out;
    if (a.has("time")) {
        check_sequence(input.flames, input.label);
        const double first = input.flames.front().time;
        if (loop > 0)
            out.push_back(interpolate(loop_keyframes(input.flames, loop, input.label), loop_time(time, first, loop)));
        else
            out.push_back(interpolate(input.flames, time));
    } else {
        for (int index : input.selected) out.push_back(input.flames[index]);
    }

    if (const std::optional<FlameTemplate> templ = template_option(a, "convert"))
        for (Flame& f : out) apply_template(f, *templ);
    write_genomes(a, out);
    return 0;
}

}  // namespace

int cmd_convert(const Args& args) { return run_guarded("convert", [&] { return run(args); }); }

}  // namespace fj::cli
