// flamejit — what the post-pass's compaction of non-empty cells saves: operation counts, and GPU times.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The GPU post-pass (engine/post/post_cuda.cu) first compacts the indices of
// non-empty histogram cells with cub::DeviceSelect, then runs log scaling or
// density estimation on those cells only; the spatial filter and tone mapping
// run once per output pixel. This tool iterates a genome (CPU backend, or
// CUDA with --cuda: the same histogram either way), then counts what each
// pass does with and without the compaction, so the effect can be stated on
// machines without a GPU:
//
//   cells            histogram cells (supersampled image plus gutter)
//   non-empty        cells with alpha > 0: the threads the compacted pass runs
//   splat taps       kernel taps the DE pass visits (the same either way)
//   filter windows   output pixels, and those whose filter window holds no
//                    non-zero cell after DE (a further pass could skip them)
//
// With --cuda it also times the whole CUDA post-pass (the compaction and the
// filter's skipping of empty tiles, or a thread per cell and every pixel
// filtered: PostPlan::compact_cells; scaling, filter, tone, the image's copy
// to the host) on that histogram, --repeat times each way, alternating,
// after one warm-up each, and prints the medians and their ratio; --json
// FILE writes them with the device, driver, commit and command.
//
//   post_cost GENOME… [--quality Q] [--threads N] [--seed S] [--cuda] [--repeat N] [--json FILE]
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "atomic_file.h"
#include "cpu/cpu_backend.h"
#include "cuda/cuda_backend.h"
#include "genome/flam3_reader.h"
#include "host_info.h"
#include "median.h"
#include "pipeline/prepared_frame.h"
#include "post/post_params.h"

namespace {

struct Counts {
    long long cells = 0, nonempty = 0;
    long long splat_taps = 0;        // DE tap visits (square of radius ceil(h) - 1 per cell)
    long long filter_pixels = 0, empty_windows = 0;
    long long filter_taps = 0;       // per output pixel
    bool density = false;
};

Counts count_post(const fj::PostPlan& plan, std::span<const float> accum) {
    Counts c;
    const int w = plan.hist_width, h = plan.hist_height, os = plan.supersample;
    c.cells = static_cast<long long>(w) * h;
    c.density = fj::uses_density_estimation(plan);
    // Cells the scaled buffer holds non-zero: the non-empty cells, spread by
    // their DE kernel when density estimation is on.
    std::vector<unsigned char> filled(static_cast<size_t>(c.cells), 0);
    const fj::DensitySelect sel = fj::density_select(plan);
    const int half = plan.density.half_width, row = 2 * half + 1;
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            if (accum[4 * (static_cast<size_t>(y) * w + x) + 3] <= 0.0f) continue;
            if (!c.density) {
                ++c.nonempty;
                filled[static_cast<size_t>(y) * w + x] = 1;
                continue;
            }
            if (y < os - 1 || y >= h - (os - 1) || x < os - 1 || x >= w - (os - 1)) continue;  // flam3's border
            ++c.nonempty;
            const int k = fj::de_kernel_index(fj::density_around(accum.data() + 3, 4, w, x, y, os), sel);
            const int r = fj::de_splat_radius(static_cast<float>(plan.density.widths[k]));
            c.splat_taps += static_cast<long long>(2 * r + 1) * (2 * r + 1);
            const float* coef = plan.density.coefs.data() + static_cast<size_t>(k) * row * row;
            for (int dy = -r; dy <= r; ++dy)
                for (int dx = -r; dx <= r; ++dx) {
                    const int ty = y + dy, tx = x + dx;
                    if (ty < 0 || ty >= h || tx < 0 || tx >= w || coef[(dy + half) * row + dx + half] == 0.0f) continue;
                    filled[static_cast<size_t>(ty) * w + tx] = 1;
                }
        }
    // Summed-area table of `filled`, to test every filter window at once.
    std::vector<long long> sat(static_cast<size_t>(w + 1) * (h + 1), 0);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x)
            sat[static_cast<size_t>(y + 1) * (w + 1) + x + 1] = filled[static_cast<size_t>(y) * w + x] +
                                                                 sat[static_cast<size_t>(y) * (w + 1) + x + 1] +
                                                                 sat[static_cast<size_t>(y + 1) * (w + 1) + x] -
                                                                 sat[static_cast<size_t>(y) * (w + 1) + x];
    const int fw = plan.filter.width;
    c.filter_taps = static_cast<long long>(fw) * fw;
    c.filter_pixels = static_cast<long long>(plan.width) * plan.height;
    for (int py = 0; py < plan.height; ++py)
        for (int px = 0; px < plan.width; ++px) {
            const int x0 = plan.de_offset + px * os, y0 = plan.de_offset + py * os;
            const long long sum = sat[static_cast<size_t>(y0 + fw) * (w + 1) + x0 + fw] - sat[static_cast<size_t>(y0) * (w + 1) + x0 + fw] -
                                  sat[static_cast<size_t>(y0 + fw) * (w + 1) + x0] + sat[static_cast<size_t>(y0) * (w + 1) + x0];
            if (sum == 0) ++c.empty_windows;
        }
    return c;
}

