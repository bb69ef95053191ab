// flamejit — genome text, read in chunks up to its bound.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/genome_text.h"

#include <cerrno>
#include <cstring>
#include <fstream>

#include "genome/flam3_reader.h"

namespace fj {

std::string read_genome_text(std::istream& in, const std::string& label) {
    std::string text;
    char chunk[1 << 16];
    while (in.read(chunk, sizeof chunk) || in.gcount() > 0) {
        text.append(chunk, static_cast<size_t>(in.gcount()));
        if (text.size() > kMaxGenomeBytes)
            throw GenomeError(label + ": more than " + std::to_string(kMaxGenomeBytes >> 20) +
                              " MiB, too large for a genome");
    }
    if (in.bad()) throw GenomeError(label + ": cannot read: " + std::strerror(errno));
    return text;
}

std::string read_genome_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw GenomeError(path + ": cannot open: " + std::strerror(errno));
    return read_genome_text(in, path);
}

}  // namespace fj
