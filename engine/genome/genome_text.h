// flamejit — the text of a genome file or stream, within a bound.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Genomes are kilobytes; a sequence of ten thousand keyframes is some
// hundreds of megabytes. A source past kMaxGenomeBytes (a wrong file, or a
// stream that never ends) is refused when the bound is reached, before it can
// take all the memory its parsed form would.
#pragma once

#include <cstddef>
#include <istream>
#include <string>

namespace fj {

inline constexpr size_t kMaxGenomeBytes = size_t(1) << 30;

// All of `in`; throws GenomeError "LABEL: ..." when it cannot be read or
// holds more than kMaxGenomeBytes.
std::string read_genome_text(std::istream& in, const std::string& label);
// The same for the file at `path` ("PATH: cannot open: ..." when it cannot).
std::string read_genome_file(const std::string& path);

}  // namespace fj
