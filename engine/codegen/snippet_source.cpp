// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/snippet_source.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "codegen/embedded_snippets.h"

namespace fj {

SnippetSource SnippetSource::standard() {
    const char* dir = std::getenv("FLAMEJIT_SNIPPET_DIR");
    if (dir && *dir) return from_directory(dir);
    return embedded();
}

SnippetSource SnippetSource::embedded() {
    SnippetSource s;
    s.origin_ = "embedded";
    return s;
}

SnippetSource SnippetSource::from_directory(const std::string& dir) {
    SnippetSource s;
    s.origin_ = dir;
    s.dir_ = dir;
    return s;
}

std::optional<std::string> SnippetSource::read(const std::string& path) const {
    if (dir_.empty()) {
        for (int i = 0; i < kEmbeddedSnippetCount; ++i)
            if (path == kEmbeddedSnippets[i].path) return std::string(kEmbeddedSnippets[i].text);
        return std::nullopt;
    }
    std::ifstream in(dir_ + "/" + path, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

std::vector<std::string> SnippetSource::list(const std::string& folder) const {
    std::vector<std::string> paths;
    const std::string prefix = folder.empty() ? "" : folder + "/";
    if (dir_.empty()) {
        for (int i = 0; i < kEmbeddedSnippetCount; ++i) {
            const std::string p = kEmbeddedSnippets[i].path;
            if (p.compare(0, prefix.size(), prefix) == 0 &&
                p.find('/', prefix.size()) == std::string::npos)
                paths.push_back(p);
        }
    } else {
        std::error_code ec;
        for (const auto& entry : std::filesystem::directory_iterator(dir_ + "/" + folder, ec))
            if (entry.is_regular_file() && entry.path().filename().string()[0] != '.')
                paths.push_back(prefix + entry.path().filename().string());
    }
    std::sort(paths.begin(), paths.end());
    return paths;
}

}  // namespace fj