int usage() {
    std::fputs("usage: post_cost GENOME... [--quality Q] [--threads N] [--seed S] [--cuda] [--repeat N] [--json FILE]\n",
               stderr);
    return 2;
}

struct Options {
    std::vector<std::string> genomes;
    double quality = 0;
    int threads = 0;
    unsigned long long seed = 1;
    bool cuda = false;
    int repeat = 9;
    std::string json;
};

using fj::tools::median;

// The whole post-pass on the backend's histogram, `repeat` times with and
// without the compaction, alternating (after one of each to warm up):
// median seconds of each.
std::pair<double, double> time_post(fj::Backend& backend, const fj::PostPlan& plan, int repeat) {
    fj::PostPlan whole = plan;
    whole.compact_cells = false;
    std::vector<double> with, without;
    for (int i = -1; i < repeat; ++i)
        for (const fj::PostPlan* p : {&plan, static_cast<const fj::PostPlan*>(&whole)}) {
            const auto start = std::chrono::steady_clock::now();
            backend.post_process(*p);
            const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            if (i >= 0) (p == &plan ? with : without).push_back(s);
        }
    return {median(with), median(without)};
}

nlohmann::ordered_json report(const Options& o, const std::string& genome) {
    const fj::Flame flame = fj::read_flam3_file(genome).at(0);
    fj::FrameOptions options;
    options.quality = o.quality;
    const fj::PreparedFrame frame = fj::prepare_still(flame, options);
    std::unique_ptr<fj::Backend> backend = o.cuda ? fj::make_cuda_backend({}) : fj::make_cpu_backend({o.threads});
    backend->begin_frame(frame.plan);
    fj::IterationRequest req;
    req.flame = &frame.post_flame;
    req.key = &frame.key;
    req.layout = &frame.layout;
    req.plan = &frame.plan;
    req.steps = {{&frame.samples.at(0).params, frame.samples.at(0).samples}};
    req.seed = o.seed;
    const fj::IterationStats stats = backend->iterate(req);
    const fj::PostPlan plan = fj::make_post_plan(frame.post_flame, frame.plan);
    const std::vector<float> accum = o.cuda ? fj::cuda_download_accumulator(*backend) : std::vector<float>{};
    const Counts c = count_post(plan, o.cuda ? std::span<const float>(accum) : fj::cpu_accumulator(*backend));

    const double frac = double(c.nonempty) / double(c.cells);
    std::printf("%s: %dx%d, supersample %d, quality %g, %llu samples (%.2f s on the %s)\n", genome.c_str(), plan.width,
                plan.height, plan.supersample, frame.plan.sample_density, static_cast<unsigned long long>(stats.samples),
                stats.seconds, o.cuda ? "GPU" : "CPU");
    std::printf("  histogram cells         %12lld (%d x %d)\n", c.cells, plan.hist_width, plan.hist_height);
    std::printf("  non-empty cells         %12lld (%.2f %%)\n", c.nonempty, 100 * frac);
    std::printf("  %s pass threads: %lld without compaction, %lld with (%.1fx fewer); the compaction itself reads %lld alphas\n",
                c.density ? "density-estimation" : "log-scale", c.cells, c.nonempty, double(c.cells) / std::max(1LL, c.nonempty),
                c.cells);
    if (c.density)
        std::printf("  DE splat tap visits     %12lld (%.1f per non-empty cell; the same with or without compaction)\n",
                    c.splat_taps, double(c.splat_taps) / std::max(1LL, c.nonempty));
    std::printf("  filter+tone pixels      %12lld x %lld taps; windows with no non-zero cell %lld (%.2f %%)\n", c.filter_pixels,
                c.filter_taps, c.empty_windows, 100.0 * c.empty_windows / std::max(1LL, c.filter_pixels));
    nlohmann::ordered_json j = {{"genome", std::filesystem::path(genome).filename().string()},
                                {"width", plan.width},
                                {"height", plan.height},
                                {"supersample", plan.supersample},
                                {"quality", frame.plan.sample_density},
                                {"density_estimation", c.density},
                                {"cells", c.cells},
                                {"nonempty_cells", c.nonempty},
                                {"splat_taps", c.splat_taps},
                                {"empty_filter_windows", c.empty_windows}};
    if (o.cuda) {
        const auto [with, without] = time_post(*backend, plan, o.repeat);
        std::printf("  CUDA post-pass, median of %d: %.2f ms skipping empty cells and tiles, %.2f ms without (%.2fx)\n", o.repeat,
                    1e3 * with, 1e3 * without, without / with);
        j["post_s_compacted"] = with;
        j["post_s_uncompacted"] = without;
        j["uncompacted_over_compacted"] = without / with;
    }
    return j;
}

}  // namespace

