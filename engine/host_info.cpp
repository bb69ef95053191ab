// flamejit — facts about the machine and the source tree that results files name.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "host_info.h"

#include <cctype>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include "flamejit_commit.h"

namespace fj {

std::string command_output(const std::string& command) {
    std::string out;
    if (FILE* pipe = popen((command + " 2>/dev/null").c_str(), "r")) {
        char buf[512];
        while (fgets(buf, sizeof buf, pipe)) out += buf;
        if (pclose(pipe) != 0) out.clear();
    }
    while (!out.empty() && (out.back() == '\n' || out.back() == ' ')) out.pop_back();
    return out;
}

std::string cpu_model() {
    std::ifstream in("/proc/cpuinfo");
    for (std::string line; std::getline(in, line);) {
        const size_t colon = line.find(':');
        if (line.rfind("model name", 0) == 0 && colon != std::string::npos) return line.substr(colon + 2);
    }
    return "unknown CPU";
}

std::string nvidia_driver_version(const std::string& path) {
    // "NVRM version: NVIDIA UNIX ... Kernel Module ... 580.159.04  Release Build ...":
    // the first word made of digits and dots, with a dot.
    std::ifstream in(path);
    std::string line;
    if (!std::getline(in, line)) return "";
    std::istringstream words(line);
    for (std::string word; words >> word;)
        if (word.find('.') != std::string::npos && word.find_first_not_of("0123456789.") == std::string::npos &&
            std::isdigit(static_cast<unsigned char>(word.front())))
            return word;
    return "";
}

double available_memory() {
    std::ifstream in("/proc/meminfo");
    for (std::string line; std::getline(in, line);) {
        double kib = 0;
        if (std::sscanf(line.c_str(), "MemAvailable: %lf kB", &kib) == 1) return kib * 1024.0;
    }
    return 0;
}

std::string load_average() {
    std::ifstream in("/proc/loadavg");
    std::string a, b, c;
    in >> a >> b >> c;
    return a + " " + b + " " + c;
}

std::string command_line(int argc, char** argv) {
    std::string line;
    for (int i = 0; i < argc; ++i) {
        if (i) line += ' ';
        line += argv[i];
    }
    return line;
}

std::string utc_timestamp() {
    const std::time_t now = std::time(nullptr);
    char date[32];
    std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
    return date;
}

SourceRevision source_revision() {
    SourceRevision r;
    r.commit = command_output("git rev-parse HEAD");
    if (r.commit.empty()) return {FLAMEJIT_COMMIT, false};
    r.dirty = !command_output("git status --porcelain --untracked-files=no").empty();
    return r;
}

}  // namespace fj
