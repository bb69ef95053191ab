// SPDX-License-Identifier: GPL-3.0-or-later
#include "console.h"

#include <unistd.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>

#include <nlohmann/json.hpp>


namespace fj::cli {

void Console::print(const std::string& text) {
    std::lock_guard lock(mutex_);
    clear_bar();
    std::fputs(text.c_str(), stdout);
    std::fflush(stdout);
}

void Console::clear_bar() {
    if (bar_width_ == 0) return;
    std::fprintf(stderr, "\r%*s\r", bar_width_, "");
    std::fflush(stderr);
    bar_width_ = 0;
}

void Progress::update(double fraction) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const double eta = fraction > 0.02 ? elapsed * (1 - fraction) / fraction : -1;
    // All iterated: what is left is the post-pass (Renderer's last report).
    const bool post = fraction >= 1.0;
    std::lock_guard lock(console_.mutex_);
    if (mode_ == Mode::Bar) {
        const int width = 30, filled = static_cast<int>(fraction * width);
        std::string bar(filled, '#');
        bar.resize(width, '.');
        int drawn = 0;
        if (post)
            drawn = std::fprintf(stderr, "\r%s [%s] post-pass     ", label_.c_str(), bar.c_str());
        else if (eta >= 0)
            drawn = std::fprintf(stderr, "\r%s [%s] %5.1f%%  ETA %4.0fs ", label_.c_str(), bar.c_str(),
                                 100 * fraction, eta);
        else
            drawn = std::fprintf(stderr, "\r%s [%s] %5.1f%%          ", label_.c_str(), bar.c_str(), 100 * fraction);
        std::fflush(stderr);
        // Cleared as wide as it was drawn, however long the label (the \r
        // counted as one more column).
        console_.bar_width_ = std::max(console_.bar_width_, drawn);
    } else if (mode_ == Mode::Json && (elapsed >= next_json_ || fraction >= 1.0) && fraction > last_fraction_) {
        nlohmann::json line = {{"image", label_}, {"stage", post ? "post-pass" : "iterating"},
                               {"fraction", fraction}, {"elapsed_s", elapsed}};
        if (eta >= 0) line["eta_s"] = eta;
        std::fprintf(stderr, "%s\n", line.dump().c_str());
        std::fflush(stderr);
        next_json_ = elapsed + 1.0;
        last_fraction_ = fraction;
    }
}

void Progress::done(const RenderResult& result) {
    std::lock_guard lock(console_.mutex_);
    console_.clear_bar();
    if (mode_ != Mode::Json) return;
    const nlohmann::json line = {{"image", label_},      {"done", true},
                                 {"samples", result.stats.samples}, {"seconds", result.seconds},
                                 {"backend", result.backend}};
    std::fprintf(stderr, "%s\n", line.dump().c_str());
    std::fflush(stderr);
}

Progress::Mode progress_mode(const ParsedArgs& a) {
    const std::string mode = a.value("progress", isatty(STDERR_FILENO) ? "bar" : "none");
    if (mode == "bar") return Progress::Mode::Bar;
    if (mode == "json") return Progress::Mode::Json;
    if (mode == "none") return Progress::Mode::None;
    throw UsageError("--progress must be bar, json or none");
}

void append_format(std::string& out, const char* format, ...) {
    va_list args, again;
    va_start(args, format);
    va_copy(again, args);
    const int n = std::vsnprintf(nullptr, 0, format, args);
    va_end(args);
    if (n > 0) {
        const size_t at = out.size();
        out.resize(at + static_cast<size_t>(n) + 1);
        std::vsnprintf(out.data() + at, static_cast<size_t>(n) + 1, format, again);
        out.resize(at + static_cast<size_t>(n));
    }
    va_end(again);
}

}  // namespace fj::cli
