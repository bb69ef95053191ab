// flamejit — render's terminal: one image's progress on stderr (a bar, JSON
// lines, or nothing) and the lines that report images, printed once their
// files are written, from the image writer's thread while the next image
// renders and its bar is drawn.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <chrono>
#include <mutex>
#include <string>

#include "cli_args.h"
#include "pipeline/renderer.h"

namespace fj::cli {

class Console {
public:
    // Prints `text` (whole lines) on stdout, first clearing a progress bar
    // drawn on stderr; the bar comes back at its next update.
    void print(const std::string& text);

private:
    friend class Progress;
    void clear_bar();  // with mutex_ held

    std::mutex mutex_;
    int bar_width_ = 0;  // characters of the bar on screen; 0: none
};

// Progress of one image on stderr: a bar with ETA (the default on a
// terminal), JSON lines for scripts (one a second at most, then the result),
// or nothing (the default on a pipe).
class Progress {
public:
    enum class Mode { Bar, Json, None };
    Progress(Console& console, Mode mode, std::string label)
        : console_(console), mode_(mode), label_(std::move(label)) {}
    void update(double fraction);
    // Iterated and tone-mapped (the files may still be being written).
    void done(const RenderResult& result);

private:
    Console& console_;
    Mode mode_;
    std::string label_;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
    double next_json_ = 0, last_fraction_ = -1;
};

// --progress's mode: bar on a terminal, none on a pipe, unless asked.
Progress::Mode progress_mode(const ParsedArgs& a);

// `format` as printf would print it, added to `out`.
[[gnu::format(printf, 2, 3)]] void append_format(std::string& out, const char* format, ...);

}  // namespace fj::cli
