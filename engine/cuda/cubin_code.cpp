// flamejit — the code digest of a CUBIN (ELF sections that hold what runs) and its functions' registers.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/cubin_code.h"

#include <elf.h>

#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <vector>

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

// The section table of a 64-bit ELF image, bounds-checked.
struct ElfSections {
    const std::string* image = nullptr;
    std::vector<Elf64_Shdr> headers;
    std::string_view names;  // the section names' string table

    bool valid() const { return image != nullptr; }
    // "" when the offset lies outside the table.
    std::string_view name(uint32_t offset, std::string_view table) const {
        if (offset >= table.size()) return "";
        return table.substr(offset, table.find('\0', offset) - offset);
    }
    std::string_view name(const Elf64_Shdr& sh) const { return name(sh.sh_name, names); }
    // The section's bytes; empty for one that holds none (shared and global
    // data) or lies outside the image.
    std::string_view data(const Elf64_Shdr& sh) const {
        if (sh.sh_type == SHT_NOBITS || sh.sh_offset > image->size() || sh.sh_size > image->size() - sh.sh_offset)
            return {};
        return std::string_view(image->data() + sh.sh_offset, sh.sh_size);
    }
};

// Not valid() when `image` is not a 64-bit ELF image with a sound section table.
ElfSections read_sections(const std::string& image) {
    ElfSections out;
    Elf64_Ehdr eh;
    if (image.size() < sizeof eh || std::memcmp(image.data(), ELFMAG, SELFMAG) != 0 || image[EI_CLASS] != ELFCLASS64)
        return out;
    std::memcpy(&eh, image.data(), sizeof eh);
    const uint64_t table_end = eh.e_shoff + uint64_t(eh.e_shnum) * eh.e_shentsize;
    if (eh.e_shentsize != sizeof(Elf64_Shdr) || eh.e_shstrndx >= eh.e_shnum || table_end > image.size()) return out;
    out.headers.resize(eh.e_shnum);
    for (int i = 0; i < eh.e_shnum; ++i)
        std::memcpy(&out.headers[i], image.data() + eh.e_shoff + uint64_t(i) * eh.e_shentsize, sizeof(Elf64_Shdr));
    out.image = &image;
    const Elf64_Shdr& names = out.headers[eh.e_shstrndx];
    out.names = out.data(names);
    if (out.names.size() != names.sh_size) out.image = nullptr;
    return out;
}

}  // namespace

std::string cubin_code_digest(const std::string& cubin, const std::string& function) {
    const ElfSections elf = read_sections(cubin);
    if (!elf.valid()) return "";
    Fnv64 hash;
    for (const Elf64_Shdr& sh : elf.headers) {
        if (sh.sh_name >= elf.names.size()) return "";
        const std::string_view name = elf.name(sh);
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
        const std::string_view bytes = elf.data(sh);
        if (bytes.size() != sh.sh_size) return "";
        hash.add(bytes.data(), bytes.size());
    }
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(hash.state));
    return text;
}

int cubin_registers(const std::string& cubin, const std::string& function) {
    const ElfSections elf = read_sections(cubin);
    if (!elf.valid()) return -1;
    // The function's index in the symbol table.
    long long symbol = -1;
    for (const Elf64_Shdr& sh : elf.headers) {
        if (sh.sh_type != SHT_SYMTAB || sh.sh_link >= elf.headers.size()) continue;
        const std::string_view table = elf.data(sh), strings = elf.data(elf.headers[sh.sh_link]);
        for (size_t i = 0; (i + 1) * sizeof(Elf64_Sym) <= table.size(); ++i) {
            Elf64_Sym sym;
            std::memcpy(&sym, table.data() + i * sizeof sym, sizeof sym);
            if (elf.name(sym.st_name, strings) == function && ELF64_ST_TYPE(sym.st_info) == STT_FUNC) symbol = i;
        }
    }
    if (symbol < 0) return -1;
    // The module-wide .nv.info holds records of a format byte, an attribute
    // byte and a payload whose size the format gives (none; one byte; two;
    // or a two-byte size and that many bytes). The register count is the
    // attribute 0x2f (EIATTR_REGCOUNT), its payload the symbol index and the
    // count, four bytes each.
    constexpr unsigned char kSizedValue = 0x04, kHalfValue = 0x03, kByteValue = 0x02, kNoValue = 0x01;
    constexpr unsigned char kRegisterCount = 0x2f;
    for (const Elf64_Shdr& sh : elf.headers) {
        if (elf.name(sh) != ".nv.info") continue;
        const std::string_view info = elf.data(sh);
        for (size_t at = 0; at + 2 <= info.size();) {
            const auto format = static_cast<unsigned char>(info[at]), attribute = static_cast<unsigned char>(info[at + 1]);
            at += 2;
            if (format == kNoValue) continue;
            if (format == kByteValue) {
                at += 1;
                continue;
            }
            if (at + 2 > info.size()) break;
            uint16_t half;
            std::memcpy(&half, info.data() + at, sizeof half);
            at += 2;
            if (format == kHalfValue) continue;
            if (format != kSizedValue || at + half > info.size()) break;
            if (attribute == kRegisterCount && half == 8) {
                uint32_t pair[2];
                std::memcpy(pair, info.data() + at, sizeof pair);
                if (pair[0] == static_cast<uint64_t>(symbol)) return static_cast<int>(pair[1]);
            }
            at += half;
        }
    }
    return -1;
}

}  // namespace fj
