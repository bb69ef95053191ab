// flamejit — the code digest of a CUBIN (ELF sections that hold what runs).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/cubin_code.h"

#include <elf.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>

namespace fj {
namespace {

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

struct Fnv64 {
    uint64_t state = 0xcbf29ce484222325ULL;
    void add(const void* data, size_t size) {
        const auto* bytes = static_cast<const unsigned char*>(data);
        for (size_t i = 0; i < size; ++i) {
            state ^= bytes[i];
            state *= 0x100000001b3ULL;
        }
    }
};

}  // namespace

std::string cubin_code_digest(const std::string& cubin, const std::string& function) {
    Elf64_Ehdr eh;
    if (cubin.size() < sizeof eh || std::memcmp(cubin.data(), ELFMAG, SELFMAG) != 0 ||
        cubin[EI_CLASS] != ELFCLASS64)
        return "";
    std::memcpy(&eh, cubin.data(), sizeof eh);
    const uint64_t table_end = eh.e_shoff + uint64_t(eh.e_shnum) * eh.e_shentsize;
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum || table_end > cubin.size())
        return "";
    auto section = [&](int i) {
        Elf64_Shdr sh;
        std::memcpy(&sh, cubin.data() + eh.e_shoff + uint64_t(i) * eh.e_shentsize, sizeof sh);
        return sh;
    };
    const Elf64_Shdr names = section(eh.e_shstrndx);
    if (names.sh_offset + names.sh_size > cubin.size()) return "";
    const std::string_view name_table(cubin.data() + names.sh_offset, names.sh_size);

    Fnv64 hash;
    for (int i = 0; i < eh.e_shnum; ++i) {
        const Elf64_Shdr sh = section(i);
        if (sh.sh_name >= name_table.size()) return "";
        const std::string_view name = name_table.substr(sh.sh_name, name_table.find('\0', sh.sh_name) - sh.sh_name);
        const bool code = starts_with(name, ".text.") || starts_with(name, ".nv.info") ||
                          starts_with(name, ".nv.constant") || starts_with(name, ".nv.shared") ||
                          starts_with(name, ".nv.global");
        if (!code) continue;
        if (!function.empty() &&
            (starts_with(name, ".nv.info") || name.size() <= function.size() ||
             name.substr(name.size() - function.size() - 1) != "." + function))
            continue;
        hash.add(name.data(), name.size());
        hash.add(&sh.sh_size, sizeof sh.sh_size);
        if (sh.sh_type == SHT_NOBITS) continue;  // shared and global data: only the size exists
        if (sh.sh_offset + sh.sh_size > cubin.size()) return "";
        hash.add(cubin.data() + sh.sh_offset, sh.sh_size);
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.state));
    return text;
}

}  // namespace fj
