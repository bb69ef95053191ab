// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_common.h"

#include <cstdio>
#include <filesystem>

#include "default_genome.h"
#include "errors.h"
#include "genome/cuburn_reader.h"
#include "genome/flam3_reader.h"

namespace fj::cli {

GenomeInput load_genomes(const ParsedArgs& args, bool animation) {
    GenomeInput input;
    ReadOptions read;
    read.drop_unknown_variations = args.has("drop-unknown");
    read.palette_file = args.value("palettes");
    if (args.positional.empty()) {
        input.label = "default.flam3";
        input.flames = read_flam3_string(kDefaultGenome, input.label, read, &input.sources);
    } else if (std::filesystem::path(args.positional[0]).extension() == ".json") {
        input.label = args.positional[0];
        CuburnReadOptions cuburn;
        cuburn.profile_file = args.value("profile");
        cuburn.loop = animation;
        cuburn.drop_unknown_variations = read.drop_unknown_variations;
        input.flames = read_cuburn_file(input.label, cuburn, &input.sources);
    } else {
        if (args.has("profile")) throw UsageError("--profile applies to cuburn .json genomes only");
        input.label = args.positional[0];
        input.flames = read_flam3_file(input.label, read, &input.sources);
    }
    const int count = static_cast<int>(input.flames.size());
    if (args.has("flame")) {
        const long long i = args.integer("flame", 0);
        if (i < 0 || i >= count)
            throw UsageError("--flame " + std::to_string(i) + ": " + input.label + " has " + std::to_string(count) +
                             " flame(s), numbered from 0");
        input.selected = {static_cast<int>(i)};
    } else {
        for (int i = 0; i < count; ++i) input.selected.push_back(i);
    }
    return input;
}

KernelOptions kernel_options_from(const ParsedArgs& args) {
    KernelOptions k;
    if (!parse_shuffle(args.value("shuffle", "ring"), &k.shuffle))
        throw UsageError("--shuffle must be ring, none, full or divergent");
    const long long block = args.integer("block", 256);
    if (block < 128 || block > 1024 || block % 32 != 0)
        throw UsageError("--block must be a multiple of 32 in 128..1024");
    k.block_size = static_cast<int>(block);
    k.arch = args.value("arch", "");
    if (!k.arch.empty() && (k.arch.rfind("sm_", 0) != 0 || k.arch.size() < 5 ||
                            k.arch.find_first_not_of("0123456789a", 3) != std::string::npos))
        throw UsageError("--arch must look like sm_90");
    // `none` (no accumulation) exists for the throughput benchmark only.
    if (!parse_accumulation(args.value("accumulate", "atomic"), &k.accumulation) || k.accumulation == Accumulation::None)
        throw UsageError("--accumulate must be atomic, scalar, warp, shared or packed");
    return k;
}

std::string default_output(const std::string& genome_label) {
    return std::filesystem::path(genome_label).stem().string() + ".png";
}

int run_guarded(const char* command, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        std::fprintf(stderr, "flamejit %s: %s (see flamejit %s --help)\n", command, e.what(), command);
        return 2;
    } catch (const InputError& e) {
        std::fprintf(stderr, "flamejit %s: %s\n", command, e.what());
        return 2;
    } catch (const GenomeError& e) {
        std::fprintf(stderr, "flamejit %s: %s\n", command, e.what());
        return 2;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "flamejit %s: out of memory\n", command);
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "flamejit %s: %s\n", command, e.what());
        return 1;
    }
}

}  // namespace fj::cli