int main(int argc, char** argv) {
    Options o;
    for (int i = 1; i < argc; ++i) {
        const std::string flag = argv[i];
        const bool has_value = i + 1 < argc;
        if (flag == "--cuda") o.cuda = true;
        else if (flag == "--quality" && has_value) o.quality = std::atof(argv[++i]);
        else if (flag == "--threads" && has_value) o.threads = std::atoi(argv[++i]);
        else if (flag == "--seed" && has_value) o.seed = std::strtoull(argv[++i], nullptr, 10);
        else if (flag == "--repeat" && has_value) o.repeat = std::max(1, std::atoi(argv[++i]));
        else if (flag == "--json" && has_value) o.json = argv[++i];
        else if (flag.rfind("--", 0) == 0) return usage();
        else o.genomes.push_back(flag);
    }
    if (o.genomes.empty()) return usage();
    try {
        nlohmann::ordered_json rows = nlohmann::ordered_json::array();
        for (const std::string& g : o.genomes) rows.push_back(report(o, g));
        if (!o.json.empty()) {
            std::string device = "CPU: " + fj::cpu_model();
            if (o.cuda) {
                const fj::CudaSystemInfo info = fj::describe_devices();
                device = info.devices.empty() ? "unknown" : info.devices[0].name;
            }
            const fj::SourceRevision revision = fj::source_revision();
            const nlohmann::ordered_json out = {{"device", device},
                                                {"driver", fj::nvidia_driver_version()},
                                                {"commit", revision.commit + (revision.dirty ? " (with local changes)" : "")},
                                                {"date", fj::utc_timestamp()},
                                                {"command", fj::command_line(argc, argv)},
                                                {"repeat", o.repeat},
                                                {"genomes", rows}};
            fj::write_file_atomically(o.json, out.dump(2) + "\n");
        }
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "post_cost: %s\n", e.what());
        return 1;
    }
}
