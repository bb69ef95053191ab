// flamejit — facts about the machine and the source tree that results
// files name (benchmarks, reports).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace fj {

// Standard output of a read-only shell command, trailing blanks trimmed;
// empty when the command fails.
std::string command_output(const std::string& command);

// The host CPU's model name (/proc/cpuinfo), or "unknown CPU".
std::string cpu_model();

// The NVIDIA kernel module's version, such as 580.159.04, from the first
// line of `path`, or "" where it does not say.
std::string nvidia_driver_version(const std::string& path = "/proc/driver/nvidia/version");

// Host memory the system could give this process now without swapping
// (/proc/meminfo MemAvailable), in bytes; 0 when unknown.
double available_memory();

// The 1, 5 and 15 minute load averages (/proc/loadavg), space-separated.
std::string load_average();

// A program's arguments joined by blanks: the command a results file names.
std::string command_line(int argc, char** argv);

// Now, in UTC, as 2026-01-31T12:00:00Z.
std::string utc_timestamp();

// The commit of the git tree in the current folder, else the one the build
// was configured at; `dirty` when tracked files differ from it.
struct SourceRevision {
    std::string commit;
    bool dirty = false;
};
SourceRevision source_revision();

}  // namespace fj
