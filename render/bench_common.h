// flamejit — pieces the benchmark commands share: list and size options,
// the results header (device, driver, commit, date, command), image error.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "cli_args.h"
#include "pipeline/renderer.h"

namespace fj::cli {

// "a,b,c" → {a, b, c}; throws UsageError for an empty item.
std::vector<std::string> split_list(const std::string& text);
// Sets the output size and scales the camera so the framing stays the same.
void resize_flame(Flame& flame, int width, int height);

// Mean |difference| per RGB sample (0..255 scale) after a 2× box downsample.
double image_error(const ImageF& image, const ImageF& reference);

struct BenchRenderSetup {
    RenderOptions options;     // --backend, --threads, --seed
    std::string backend_name;  // what auto resolved to
};
BenchRenderSetup bench_render_setup(const ParsedArgs& args);

// {"device", "driver", "commit", "date", "command"} for a results file;
// `command` is the subcommand ("bench shuffle"), completed with the options.
nlohmann::json bench_header(const ParsedArgs& args, const std::string& command);

void write_json_file(const std::string& path, const nlohmann::json& value);

int bench_shuffle(const Args& args);
int bench_throughput(const Args& args);

}  // namespace fj::cli
