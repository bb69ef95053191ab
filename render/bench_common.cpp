// SPDX-License-Identifier: GPL-3.0-or-later
#include "bench_common.h"

#include <chrono>
#include <cmath>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "atomic_file.h"
#include "cli_common.h"
#include "cuda/cuda_backend.h"
#include "flamejit_commit.h"
#include "host_info.h"

namespace fj::cli {
namespace {

// The options (sorted) and arguments, as a command line that repeats the run.
std::string command_line(const ParsedArgs& a, const std::string& command) {
    std::string out = "flamejit " + command;
    for (const auto& f : a.flags) out += " --" + f;
    for (const auto& [k, v] : a.values) out += " --" + k + " " + v;
    for (const auto& p : a.positional) out += " " + p;
    return out;
}

}  // namespace

std::vector<std::string> split_list(const std::string& text) {
    std::vector<std::string> out;
    std::stringstream in(text);
    std::string item;
    while (std::getline(in, item, ',')) {
        if (item.empty()) throw UsageError("empty item in the list \"" + text + "\"");
        out.push_back(item);
    }
    // getline drops an empty last item.
    if (out.empty() || text.back() == ',') throw UsageError("empty item in the list \"" + text + "\"");
    return out;
}

void resize_flame(Flame& flame, int width, int height) {
    flame.scale *= static_cast<double>(width) / flame.width;
    flame.width = width;
    flame.height = height;
}

double image_error(const ImageF& image, const ImageF& reference) {
    if (image.width != reference.width || image.height != reference.height)
        throw std::runtime_error("image_error: sizes differ");
    const int w = image.width / 2, h = image.height / 2;
    double sum = 0;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            for (int c = 0; c < 3; ++c) {
                double d = 0;
                for (int dy = 0; dy < 2; ++dy)
                    for (int dx = 0; dx < 2; ++dx) {
                        const size_t i = (static_cast<size_t>(2 * y + dy) * image.width + 2 * x + dx) * 4 + c;
                        d += std::clamp(image.rgba[i], 0.0f, 255.0f) - std::clamp(reference.rgba[i], 0.0f, 255.0f);
                    }
                sum += std::abs(d) / 4;
            }
    return sum / (3.0 * w * h);
}

BenchRenderSetup bench_render_setup(const ParsedArgs& a) {
    BenchRenderSetup s;
    if (!parse_backend_choice(a.value("backend", "auto"), &s.options.backend))
        throw UsageError("--backend must be auto, cuda or cpu");
    s.options.threads = static_cast<int>(a.integer("threads", 0));
    if (s.options.threads < 0 || s.options.threads > 4096) throw UsageError("--threads must be in 0..4096");
    s.options.seed = seed_from(a, 1);
    s.options.max_blocks_per_sm = blocks_per_sm_from(a);
    s.backend_name = Renderer(s.options).backend_name();
    return s;
}

nlohmann::json bench_header(const ParsedArgs& a, const std::string& command) {
    nlohmann::json h;
    std::string why_not;
    if (a.value("backend", "auto") != "cpu" && cuda_available(&why_not)) {
        const CudaSystemInfo sys = describe_devices();
        h["device"] = sys.devices.empty() ? "no device" : sys.devices[0].name;
        h["driver"] = std::to_string(sys.driver_version / 1000) + "." + std::to_string(sys.driver_version % 1000 / 10);
        const std::string module = nvidia_driver_version();
        h["nvidia_driver"] = module.empty() ? nlohmann::json(nullptr) : nlohmann::json(module);
    } else {
        h["device"] = cpu_model() + " (" + std::to_string(std::thread::hardware_concurrency()) + " hardware threads)";
        h["driver"] = nullptr;
    }
    h["cpu"] = cpu_model();
    h["commit"] = FLAMEJIT_COMMIT;
    h["date"] = utc_timestamp();
    h["command"] = command_line(a, command);
    h["flamejit_version"] = FLAMEJIT_VERSION;
    return h;
}

void write_json_file(const std::string& path, const nlohmann::json& value) {
    write_file_atomically(path, value.dump(2) + "\n");
}

}  // namespace fj::cli
