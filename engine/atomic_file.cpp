// flamejit — files that appear whole or not at all.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "atomic_file.h"

#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace fj {

std::string temporary_name_for(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    std::string name(1, '.');
    name += target.filename().string();
    name += ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    return (target.parent_path() / name).string();
}

void commit_temporary(const std::string& temporary, const std::string& path, std::string error) {
    if (error.empty()) {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec)) error = "a folder of that name exists";
        else if (std::rename(temporary.c_str(), path.c_str()) != 0) error = std::strerror(errno);
    }
    if (!error.empty()) {
        std::remove(temporary.c_str());
        throw std::runtime_error("cannot write " + path + ": " + error);
    }
}

void write_file_atomically(const std::string& path, const std::string& text) {
    const std::string temporary = temporary_name_for(path);
    std::string error;
    {
        std::ofstream out(temporary, std::ios::binary);
        if (!out) throw std::runtime_error("cannot write " + path + ": " + std::strerror(errno));
        out << text;
        out.close();
        if (!out) error = std::strerror(errno);
    }
    commit_temporary(temporary, path, error);
}

}  // namespace fj
