// flamejit — where snippet text comes from.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The build embeds every file under snippets/ in the binary, so an installed
// flamejit needs no source tree. For development, FLAMEJIT_SNIPPET_DIR points at
// a snippets/ folder whose files then replace the embedded ones.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace fj {

class SnippetSource {
public:
    // Embedded snippets, or the folder named by FLAMEJIT_SNIPPET_DIR when set.
    static SnippetSource standard();
    static SnippetSource embedded();
    static SnippetSource from_directory(const std::string& dir);

    // Text of a file, by path relative to snippets/ ("variations/julia.h").
    std::optional<std::string> read(const std::string& path) const;
    // Paths of the files directly inside a folder, sorted.
    std::vector<std::string> list(const std::string& folder) const;
    // "embedded" or the folder path, for diagnostics.
    const std::string& origin() const { return origin_; }

private:
    std::string origin_;
    std::string dir_;  // empty for embedded
};

}  // namespace fj
