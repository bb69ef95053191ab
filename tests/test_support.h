// flamejit — helpers shared by the test suites.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace fj::test {

// Paths fixed at configure time.
std::string source_path(const std::string& rel);   // inside the project
std::string corpus_path(const std::string& rel);   // inside ../shared/corpus
std::string flamejit_binary();
// A fresh empty folder under the build tree, unique per call.
std::string scratch_dir(const std::string& tag);
bool file_exists(const std::string& path);
std::string read_file(const std::string& path);
void write_file(const std::string& path, const std::string& text);

struct CommandResult {
    int status = -1;      // exit status, or -1 if it did not exit normally
    std::string output;   // stdout and stderr together
};
// Runs a shell command line and captures its output.
CommandResult run_command(const std::string& command);

// The variation ids flam3-genome may pick as main variations (all but the
// pre-variations, which it never chooses), comma-separated for use_vars=.
std::string flam3_genome_variation_ids();

// Sets name="value" on the first <flame> tag of a genome's text, replacing
// the attribute if present (for genomes both flam3 and flamejit then read).
std::string set_flame_attribute(const std::string& xml, const std::string& name, const std::string& value);
// The first <flame> at `factor` of its size (framing kept: scale follows),
// the given quality and supersample 1: the same picture, cheap enough for CI.
std::string reduced_genome(const std::string& xml, double factor, double quality);

}  // namespace fj::test
