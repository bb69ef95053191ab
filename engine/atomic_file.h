// flamejit — files that appear whole or not at all: each is written to a
// hidden temporary beside its target and renamed over it when complete.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <functional>
#include <ostream>
#include <string>

namespace fj {

// A hidden name beside `target` (beside the file a symbolic link leads to,
// where `target` is one), unique per process and call, so concurrent writers
// never share one. It is noted until commit_temporary or discard_temporary,
// so that a process stopped by a signal removes it (below).
std::string temporary_name_for(const std::filesystem::path& target);

// Removes a temporary that will not be committed (a write that failed).
void discard_temporary(const std::string& temporary);

// From now on SIGINT, SIGTERM and SIGHUP (where not ignored) remove the
// temporaries being written before the process ends by the signal: an
// interrupted render leaves no hidden files beside its outputs. Once, early
// in main.
void remove_temporaries_on_signals();

// Why a file written this way cannot go to `path`, or "" when it can: no
// name, no such folder, a folder this process may not add files to (its
// permissions, a read-only file system), or a folder or something other
// than a regular file (a device, a pipe, a socket) there. A symbolic link
// is judged by what it leads to, which is what gets written: the link stays.
std::string unwritable_reason(const std::string& path);

// Renames the finished `temporary` to `path` (to what it leads to, where it
// is a symbolic link). If `error` (what went wrong while writing the
// temporary) is not empty, or `path` is unwritable (above), or the rename
// fails, removes the temporary and throws "cannot write PATH: why".
void commit_temporary(const std::string& temporary, const std::string& path, std::string error);

// Writes `text` to `path` that way; throws "cannot write PATH: why".
void write_file_atomically(const std::string& path, const std::string& text);

// The same for content written piece by piece: `write` puts it on a binary
// stream to the temporary (a stream that fails makes the write fail).
void write_file_atomically(const std::string& path, const std::function<void(std::ostream&)>& write);

}  // namespace fj
