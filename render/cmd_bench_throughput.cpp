// flamejit bench throughput — iterations per second per genome, against the
// atomic and compute ceilings measured in the same run, and flam3-render.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <thread>
#include <unistd.h>

#include "analysis/hit_sample.h"
#include "bench_common.h"
#include "cli_common.h"
#include "codegen/param_layout.h"
#include "cuda/cuda_backend.h"
#include "cpu/cpu_backend.h"
#include "cpu/hit_buffer.h"
#include "elapsed.h"
#include "huge_pages.h"
#include "image/png_io.h"
#include "pipeline/frame_plan.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit bench throughput [GENOME…] [options]\n"
    "\n"
    "Renders each genome and reports iterations/s, the kernel's compile (or cache\n"
    "load) time, the frame time without it split into iterate / post-pass / PNG,\n"
    "the kernel's registers and occupancy, and ceilings measured in the same run:\n"
    "the atomic ceiling (unit hits to uniformly random cells of the same\n"
    "accumulator; atomic/s), the same with the genome's own hit distribution\n"
    "(cells drawn from the hits of a render at a tenth of the quality; hits/s),\n"
    "and the compute ceiling (the same kernel with its adds taken out: every\n"
    "hit's cell and colour still computed, as if accumulating were free). The\n"
    "ratio is to the lower of the last two.\n"
    "\n"
    "options:\n"
    "  --size WxH        default 1920x1080 (the camera keeps its framing)\n"
    "  --quality Q       samples per pixel, default 100\n"
    "  --backend B       auto (default), cuda or cpu\n"
    "  --threads N       CPU backend threads (default all cores)\n"
    "  --shuffle S, --block N, --accumulate A   kernel options, as for render (A: atomic,\n"
    "                    scalar, warp, shared, packed; packed is lossy in hot cells)\n"
    "  --blocks-per-sm N N resident blocks per SM, at most what the occupancy allows (CUDA;\n"
    "                    default: chosen per frame, as for render)\n"
    "  --kernel K        specialized (default), linked (each xform a program of its own,\n"
    "                    compiled in parallel and linked), switch (every variation behind a\n"
    "                    switch, the design's reference; CUDA backend only) or auto (as for\n"
    "                    render: compile is then the time to the first launch; the compute\n"
    "                    ceiling is the specialized kernel's)\n"
    "  --linked-registers N   a linked kernel's registers per thread, as for render\n"
    "  --arch sm_XX      NVRTC target (default: the device's)\n"
    "  --flam3           also time flam3-render (all cores) on the same genome, size and quality\n"
    "  --seed N          default 1\n"
    "  --flame I, --palettes FILE, --drop-unknown   as for render\n"
    "  --json FILE       write the results as JSON\n";

// The CPU backend's accumulation alone: each thread adds unit hits to
// uniformly random cells of a private histogram (or to the cells of
// `cell_list`, a sample of the genome's hits in random order, each thread a
// stretch of it in turn), through the backend's own hit path
// (cpu/hit_buffer.h: private packed words on huge pages, a round of 32 hits
// prefetched while the previous one is added).
double cpu_atomic_ceiling(const FramePlan& plan, int threads, uint64_t adds, const std::vector<uint32_t>& cell_list) {
    const size_t cells = static_cast<size_t>(plan.hist_width) * plan.hist_height;
    const uint64_t per_thread = std::max<uint64_t>(1, adds / threads);
    const float one[4] = {1.0f, 1.0f, 1.0f, 1.0f};
    const u64 unit = cpu::hit_word(one);
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            ZeroedArray<float> grid(cells * 4);
            ZeroedArray<u64> words(cells);
            cpu::HitBuffer hits({grid.data(), words.data(), nullptr, false});
            Rng rng = make_rng(1, t);
            for (uint64_t i = 0; i < per_thread; ++i) {
                const long long cell = cell_list.empty() ? next_u32(rng) % cells
                                                         : cell_list[(t * per_thread + i) % cell_list.size()];
                hits.add(cell, unit, 0.0f);
                if (i % cpu::HitBuffer::kCapacity == cpu::HitBuffer::kCapacity - 1) hits.end_round();
            }
            hits.flush_all();
        });
    for (auto& t : pool) t.join();
    return static_cast<double>(per_thread) * threads / std::max(seconds_since(t0), 1e-9);
}

