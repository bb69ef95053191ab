// flamejit bench shuffle — the shuffle strategies side by side: simulated
// trajectory statistics, and image error per sample and per second.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/shuffle_simulation.h"
#include "atomic_file.h"
#include "bench_common.h"
#include "cli_common.h"
#include "pipeline/renderer.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit bench shuffle --simulate [--transforms N] [--warp W] [--block T[,T…]] [--json FILE]\n"
    "       flamejit bench shuffle [GENOME…] [options] [--json FILE] [--plot FILE.svg]\n"
    "\n"
    "--simulate runs the kernels' selection and exchange on labels for N equally\n"
    "weighted transforms and reports, per strategy, the probability that two points\n"
    "of a block applied the same last l transforms (l = 1, 2, 4, 8) next to the\n"
    "analytic model, the fraction of distinct trajectories, and the distinct\n"
    "transforms a warp applies per round (its cost in transform runs).\n"
    "\n"
    "Otherwise each genome is rendered once as a reference (divergent, many samples)\n"
    "and then by every strategy at increasing quality; the table gives the image\n"
    "error against the reference (mean |difference| per 8-bit RGB sample after a\n"
    "2× box downsample), the iteration time and samples/s.\n"
    "\n"
    "options:\n"
    "  --transforms N         simulation: equally weighted transforms, default 8\n"
    "  --warp W               simulation: lanes per warp, default 32\n"
    "  --strategies LIST      default none,ring,full,divergent; sorted may be added\n"
    "  --block LIST           threads per block, default 256 (simulation: 256,512)\n"
    "  --size WxH             render size, default 320x240 (the camera keeps its framing)\n"
    "  --qualities LIST       samples per pixel, default 5,10,20,40\n"
    "  --reference-quality Q  default 400\n"
    "  --no-de                density estimation off, so the error measures sampling noise\n"
    "                         (DE widens its kernel where hits are few, which favours\n"
    "                         clumped hits at low quality)\n"
    "  --backend B            auto (default), cuda or cpu\n"
    "  --threads N            CPU backend threads (default all cores)\n"
    "  --seed N               default 1\n"
    "  --flame I, --palettes FILE, --drop-unknown   as for render\n"
    "  --json FILE            write the results as JSON\n"
    "  --plot FILE.svg        plot of error against iteration time per strategy\n";

std::vector<int> int_list(const ParsedArgs& a, const std::string& name, const std::string& fallback) {
    std::vector<int> out;
    for (const std::string& item : split_list(a.value(name, fallback))) {
        char* end = nullptr;
        const long v = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end) throw UsageError("--" + name + " must be a comma-separated list of integers");
        out.push_back(static_cast<int>(v));
    }
    return out;
}

int simulate(const ParsedArgs& a) {
    const int transforms = static_cast<int>(a.integer("transforms", 8));
    const int warp = static_cast<int>(a.integer("warp", 32));
    if (transforms < 1 || transforms > 255) throw UsageError("--transforms must be in 1..255");
    if (warp < 1 || warp > 1024) throw UsageError("--warp must be in 1..1024");
    const std::vector<int> blocks = int_list(a, "block", "256,512");
    for (int block : blocks)
        if (block < 2 * warp || block % warp)
            throw UsageError("--block " + std::to_string(block) + " and --warp " + std::to_string(warp) +
                             ": a block must hold two or more whole warps");
    nlohmann::json rows = nlohmann::json::array();
    std::printf("%-18s %5s %4s %3s  %-23s %-23s %-23s %-23s %-8s %s\n", "strategy", "block", "warp", "N",
                "P(l=1) sim / model", "P(l=2) sim / model", "P(l=4) sim / model", "P(l=8) sim / model",
                "distinct", "xforms/warp");
    for (int block : blocks) {
        for (SimulatedStrategy s : {SimulatedStrategy::Divergent, SimulatedStrategy::None, SimulatedStrategy::Ring,
                                    SimulatedStrategy::Full, SimulatedStrategy::RingFixedOffset,
                                    SimulatedStrategy::Sorted}) {
            ShuffleSimulationConfig c;
            c.strategy = s;
            c.transforms = transforms;
            c.warp = warp;
            c.block = block;
            const ShuffleSimulationResult r = simulate_shuffle(c);
            std::printf("%-18s %5d %4d %3d ", to_string(s), block, warp, transforms);
            nlohmann::json p, model;
            for (size_t i = 0; i < kSubsequenceLengths.size(); ++i) {
                const int l = kSubsequenceLengths[i];
                const double m = model_p_identical(s, transforms, warp, block, l);
                std::printf(" %10.4g / %-10.4g", r.p_identical[i], m);
                p[std::to_string(l)] = r.p_identical[i];
                model[std::to_string(l)] = std::isnan(m) ? nlohmann::json(nullptr) : nlohmann::json(m);
            }
            std::printf(" %-8.4f %.3f\n", r.distinct_trajectories, r.xforms_per_warp);
            rows.push_back({{"strategy", to_string(s)},
                            {"block", block},
                            {"warp", warp},
                            {"transforms", transforms},
                            {"p_identical", p},
                            {"p_identical_model", model},
                            {"distinct_trajectories", r.distinct_trajectories},
                            {"xforms_per_warp", r.xforms_per_warp},
                            {"blocks_simulated", c.blocks},
                            {"rounds_measured", c.rounds}});
        }
    }
    if (a.has("json")) {
        nlohmann::json out = bench_header(a, "bench shuffle");
        out["simulation"] = rows;
        write_json_file(a.value("json"), out);
    }
    return 0;
}

