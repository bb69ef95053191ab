// flamejit — `flamejit sequence`: Electric Sheep loops and transitions as a genome sequence.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cstdio>

#include "cli_args.h"
#include "cli_common.h"
#include "genome/sequence.h"
#include "genome/sheep.h"

namespace fj::cli {
namespace {

// A printf format: the %s takes kTemplateHelp.
const char* kHelp =
    "usage: flamejit sequence INPUT... [-o OUT.flam3] [--frames N] [--no-loops] [--stagger S] [options]\n"
    "\n"
    "Makes an Electric Sheep animation of the flames of the INPUT files (- reads standard\n"
    "input; one after another, as if one file), as flam3-genome's sequence= does: each\n"
    "flame's loop (its xforms turn a whole turn, its <motion> elements run their waves), then\n"
    "a transition to the next flame (turning while it changes), and at the end the last flame\n"
    "once more, unturned. It writes one genome per frame, at times 0, 1, 2, ..., for\n"
    "'flamejit animate OUT.flam3' to render (temporal samples blur between them).\n"
    "\n"
    "  -o OUT.flam3          output file (default: standard output); written to a temporary\n"
    "                        name and renamed\n"
    "  --frames N            frames per loop and per transition (default 100)\n"
    "  --no-loops            transitions only\n"
    "  --stagger S           in 0..1: how far the xforms of a transition change one after\n"
    "                        another rather than together (default 0, together)\n"
    "  --profile FILE        cuburn output profile for a .json node (size, quality)\n"
    "%s"
    "  --palettes FILE       flam3 palette library (default: $flam3_palettes or flam3's)\n"
    "  --drop-unknown        leave out what flamejit does not know or render, with a warning\n"
    "\n"
    "Exit status: 0 success, 2 bad input or usage, 1 internal failure.\n";

int run(const Args& args) {
    const ParsedArgs a = parse_args(args, {"o", "output", "frames", "stagger", "profile", "template", "palettes"},
                                    {"help", "h", "no-loops", "drop-unknown"});
    if (a.has("help") || a.has("h")) {
        std::printf(kHelp, kTemplateHelp);
        return 0;
    }
    if (a.positional.empty()) throw UsageError("sequence takes one or more genome files");
    if (std::count(a.positional.begin(), a.positional.end(), "-") > 1)
        throw UsageError("standard input (-) can be read only once");
    SequenceOptions options;
    const long long frames = a.integer("frames", 100);
    if (frames < 1 || frames > kMaxSequenceGenomes)
        throw UsageError("--frames must be in 1.." + std::to_string(kMaxSequenceGenomes));
    options.frames = static_cast<int>(frames);
    options.loops = !a.has("no-loops");
    options.stagger = a.number("stagger", 0);
    if (!(options.stagger >= 0 && options.stagger <= 1)) throw UsageError("--stagger must be in 0..1");

    // The files' flames one after another, as if they were one file's.
    std::vector<Flame> flames;
    for (const std::string& path : a.positional) {
        GenomeInput input = load_genome(a, path);
        for (size_t i = 0; i < input.flames.size(); ++i) {
            flames.push_back(std::move(input.flames[i]));
            options.origins.push_back({input.label, static_cast<int>(i)});
        }
    }
    apply_sequence_fixups(flames);

    std::vector<Flame> out = sequence(flames, options);
    // As flam3-genome: on each frame made, not on the flames it is made of.
    if (const std::optional<FlameTemplate> templ = template_option(a, "sequence"))
        for (Flame& f : out) apply_template(f, *templ);
    write_genomes(a, out);
    return 0;
}

}  // namespace

int cmd_sequence(const Args& args) { return run_guarded("sequence", [&] { return run(args); }); }

}  // namespace fj::cli