// Uniformly random cells, or with `cell_list` the genome's hit distribution.
double atomic_ceiling(const Flame& flame, const RenderOptions& options, const std::string& backend,
                      const std::vector<uint32_t>& cell_list = {}) {
    const FramePlan plan = plan_frame(flame);
    if (backend != "cuda") {
        const int threads = options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        return cpu_atomic_ceiling(plan, threads, plan.samples, cell_list);
    }
    KernelOptions kopt = options.kernel;
    KernelKey key = make_kernel_key(flame, kopt);
    key.atomic_ceiling = true;
    const ParamLayout layout = make_param_layout(key, VariationRegistry::standard());
    CudaBackendOptions cuda;
    cuda.device = options.devices.front();
    cuda.max_blocks_per_sm = options.max_blocks_per_sm;
    auto b = make_cuda_backend(cuda);
    b->begin_frame(plan);
    IterationRequest req;
    req.flame = &flame;
    req.key = &key;
    req.layout = &layout;
    req.plan = &plan;
    req.seed = options.seed;
    return cuda_atomic_ceiling(*b, req, plan.samples, cell_list);
}

// 2^20 cells drawn from the hits of a render of `flame` at a tenth of its
// quality; empty where the frame has no one histogram to read (several
// passes or time samples).
std::vector<uint32_t> genome_hit_sample(const Flame& flame, const RenderOptions& options) {
    Flame sampled = flame;
    sampled.quality = std::max(1.0, flame.quality / 10);
    Renderer renderer(options);
    RenderState state;
    try {
        renderer.render(prepare_still(sampled, renderer.frame_options()), options.seed, nullptr, &state);
    } catch (const InputError&) {
        return {};
    }
    return hit_sample(state.rgba, size_t{1} << 20);
}

// flam3-render on the same genome, size and quality: whole-process seconds.
// Only for one-flame files, since flam3-render renders every flame of a file.
double time_flam3(const std::string& genome_path, const Flame& original, int width, double quality,
                  const std::string& out_dir) {
    const std::string out = out_dir + "/flam3.png";
    char env[512];
    std::snprintf(env, sizeof env, "env in='%s' out='%s' ss=%.9g qs=%.9g nthreads=%u verbose=0 flam3-render >/dev/null 2>&1",
                  genome_path.c_str(), out.c_str(), static_cast<double>(width) / original.width, quality / original.quality,
                  std::max(1u, std::thread::hardware_concurrency()));
    const auto t0 = std::chrono::steady_clock::now();
    if (std::system(env) != 0) return -1;
    return seconds_since(t0);
}

}  // namespace