struct Measurement {
    std::string genome, strategy;
    int block = 0;
    double quality = 0, error = 0, seconds = 0, samples = 0;
};

// Error against time, one polyline per strategy and block, log-log axes.
void write_plot(const std::string& path, const std::vector<Measurement>& rows) {
    double t0 = 1e300, t1 = 0, e0 = 1e300, e1 = 0;
    for (const auto& m : rows) {
        t0 = std::min(t0, m.seconds), t1 = std::max(t1, m.seconds);
        e0 = std::min(e0, m.error), e1 = std::max(e1, m.error);
    }
    std::vector<std::string> series;
    for (const auto& m : rows) {
        const std::string key = m.genome + " " + m.strategy + " " + std::to_string(m.block);
        if (std::find(series.begin(), series.end(), key) == series.end()) series.push_back(key);
    }
    // Tall enough for the legend: one line per series.
    const double W = 640, H = std::max(420.0, 40.0 + 16.0 * series.size()), L = 70, R = 170, T = 20, B = 50;
    auto px = [&](double t) { return L + (std::log(t) - std::log(t0)) / std::max(1e-9, std::log(t1) - std::log(t0)) * (W - L - R); };
    auto py = [&](double e) { return H - B - (std::log(e) - std::log(e0)) / std::max(1e-9, std::log(e1) - std::log(e0)) * (H - T - B); };
    const char* colours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"};
    char buf[512];
    std::snprintf(buf, sizeof buf,
                  "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%g\" height=\"%g\" font-family=\"sans-serif\" "
                  "font-size=\"12\">\n<rect width=\"%g\" height=\"%g\" fill=\"white\"/>\n",
                  W, H, W, H);
    std::string svg = buf;
    std::snprintf(buf, sizeof buf,
                  "<line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"black\"/><line x1=\"%g\" y1=\"%g\" x2=\"%g\" y2=\"%g\" stroke=\"black\"/>\n"
                  "<text x=\"%g\" y=\"%g\">iteration time (s, log) %.3g … %.3g</text>\n"
                  "<text x=\"12\" y=\"%g\" transform=\"rotate(-90 12 %g)\">error vs reference (log) %.3g … %.3g</text>\n",
                  L, H - B, W - R, H - B, L, T, L, H - B, L, H - 15, t0, t1, H / 2 + 60, H / 2 + 60, e0, e1);
    svg += buf;
    for (size_t i = 0; i < series.size(); ++i) {
        std::string points;
        for (const auto& m : rows)
            if (m.genome + " " + m.strategy + " " + std::to_string(m.block) == series[i]) {
                std::snprintf(buf, sizeof buf, "%.1f,%.1f ", px(m.seconds), py(m.error));
                points += buf;
            }
        const char* colour = colours[i % 8];
        std::snprintf(buf, sizeof buf,
                      "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"/>\n"
                      "<text x=\"%g\" y=\"%g\" fill=\"%s\">%s</text>\n",
                      colour, points.c_str(), W - R + 8, T + 16.0 * (i + 1), colour, series[i].c_str());
        svg += buf;
    }
    svg += "</svg>\n";
    write_file_atomically(path, svg);
}

