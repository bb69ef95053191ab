// flamejit — files that appear whole or not at all: each is written to a
// hidden temporary beside its target and renamed over it when complete.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <filesystem>
#include <string>

namespace fj {

// A hidden name beside `target`, unique per process and call, so concurrent
// writers never share one.
std::string temporary_name_for(const std::filesystem::path& target);

// Renames the finished `temporary` to `path`. If `error` (what went wrong
// while writing the temporary) is not empty, or `path` is a folder, or the
// rename fails, removes the temporary and throws "cannot write PATH: why".
void commit_temporary(const std::string& temporary, const std::string& path, std::string error);

// Writes `text` to `path` that way; throws "cannot write PATH: why".
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace fj