int bench_throughput(const Args& args) {
    const ParsedArgs a = parse_args(args,
                                    {"size", "quality", "backend", "threads", "shuffle", "block", "blocks-per-sm", "accumulate", "arch",
                                     "kernel", "linked-registers", "seed", "json", "flame", "palettes"},
                                    {"flam3", "help", "h", "drop-unknown"});
    if (a.has("help") || a.has("h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (a.has("json")) check_output("--json", a.value("json"));
    const auto [width, height] = parse_size(a.value("size", "1920x1080"), 8, 16384);
    const double quality = a.number("quality", 100);
    if (!(quality > 0)) throw UsageError("--quality must be positive");
    BenchRenderSetup setup = bench_render_setup(a);
    setup.options.kernel = kernel_options_from(a);
    const std::string tmp = (std::filesystem::temp_directory_path() / ("flamejit-bench-" + std::to_string(::getpid()))).string();
    std::filesystem::create_directories(tmp);

    std::vector<std::string> files = a.positional;
    if (files.empty()) files.push_back("");  // the bundled genome
    nlohmann::json rows = nlohmann::json::array();
    std::printf("%-16s %10s %10s %10s %10s %6s %8s %8s %8s %8s %8s %5s %5s %9s\n", "genome", "iter/s", "atomic/s",
                "hits/s", "compute/s", "ratio", "compile", "iterate", "post", "png", "frame", "regs", "blk", "flam3 x");
    for (const std::string& file : files) {
        ParsedArgs one = a;
        one.positional = file.empty() ? std::vector<std::string>{} : std::vector<std::string>{file};
        const GenomeInput input = load_genomes(one);
        for (int index : input.selected) {
            const Flame original = input.flames[index];
            Flame flame = original;
            resize_flame(flame, width, height);
            flame.quality = quality;
            std::string name = std::filesystem::path(input.label).stem().string();
            if (input.selected.size() > 1) name += '#' + std::to_string(index);

            Renderer renderer(setup.options);
            const RenderResult r = renderer.render(flame);
            const auto png_start = std::chrono::steady_clock::now();
            ImageOptions png;
            png.threads = png_threads(1);  // as render writes it
            write_png(tmp + "/frame.png", r.image, png);
            const double png_s = seconds_since(png_start);
            const double iter_rate = r.stats.samples / std::max(r.stats.seconds, 1e-9);

            RenderOptions compute_options = setup.options;
            compute_options.kernel.accumulation = Accumulation::None;
            // The ceiling is the specialized kernel's, whatever the render ran.
            compute_options.kernel.start_linked = false;
            const RenderResult c = Renderer(compute_options).render(flame);
            const double compute_rate = c.stats.samples / std::max(c.stats.seconds, 1e-9);
            const double atomic_rate = atomic_ceiling(flame, setup.options, r.backend);
            // With the genome's own hit distribution, where it has one: the
            // ceiling the ratio is taken to, since hits that crowd a few cells
            // wait for each other's atomics however the kernel is written.
            const std::vector<uint32_t> hits = genome_hit_sample(flame, setup.options);
            const double hits_rate = hits.empty() ? -1 : atomic_ceiling(flame, setup.options, r.backend, hits);
            const double atomic_used = hits_rate > 0 ? hits_rate : atomic_rate;
            const double ceiling = std::min(atomic_used, compute_rate);

            double flam3_s = -1;
            if (a.has("flam3") && !file.empty() && input.flames.size() == 1)
                flam3_s = time_flam3(file, original, width, quality, tmp);
            // The frame without the compile (or cache load), which a sequence
            // of frames of one structure pays once; flam3's whole process
            // against ours with it.
            const double frame_s = r.seconds - r.prepare_seconds + png_s;
            const double ours_s = r.seconds + png_s;
            std::printf("%-16s %10.3g %10.3g %10.3g %10.3g %6.2f %8.3f %8.3f %8.3f %8.3f %8.3f %5d %5d %9s\n",
                        name.c_str(), iter_rate, atomic_rate, hits_rate, compute_rate, iter_rate / ceiling,
                        r.prepare_seconds, r.stats.seconds,
                        r.post_seconds, png_s, frame_s, r.stats.registers, r.stats.blocks_per_sm,
                        flam3_s > 0 ? std::to_string(flam3_s / ours_s).substr(0, 6).c_str() : "-");
            std::fflush(stdout);
            rows.push_back({{"name", name},
                            {"backend", r.backend},
                            {"shuffle", to_string(r.shuffle)},
                            {"samples", r.stats.samples},
                            {"iterations_per_s", iter_rate},
                            {"atomic_ceiling_per_s", atomic_rate},
                            {"atomic_ceiling_hits_per_s", hits_rate > 0 ? nlohmann::json(hits_rate) : nlohmann::json(nullptr)},
                            {"compute_ceiling_per_s", compute_rate},
                            {"ceiling_iterations_per_s", ceiling},
                            {"ratio_to_ceiling", iter_rate / ceiling},
                            {"limited_by", atomic_used < compute_rate ? "atomics" : "compute"},
                            {"compile_s", r.prepare_seconds},
                            // 0: compile_s was a load from the kernel cache.
                            {"kernels_compiled", renderer.kernels_compiled()},
                            {"iterate_s", r.stats.seconds},
                            {"launches", r.stats.launches},
                            {"stand_in_launches", r.stats.stand_in_launches},
                            {"post_s", r.post_seconds},
                            {"png_s", png_s},
                            {"frame_s", frame_s},
                            {"registers", r.stats.registers},
                            {"blocks_per_sm", r.stats.blocks_per_sm},
                            {"threads", r.stats.threads},
                            {"packed_carries", r.stats.packed_carries},
                            {"cache_slots", r.stats.cache_slots},
                            {"flam3_render_s", flam3_s > 0 ? nlohmann::json(flam3_s) : nlohmann::json(nullptr)},
                            {"speedup_vs_flam3", flam3_s > 0 ? nlohmann::json(flam3_s / ours_s) : nlohmann::json(nullptr)}});
        }
    }
    std::filesystem::remove_all(tmp);
    if (a.has("json")) {
        nlohmann::json out = bench_header(a, "bench throughput");
        out["backend"] = setup.backend_name;
        out["size"] = {width, height};
        out["quality"] = quality;
        out["shuffle"] = shuffle_asked(setup.options.kernel);
        out["block"] = setup.options.kernel.block_size;
        out["accumulate"] = to_string(setup.options.kernel.accumulation);
        out["kernel"] = setup.options.kernel.start_linked ? "auto" : to_string(setup.options.kernel.form);
        if (setup.options.kernel.start_linked || setup.options.kernel.form == KernelForm::Linked)
            out["linked_registers"] = setup.options.kernel.linked_registers;
        out["genomes"] = rows;
        write_json_file(a.value("json"), out);
    }
    return 0;
}

}  // namespace fj::cli
