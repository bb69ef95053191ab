// flamejit — the snippet files compiled into the binary (generated at build).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

namespace fj {

struct EmbeddedFile {
    const char* path;  // relative to snippets/
    const char* text;
};

extern const EmbeddedFile kEmbeddedSnippets[];
extern const int kEmbeddedSnippetCount;

}  // namespace fj
