// flamejit — files that appear whole or not at all.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "atomic_file.h"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <stdexcept>

namespace fj {

namespace {

// The temporaries being written, for a signal handler to remove: fixed
// slots, since the handler may neither lock nor allocate. A slot's `state`
// is 0 (free), 1 (being filled or emptied) or 2 (holds a name). With every
// slot taken a temporary goes unnoted (and a signal leaves it behind).
struct NotedTemporary {
    std::atomic<int> state{0};
    char name[4096];
};
NotedTemporary g_noted[64];

void note(const std::string& temporary) {
    if (temporary.size() >= sizeof g_noted[0].name) return;
    for (NotedTemporary& slot : g_noted) {
        int free = 0;
        if (!slot.state.compare_exchange_strong(free, 1)) continue;
        std::memcpy(slot.name, temporary.c_str(), temporary.size() + 1);
        slot.state.store(2);
        return;
    }
}

void forget(const std::string& temporary) {
    for (NotedTemporary& slot : g_noted) {
        int held = 2;
        if (slot.state.load() != 2 || temporary != slot.name) continue;
        if (slot.state.compare_exchange_strong(held, 1)) slot.state.store(0);
        return;
    }
}

extern "C" void remove_noted_and_die(int signal_number) {
    for (NotedTemporary& slot : g_noted)
        if (slot.state.load() == 2) unlink(slot.name);
    std::signal(signal_number, SIG_DFL);
    std::raise(signal_number);
}

// Where a file written to `path` lands: a symbolic link's destination (every
// link followed, the last one's whether it exists or not), else `path`.
std::filesystem::path landing(const std::filesystem::path& path) {
    namespace fs = std::filesystem;
    fs::path at = path;
    std::error_code ec;
    for (int links = 0; links < 40 && fs::is_symlink(at, ec); ++links) {  // 40: the kernel's own bound on a chain
        const fs::path to = fs::read_symlink(at, ec);
        if (ec) break;
        at = (to.is_absolute() ? to : at.parent_path() / to).lexically_normal();
    }
    return at;
}

}  // namespace

std::string temporary_name_for(const std::filesystem::path& target) {
    static std::atomic<unsigned> counter{0};
    const std::filesystem::path where = landing(target);
    std::string name(1, '.');
    name += where.filename().string();
    name += ".tmp-" + std::to_string(getpid()) + "-" + std::to_string(counter++);
    const std::string temporary = (where.parent_path() / name).string();
    note(temporary);
    return temporary;
}

void discard_temporary(const std::string& temporary) {
    std::remove(temporary.c_str());
    forget(temporary);
}

void remove_temporaries_on_signals() {
    for (int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction now {};
        if (sigaction(signal_number, nullptr, &now) != 0 || now.sa_handler == SIG_IGN) continue;  // nohup
        struct sigaction handler {};
        handler.sa_handler = remove_noted_and_die;
        sigemptyset(&handler.sa_mask);
        sigaction(signal_number, &handler, nullptr);
    }
}

std::string unwritable_reason(const std::string& path) {
    namespace fs = std::filesystem;
    if (path.empty()) return "no file name";
    const fs::path where = landing(path);
    if (!where.has_filename()) return "no file name (it ends in a folder separator)";
    std::error_code ec;
    const fs::path folder = where.parent_path();
    if (!folder.empty() && !fs::is_directory(folder, ec))
        return fs::exists(folder, ec) ? folder.string() + " is not a folder"
                                      : "folder " + folder.string() + " does not exist";
    // The temporary is made in the folder: it must take new files (a
    // read-only file system refuses them whoever asks).
    const std::string where_folder = folder.empty() ? std::string(".") : folder.string();
    if (::access(where_folder.c_str(), W_OK | X_OK) != 0)
        return "folder " + where_folder + " takes no new files (" + std::strerror(errno) + ")";
    const fs::file_status status = fs::status(where, ec);
    if (fs::is_directory(status)) return "a folder of that name exists";
    if (fs::exists(status) && !fs::is_regular_file(status))
        return "it is not a regular file (a device, a pipe or a socket)";
    return "";
}

void commit_temporary(const std::string& temporary, const std::string& path, std::string error) {
    if (error.empty()) error = unwritable_reason(path);
    if (error.empty() && std::rename(temporary.c_str(), landing(path).c_str()) != 0) error = std::strerror(errno);
    if (!error.empty()) {
        discard_temporary(temporary);
        throw std::runtime_error("cannot write " + path + ": " + error);
    }
    forget(temporary);
}

void write_file_atomically(const std::string& path, const std::string& text) {
    write_file_atomically(path, [&](std::ostream& out) { out << text; });
}

void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
    const std::string temporary = temporary_name_for(path);
    std::string error;
    {
        std::ofstream out(temporary, std::ios::binary);
        if (!out) {
            error = std::strerror(errno);
            discard_temporary(temporary);
            throw std::runtime_error("cannot write " + path + ": " + error);
        }
        write(out);
        out.close();
        if (!out) error = std::strerror(errno);
    }
    commit_temporary(temporary, path, error);
}

}  // namespace fj