int render_strategies(const ParsedArgs& a) {
    std::vector<Shuffle> strategies;
    for (const std::string& name : split_list(a.value("strategies", "none,ring,full,divergent"))) {
        Shuffle s;
        if (!parse_shuffle(name, &s)) throw UsageError("unknown strategy '" + name + "' in --strategies");
        strategies.push_back(s);
    }
    const std::vector<int> blocks = int_list(a, "block", "256");
    for (int b : blocks)
        if (b < 128 || b > 1024 || b % 32) throw UsageError("--block sizes must be multiples of 32 in 128..1024");
    std::vector<double> qualities;
    for (int q : int_list(a, "qualities", "5,10,20,40")) {
        if (q <= 0) throw UsageError("--qualities must be positive");
        qualities.push_back(q);
    }
    const double reference_quality = a.number("reference-quality", 400);
    if (!(reference_quality > 0)) throw UsageError("--reference-quality must be positive");
    const auto [width, height] = parse_size(a.value("size", "320x240"), 8, 16384);
    BenchRenderSetup setup = bench_render_setup(a);

    std::vector<std::string> files = a.positional;
    if (files.empty()) files.push_back("");  // the bundled genome
    std::vector<Measurement> rows;
    std::printf("%-16s %-10s %5s %7s %10s %9s %12s\n", "genome", "strategy", "block", "quality", "error", "iterate s",
                "M samples/s");
    for (const std::string& file : files) {
        ParsedArgs one = a;
        one.positional = file.empty() ? std::vector<std::string>{} : std::vector<std::string>{file};
        const GenomeInput input = load_genomes(one);
        for (int index : input.selected) {
            Flame flame = input.flames[index];
            resize_flame(flame, width, height);
            if (a.has("no-de")) flame.estimator_radius = 0;
            std::string name = std::filesystem::path(input.label).stem().string();
            if (input.selected.size() > 1) name += '#' + std::to_string(index);

            RenderOptions ref_options = setup.options;
            ref_options.quality = reference_quality;
            ref_options.kernel.shuffle = Shuffle::Divergent;
            ref_options.seed = setup.options.seed + 1000003;
            const ImageF reference = Renderer(ref_options).render(flame).image;

            for (int block : blocks)
                for (Shuffle s : strategies) {
                    RenderOptions options = setup.options;
                    options.kernel.shuffle = s;
                    options.kernel.block_size = block;
                    Renderer renderer(options);  // one backend and kernel for all qualities
                    for (double q : qualities) {
                        flame.quality = q;
                        const RenderResult r = renderer.render(flame);
                        Measurement m{name, to_string(s), block, q, image_error(r.image, reference), r.stats.seconds,
                                      static_cast<double>(r.stats.samples)};
                        std::printf("%-16s %-10s %5d %7g %10.4f %9.3f %12.2f\n", name.c_str(), m.strategy.c_str(), block, q,
                                    m.error, m.seconds, m.samples / std::max(m.seconds, 1e-9) / 1e6);
                        std::fflush(stdout);
                        rows.push_back(m);
                    }
                }
        }
    }
    if (a.has("json")) {
        nlohmann::json out = bench_header(a, "bench shuffle");
        out["backend"] = setup.backend_name;
        out["size"] = {width, height};
        out["reference_quality"] = reference_quality;
        nlohmann::json list = nlohmann::json::array();
        for (const auto& m : rows)
            list.push_back({{"genome", m.genome},
                            {"strategy", m.strategy},
                            {"block", m.block},
                            {"quality", m.quality},
                            {"error", m.error},
                            {"iterate_seconds", m.seconds},
                            {"samples", m.samples},
                            {"samples_per_s", m.samples / std::max(m.seconds, 1e-9)}});
        out["renders"] = list;
        write_json_file(a.value("json"), out);
    }
    if (a.has("plot")) write_plot(a.value("plot"), rows);
    return 0;
}

}  // namespace

int bench_shuffle(const Args& args) {
    const ParsedArgs a = parse_args(args,
                                    {"transforms", "warp", "block", "json", "plot", "strategies", "size", "qualities",
                                     "reference-quality", "backend", "threads", "seed", "flame", "palettes"},
                                    {"simulate", "no-de", "help", "h", "drop-unknown"});
    if (a.has("help") || a.has("h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    for (const char* output : {"json", "plot"})
        if (a.has(output)) check_output(std::string("--") + output, a.value(output));
    return a.has("simulate") ? simulate(a) : render_strategies(a);
}

}  // namespace fj::cli
