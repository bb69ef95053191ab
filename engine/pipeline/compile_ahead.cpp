// SPDX-License-Identifier: GPL-3.0-or-later
#include "pipeline/compile_ahead.h"

#include <exception>
#include <set>
#include <utility>

#include "genome/interpolate.h"
#include "pipeline/temporal_filter.h"

namespace fj {

std::vector<int> structure_signature(const std::vector<Flame>& keyframes, double time, const FrameOptions& options) {
    // The steps prepare_animation_frame takes: the frame time's temporal
    // filter, passes × temporal_samples of them.
    const Flame centre = interpolate(keyframes, time);
    const long long per_pass = options.temporal_samples > 0 ? options.temporal_samples : centre.temporal_samples;
    const long long steps = per_pass * centre.passes;
    if (per_pass < 1 || centre.passes < 1 || steps > kMaxTimeSamples) return {};
    const TemporalSteps filter = make_temporal_steps(static_cast<int>(steps), centre.temporal_filter_type,
                                                     centre.temporal_filter_exp, centre.temporal_filter_width);
    std::set<int> segments;
    for (double offset : filter.offsets) segments.insert(keyframe_segment(keyframes, time + offset));
    std::vector<int> signature = {keyframe_segment(keyframes, time)};
    signature.insert(signature.end(), segments.begin(), segments.end());
    return signature;
}

CompileAhead::CompileAhead(Renderer& renderer, const std::vector<Flame>& keyframes, std::vector<double> times,
                           const FrameOptions& options, int threads)
    : CompileAhead(
          renderer, times.size(),
          [this, &keyframes, times, options](size_t i) -> std::optional<PreparedFrame> {
              const std::vector<int> signature = structure_signature(keyframes, times[i], options);
              {
                  std::lock_guard lock(mutex_);
                  if (signature.empty() || !signatures_.insert(signature).second) return std::nullopt;
              }
              return prepare_animation_frame(keyframes, times[i], options);
          },
          threads) {}

CompileAhead::CompileAhead(Renderer& renderer, std::vector<const Flame*> flames, const FrameOptions& options,
                           int threads)
    : CompileAhead(
          renderer, flames.size(),
          [flames, options](size_t i) -> std::optional<PreparedFrame> { return prepare_still(*flames[i], options); },
          threads) {}

CompileAhead::CompileAhead(Renderer& renderer, size_t count, Prepare prepare, int threads)
    : renderer_(renderer), count_(count), prepare_(std::move(prepare)) {
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { work(); });
}

CompileAhead::~CompileAhead() {
    stop_ = true;
    wait();
}

void CompileAhead::wait() {
    for (std::thread& t : threads_)
        if (t.joinable()) t.join();
}

size_t CompileAhead::kernels() const {
    std::lock_guard lock(mutex_);
    return compiled_;
}

void CompileAhead::work() {
    while (!stop_) {
        size_t item = 0;
        {
            std::lock_guard lock(mutex_);
            if (next_ >= count_) return;
            item = next_++;
        }
        // An item that fails here fails again, with its message, when the
        // render reaches it.
        try {
            const std::optional<PreparedFrame> frame = prepare_(item);
            if (!frame || stop_) continue;
            {
                std::lock_guard lock(mutex_);
                if (!keys_.insert(frame->key.canonical()).second) continue;
            }
            if (!renderer_.compile_ahead(frame->key, frame->layout)) return;  // the CPU compiles nothing
            std::lock_guard lock(mutex_);
            ++compiled_;
        } catch (const std::exception&) {
        }
    }
}

}  // namespace fj
