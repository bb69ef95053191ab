// flamejit — a frame rendered strip by strip into one image file.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "strip_render.h"

#include <chrono>

#include "atomic_file.h"
#include "image/image_stream.h"
#include "sidecar.h"

namespace fj::cli {

StripRender render_strips_to_files(Renderer& renderer, const PreparedFrame& frame, uint64_t seed,
                                   const StripPlan& strips, const std::vector<ImageFile>& files, bool linear,
                                   const std::function<std::vector<FileText>(const RenderResult&)>& describe,
                                   const ProgressFn& progress, const StripStates& states) {
    const auto start = std::chrono::steady_clock::now();
    std::vector<std::unique_ptr<ImageStream>> out;
    for (const ImageFile& file : files)
        out.push_back(open_image_stream(file.path, frame.plan.width, frame.plan.height, file.options, linear));
    StripRender total;
    for (int i = 0; i < strips.count; ++i) {
        if (progress) renderer.set_progress([progress, i, n = strips.count](double f) { progress((i + f) / n); });
        RenderState resumed, saved;
        if (states.load) resumed = states.load(i);
        RenderResult strip = renderer.render_strip(frame, seed, strips, i, states.load ? &resumed : nullptr,
                                                   states.store ? &saved : nullptr);
        if (states.store) states.store(i, saved);
        for (const auto& stream : out) stream->write_rows(strip.image);
        total.iterated += strip.stats.samples;
        if (i == 0) {
            total.result = std::move(strip);
            total.result.image = {};
        } else {
            total.result.stats.seconds += strip.stats.seconds;
            total.result.stats.launches += strip.stats.launches;
            total.result.stats.stand_in_launches += strip.stats.stand_in_launches;
        }
    }
    if (progress) renderer.set_progress(progress);
    total.result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::vector<FileText> texts = describe(total.result);
    for (size_t i = 0; i < files.size(); ++i) out[i]->finish(texts[i].options);
    for (size_t i = 0; i < files.size(); ++i)
        if (!texts[i].sidecar.empty()) write_file_atomically(sidecar_path(files[i].path), texts[i].sidecar);
    return total;
}

std::string describe_strips(const std::string& path, const StripPlan& strips) {
    const bool even = strips.height % strips.count == 0;
    return path + ": " + std::to_string(strips.count) + " strips of " +
           (even ? "" : std::to_string(strips.rows - 1) + " or ") + std::to_string(strips.rows) + " rows, " +
           memory_size(strips.bytes) + " each" +
           (strips.budget > 0 ? " (memory budget " + memory_size(strips.budget) + ")" : "");
}

}  // namespace fj::cli
