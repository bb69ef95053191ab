// flamejit — the compile path measured: NVRTC option sets on the generated kernels of the benchmark genomes.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compiles each distinct kernel of the given genomes with flamejit's own NVRTC
// options and with variations of them (one option added, removed or
// replaced), and records per compile NVRTC's wall and CPU time, its own
// per-phase times (--time: front end, NVVM optimizer, PTX to CUBIN), the
// ptxas report of fj_iterate and whether the CUBIN's code is the same as with
// flamejit's options (cuda/cubin_code.h). Runs are interleaved: every round
// compiles every kernel with every set, the sets' order rotating, so that the
// noise of a shared machine falls on all sets alike. A warm-up compile comes
// first, so the first compile of the process is charged to no set; what a new
// process pays (loading NVRTC, the first compile) is measured separately in
// fresh child processes (--cold). Writes nvrtc-options.md and .json into --out.
//
//   nvrtc_options [GENOME...] [--arch sm_90] [--repeat N] [--cold N] [--out DIR] [--cli FLAMEJIT]...
//                 [--set NAME]... [--tag TAG]
//
// Without genomes: genomes/default.flam3 and benchmarks/genomes/*.flam3 (run
// from the project root). Each --cli names a flamejit binary (say, one built
// before a change and one after): `FLAMEJIT compile GENOME` with an empty
// kernel cache runs --cold times per binary, interleaved, on the first genome,
// and its "compiled in" figure (NVRTC loaded, first compile, cache written)
// goes into the report. Each --set keeps only the named option sets (beside
// flamejit's own); --tag TAG writes nvrtc-options-TAG.md and .json instead,
// so that a run of a few sets leaves the whole run's report in place.
#include <nlohmann/json.hpp>

#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "atomic_file.h"
#include "codegen/param_layout.h"
#include "codegen/stitcher.h"
#include "cuda/compiler.h"
#include "cuda/cubin_code.h"
#include "cuda/nvrtc_api.h"
#include "genome/flam3_reader.h"
#include "host_info.h"
#include "malloc_policy.h"
#include "median.h"
#include "pipeline/frame_structure.h"

namespace fs = std::filesystem;

namespace {

struct Options {
    std::vector<std::string> genomes;
    std::string arch = "sm_90";
    std::string out = "benchmarks/results";
    int repeat = 5;
    int cold = 5;
    std::vector<std::string> clis;  // flamejit binaries whose cold `compile` is timed
    std::vector<std::string> sets;  // names of the option sets to run (empty: all)
    std::string tag;
    std::string command;
};

// One way of calling NVRTC: flamejit's options with some removed (by prefix)
// and some added, and optionally the common prelude handed over as a header
// (the precompiled-header experiment needs one to precompile).
struct OptionSet {
    std::string name;
    std::string what;  // why it is measured
    std::vector<std::string> remove, add;
    bool prelude_header = false;
    bool with_ceiling = false;  // the module with its benchmark-only entry point
};

// What is measured: every option NVRTC 13 documents that plausibly changes
// compile time. `remove` entries are prefixes, so "-std=" replaces the dialect.
std::vector<OptionSet> all_option_sets() {
    std::vector<OptionSet> sets = {{"flamejit", "the options flamejit compiles with", {}, {}}};
    // Each compile-time-only option flamejit uses, taken away again.
    for (const std::string& option : fj::nvrtc_compile_time_options())
        sets.push_back({"without " + option, "flamejit's compile-time-only option removed", {option}, {}});
    const std::vector<OptionSet> candidates = {
        {"-minimal", "smaller implicit header (no textures, device runtime, runtime API types)", {}, {"-minimal"}},
        {"-dopt=on", "device optimisation named explicitly (the default without -G)", {}, {"-dopt=on"}},
        {"-std=c++11", "older dialect: less for the front end to set up", {"-std="}, {"-std=c++11"}},
        {"-std=c++20", "newer dialect", {"-std="}, {"-std=c++20"}},
        {"--split-compile=0", "NVVM optimisation on all hardware threads", {}, {"--split-compile=0"}},
        {"-Xptxas -O2", "ptxas optimisation level 2 (default 3)", {}, {"--ptxas-options=-O2"}},
        {"-Xptxas -O1", "ptxas optimisation level 1", {}, {"--ptxas-options=-O1"}},
        {"-Xptxas -O0", "ptxas without optimisation", {}, {"--ptxas-options=-O0"}},
        {"-Xptxas --allow-expensive-optimizations=false", "ptxas without its expensive optimisations", {},
         {"--ptxas-options=--allow-expensive-optimizations=false"}},
        {"-Xptxas --register-usage-level=0", "ptxas register allocation at its least effort (0..10)", {},
         {"--ptxas-options=--register-usage-level=0"}},
        {"-Xptxas --disable-optimizer-constants", "ptxas without its constant-bank optimisations", {},
         {"--ptxas-options=--disable-optimizer-constants"}},
        {"-Xptxas --split-compile=0", "ptxas on all hardware threads", {}, {"--ptxas-options=--split-compile=0"}},
        {"-Ofc=min", "NVVM fast-compile level min", {}, {"-Ofc=min"}},
        {"-Ofc=mid", "NVVM fast-compile level mid", {}, {"-Ofc=mid"}},
        {"-Ofc=max", "NVVM fast-compile level max", {}, {"-Ofc=max"}},
        {"--extra-device-vectorization", "more NVVM vectorisation", {}, {"--extra-device-vectorization"}},
        {"-fmad=false", "no multiply-add contraction", {}, {"-fmad=false"}},
        {"-ftz=true", "denormals flushed to zero", {}, {"-ftz=true"}},
        {"-prec-div=false", "approximate division", {}, {"-prec-div=false"}},
        {"-prec-sqrt=false", "approximate square root", {}, {"-prec-sqrt=false"}},
        {"--use_fast_math", "all of the above and fast intrinsics (sinf as __sinf, ...)", {}, {"--use_fast_math"}},
        {"-no-cache", "NVRTC's own PTX/CUBIN cache off", {}, {"-no-cache"}},
        {"-modify-stack-limit=false", "no setrlimit around the compile", {}, {"-modify-stack-limit=false"}},
        {"-no-source-include", "no include search in the source's folder", {}, {"-no-source-include"}},
        {"without -Xptxas -v", "no ptxas report (flamejit needs it; its cost)", {"--ptxas-options=-v"}, {}},
        {"prelude as header", "the common prelude (fj_device.h, common.h) as an included header", {}, {}, true},
        {"prelude as header, -pch", "the same, with NVRTC's automatic precompiled header", {}, {"-pch"}, true},
        {"with fj_atomic_ceiling", "source: the module with the throughput benchmark's ceiling kernel",
         {}, {}, false, true},
        {"-DFJ_TRIG_INLINE", "sinf, cosf, tanf inlined whole at every call, the long reduction too (fj_device.h)",
         {}, {"-DFJ_TRIG_INLINE"}},
        {"-DFJ_TRIG_CALLS", "sinf, cosf, tanf out of line: one sincosf and one tanf per kernel (fj_device.h)", {},
         {"-DFJ_TRIG_CALLS"}},
        {"-DFJ_TRIG_CALLS -Xptxas -O1", "the trigonometry out of line and ptxas level 1", {},
         {"-DFJ_TRIG_CALLS", "--ptxas-options=-O1"}},
        {"-DFJ_POW_CALLS", "powf out of line: one per kernel (fj_device.h)", {}, {"-DFJ_POW_CALLS"}},
        {"-DFJ_SHARED_PROLOGUE", "the xforms' pre-affine and VarIn made once, before the switch (stitcher.cpp)", {},
         {"-DFJ_SHARED_PROLOGUE"}},
        {"-DFJ_XFORM_CALLS", "every xform a function of its own, called from the switch (stitcher.cpp)", {},
         {"-DFJ_XFORM_CALLS"}},
        {"-DFJ_XFORM_CALLS --split-compile=0", "xforms as calls, NVVM on all hardware threads", {},
         {"-DFJ_XFORM_CALLS", "--split-compile=0"}},
    };
    const std::vector<std::string> current = fj::nvrtc_options("sm_90");
    for (const OptionSet& c : candidates) {
        // An option flamejit already uses is covered by its "without" row.
        const bool present = !c.add.empty() && c.remove.empty() &&
                             std::find(current.begin(), current.end(), c.add[0]) != current.end();
        if (!present) sets.push_back(c);
    }
    return sets;
}

// flamejit's own set first, then those named (all when none are).
std::vector<OptionSet> option_sets(const std::vector<std::string>& names) {
    std::vector<OptionSet> sets = all_option_sets();
    if (names.empty()) return sets;
    std::vector<OptionSet> chosen = {sets[0]};
    for (const std::string& name : names) {
        auto it = std::find_if(sets.begin() + 1, sets.end(), [&](const OptionSet& s) { return s.name == name; });
        if (it == sets.end()) return {};
        chosen.push_back(*it);
    }
    return chosen;
}

std::vector<std::string> options_of(const OptionSet& set, const std::string& arch, const std::string& pch_dir) {
    std::vector<std::string> options;
    for (const std::string& o : fj::nvrtc_options(arch)) {
        const bool removed = std::any_of(set.remove.begin(), set.remove.end(),
                                         [&](const std::string& prefix) { return o.rfind(prefix, 0) == 0; });
        if (!removed) options.push_back(o);
    }
    for (const std::string& o : set.add) options.push_back(o);
    if (std::find(set.add.begin(), set.add.end(), "-pch") != set.add.end()) options.push_back("-pch-dir=" + pch_dir);
    return options;
}

struct Kernel {
    std::string label;  // genome file and flame index
    std::string source;
    std::string source_with_ceiling;  // as bench throughput compiles it
    int variations = 0;
    size_t xforms = 0;
    bool has_final = false, xaos = false;
};

// The prelude is everything before the first "// ---- " line the stitcher
// writes (variations follow); the body includes it instead.
std::pair<std::string, std::string> split_prelude(const std::string& source) {
    const size_t at = source.find("\n// ---- ");
    if (at == std::string::npos) return {"", source};
    return {source.substr(0, at + 1), "#include \"fj_prelude.h\"\n" + source.substr(at + 1)};
}

struct Phases {
    double front_end = -1, nvvm = -1, ptx = -1;
};

// NVRTC's --time file: "name, phase, value, unit" rows appended per compile.
Phases read_phases(const std::string& path) {
    Phases p;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        std::vector<std::string> cells;
        std::stringstream row(line);
        for (std::string cell; std::getline(row, cell, ',');) {
            while (!cell.empty() && cell.front() == ' ') cell.erase(cell.begin());
            cells.push_back(cell);
        }
        if (cells.size() < 3) continue;
        const double v = std::atof(cells[2].c_str());
        if (cells[1].find("Frontend") != std::string::npos) p.front_end = v;
        else if (cells[1].find("NVVM") != std::string::npos) p.nvvm = v;
        else if (cells[1].find("PTX") != std::string::npos) p.ptx = v;
    }
    return p;
}

double cpu_ms() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return (u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1e3 + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e3;
}

struct Sample {
    double wall = 0, cpu = 0, host = 0;  // host: program creation and getting the CUBIN out
    Phases phases;
};

struct Result {  // one kernel under one option set
    std::vector<Sample> samples;
    std::string error;  // NVRTC refused the options
    int registers = -1, spill_stores = 0, spill_loads = 0;
    size_t cubin_bytes = 0;
    std::string digest;          // the whole module's code
    std::string iterate_digest;  // fj_iterate's alone
};

// One compile of one kernel with one set; the --time file is private to it.
Sample compile_once(const Kernel& k, const OptionSet& set, const std::string& arch, const fs::path& scratch,
                    Result* result) {
    std::vector<std::string> options = options_of(set, arch, (scratch / "pch").string());
    const fs::path time_file = scratch / "phases.csv";
    fs::remove(time_file);
    options.push_back("--time=" + time_file.string());
    std::vector<fj::NvrtcHeader> headers;
    std::string source = set.with_ceiling ? k.source_with_ceiling : k.source;
    if (set.prelude_header) {
        auto [prelude, body] = split_prelude(source);
        headers.push_back({"fj_prelude.h", prelude});
        source = body;
    }
    const double cpu0 = cpu_ms();
    const auto t0 = std::chrono::steady_clock::now();
    const fj::NvrtcRun run = fj::run_nvrtc(source, "flamejit_kernel.cu", options, headers);
    Sample s;
    s.wall = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    s.cpu = cpu_ms() - cpu0;
    s.host = run.create_ms + run.cubin_ms;
    s.phases = read_phases(time_file.string());
    if (!run.compiled) throw std::runtime_error("NVRTC rejected " + k.label + ": " + run.log.substr(0, 300));
    const fj::PtxasReport report = fj::parse_ptxas_report(run.log, fj::kIterateKernelName);
    result->registers = report.registers;
    result->spill_stores = report.spill_stores;
    result->spill_loads = report.spill_loads;
    result->cubin_bytes = run.cubin.size();
    result->digest = fj::cubin_code_digest(run.cubin);
    result->iterate_digest = fj::cubin_code_digest(run.cubin, fj::kIterateKernelName);
    return s;
}

// The median of the values measured (>= 0), or -1 for none.
double median(std::vector<double> v) {
    v.erase(std::remove_if(v.begin(), v.end(), [](double x) { return x < 0; }), v.end());
    return v.empty() ? -1 : fj::tools::median(std::move(v));
}

template <class F>
double median_of(const std::vector<Sample>& samples, F get) {
    std::vector<double> v;
    for (const Sample& s : samples) v.push_back(get(s));
    return median(v);
}

// A fresh process: load NVRTC, compile one kernel once, print the times.
int cold_child(int set_index, const std::string& source_path, const std::string& arch, const std::string& scratch) {
    const auto t0 = std::chrono::steady_clock::now();
    std::string why;
    if (!fj::nvrtc_available(&why)) return 1;
    const double load = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    std::ifstream in(source_path);
    std::stringstream text;
    text << in.rdbuf();
    Kernel k{"cold", text.str()};
    Result r;
    const Sample s = compile_once(k, all_option_sets().at(set_index), arch, scratch, &r);
    std::printf("%.3f %.3f %.3f %.0f %.0f %.0f\n", load, s.wall, s.cpu, s.phases.front_end, s.phases.nvvm,
                s.phases.ptx);
    return 0;
}

std::string fmt(double v, int digits = 0) {
    if (v < 0) return "–";
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

[[noreturn]] void usage_error(const std::string& what) {
    std::fprintf(stderr,
                 "nvrtc_options: %s (usage: nvrtc_options [GENOME...] [--arch sm_XX] [--repeat N] [--cold N] "
                 "[--out DIR] [--cli FLAMEJIT]... [--set NAME]... [--tag TAG])\n",
                 what.c_str());
    std::exit(2);
}

Options parse(int argc, char** argv) {
    Options o;
    o.command = fj::command_line(argc, argv);
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto value = [&]() -> std::string {
            if (i + 1 >= argc) usage_error(a + " needs a value");
            return argv[++i];
        };
        if (a == "--arch") o.arch = value();
        else if (a == "--out") o.out = value();
        else if (a == "--repeat") o.repeat = std::atoi(value().c_str());
        else if (a == "--cold") o.cold = std::atoi(value().c_str());
        else if (a == "--cli") o.clis.push_back(value());
        else if (a == "--set") o.sets.push_back(value());
        else if (a == "--tag") o.tag = value();
        else if (a.rfind("--", 0) == 0) usage_error("unknown option " + a);
        else o.genomes.push_back(a);
    }
    if (o.genomes.empty()) {
        o.genomes.push_back("genomes/default.flam3");
        std::vector<std::string> bench;
        std::error_code ec;
        for (const auto& e : fs::directory_iterator("benchmarks/genomes", ec))
            if (e.path().extension() == ".flam3") bench.push_back(e.path().string());
        std::sort(bench.begin(), bench.end());
        o.genomes.insert(o.genomes.end(), bench.begin(), bench.end());
    }
    if (o.arch.rfind("sm_", 0) != 0) usage_error("--arch must look like sm_90");
    if (o.repeat < 1 || o.repeat > 50) usage_error("--repeat must be in 1..50");
    if (o.cold < 0 || o.cold > 50) usage_error("--cold must be in 0..50");
    for (const std::string& name : o.sets)
        if (option_sets({name}).empty()) usage_error("no option set is named \"" + name + "\"");
    return o;
}

}  // namespace

int main(int argc, char** argv) {
    fj::keep_freed_memory();  // as flamejit's own process compiles
    if (argc == 6 && std::string(argv[1]) == "--cold-child")
        return cold_child(std::atoi(argv[2]), argv[3], argv[4], argv[5]);
    const Options opt = parse(argc, argv);
    std::string why;
    if (!fj::nvrtc_available(&why)) {
        std::fprintf(stderr, "nvrtc_options: NVRTC is not available: %s\n", why.c_str());
        return 1;
    }
    const auto& registry = fj::VariationRegistry::standard();
    const fj::SnippetSource& snippets = fj::SnippetSource::standard();
    const fs::path scratch = fs::temp_directory_path() / ("flamejit-nvrtc-options-" + std::to_string(::getpid()));
    fs::create_directories(scratch / "pch");

    // One kernel per distinct key, in the order the genomes were named.
    std::vector<Kernel> kernels;
    std::set<std::string> seen;
    for (const std::string& file : opt.genomes) {
        const std::vector<fj::Flame> flames = fj::read_flam3_file(file);
        for (size_t i = 0; i < flames.size(); ++i) {
            fj::KernelKey key =
                fj::make_kernel_key(fj::spread_rare_xforms(flames[i]), {fj::Shuffle::Ring, 256, opt.arch});
            if (!seen.insert(key.canonical()).second) continue;
            Kernel k;
            k.label = fs::path(file).filename().string() + (flames.size() > 1 ? "#" + std::to_string(i) : "");
            k.source = fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry, snippets);
            key.atomic_ceiling = true;
            k.source_with_ceiling = fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry, snippets);
            k.variations = static_cast<int>(key.variation_ids().size());
            k.xforms = key.xforms.size();
            k.has_final = key.has_final;
            k.xaos = key.xaos;
            kernels.push_back(k);
        }
    }
    const std::vector<OptionSet> sets = option_sets(opt.sets);
    const std::string load_before = fj::load_average();
    std::fprintf(stderr, "%zu kernels, %zu option sets, %d rounds; load %s\n", kernels.size(), sets.size(), opt.repeat,
                 load_before.c_str());

    // The first compile of a process pays for NVRTC's own start-up; charge it to nobody.
    {
        Kernel warm{"warm-up", "extern \"C\" __global__ void k(float* p) { p[threadIdx.x] *= 2.0f; }\n"};
        Result ignored;
        compile_once(warm, sets[0], opt.arch, scratch, &ignored);
    }

    std::vector<std::vector<Result>> results(sets.size(), std::vector<Result>(kernels.size()));
    for (int round = 0; round < opt.repeat; ++round) {
        for (size_t k = 0; k < kernels.size(); ++k) {
            for (size_t j = 0; j < sets.size(); ++j) {
                const size_t s = (j + round + k) % sets.size();
                Result& r = results[s][k];
                if (!r.error.empty()) continue;
                try {
                    r.samples.push_back(compile_once(kernels[k], sets[s], opt.arch, scratch, &r));
                } catch (const std::exception& e) {
                    r.error = e.what();
                }
            }
        }
        std::fprintf(stderr, "round %d/%d done; load %s\n", round + 1, opt.repeat, fj::load_average().c_str());
    }

    // Fresh processes, the default genome's kernel (the first), for every set
    // whose fj_iterate code equals flamejit's: what a user's first compile costs.
    std::vector<std::vector<double>> cold_load(sets.size()), cold_wall(sets.size()), cold_cpu(sets.size());
    std::vector<std::vector<double>> cold_fe(sets.size()), cold_nvvm(sets.size()), cold_ptx(sets.size());
    if (opt.cold > 0) {
        const fs::path source_path = scratch / "cold.cu";
        std::ofstream(source_path) << kernels[0].source;
        const std::string self = fs::read_symlink("/proc/self/exe").string();
        // A child finds its set by its place among all sets.
        const std::vector<OptionSet> all = all_option_sets();
        std::vector<size_t> in_all;
        for (const OptionSet& set : sets)
            in_all.push_back(static_cast<size_t>(
                std::find_if(all.begin(), all.end(), [&](const OptionSet& o) { return o.name == set.name; }) -
                all.begin()));
        for (int round = 0; round < opt.cold; ++round)
            for (size_t j = 0; j < sets.size(); ++j) {
                const size_t s = (j + round) % sets.size();
                if (!results[s][0].error.empty() || results[s][0].iterate_digest != results[0][0].iterate_digest)
                    continue;
                const fs::path child_scratch = scratch / ("cold-" + std::to_string(s));
                fs::create_directories(child_scratch / "pch");
                const std::string out =
                    fj::command_output("'" + self + "' --cold-child " + std::to_string(in_all[s]) + " '" +
                                       source_path.string() + "' " + opt.arch + " '" + child_scratch.string() + "'");
                double load = 0, wall = 0, cpu = 0, fe = 0, nvvm = 0, ptx = 0;
                if (std::sscanf(out.c_str(), "%lf %lf %lf %lf %lf %lf", &load, &wall, &cpu, &fe, &nvvm, &ptx) == 6) {
                    cold_load[s].push_back(load);
                    cold_wall[s].push_back(wall);
                    cold_cpu[s].push_back(cpu);
                    cold_fe[s].push_back(fe);
                    cold_nvvm[s].push_back(nvvm);
                    cold_ptx[s].push_back(ptx);
                }
            }
    }
    // The command line itself, cold: each binary with an empty cache folder.
    std::vector<std::vector<double>> cli_ms(opt.clis.size()), cli_wall(opt.clis.size());
    for (int round = 0; round < std::max(opt.cold, 1) && !opt.clis.empty(); ++round)
        for (size_t j = 0; j < opt.clis.size(); ++j) {
            const size_t c = (j + round) % opt.clis.size();
            const fs::path cache = scratch / ("cli-cache-" + std::to_string(c) + "-" + std::to_string(round));
            const auto t0 = std::chrono::steady_clock::now();
            const std::string out = fj::command_output("FLAMEJIT_CACHE_DIR='" + cache.string() + "' '" + opt.clis[c] +
                                                   "' compile '" + opt.genomes[0] + "' --arch " + opt.arch);
            const double wall_ms =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
            const size_t at = out.find("compiled in ");
            if (at == std::string::npos) {
                std::fprintf(stderr, "nvrtc_options: %s printed no compile time: %s\n", opt.clis[c].c_str(),
                             out.c_str());
                continue;
            }
            cli_ms[c].push_back(std::atof(out.c_str() + at + 12));
            cli_wall[c].push_back(wall_ms);
        }
    const std::string load_after = fj::load_average();
    std::error_code ignored;
    fs::remove_all(scratch, ignored);

    const std::string date = fj::utc_timestamp();
    const fj::SourceRevision revision = fj::source_revision();
    const std::string& commit = revision.commit;
    const bool dirty = revision.dirty;

    // Per set: the default kernel's medians and, over all kernels, the median
    // of each kernel's ratio to flamejit's options.
    auto wall = [](const Sample& s) { return s.wall; };
    auto cpu = [](const Sample& s) { return s.cpu; };
    std::ostringstream md;
    md << "# NVRTC options: compile time and generated code\n\n"
       << "Each distinct kernel of the genomes below compiled with flamejit's NVRTC options and with one change "
          "at a time, interleaved over "
       << opt.repeat << " rounds (the order of the sets rotating), after one warm-up compile. Times are medians "
       << "over rounds of NVRTC's wall time (create, compile, CUBIN) and of the process's CPU time during it; "
       << "front end / NVVM / ptxas are NVRTC's own `--time` phases (front end, NVVM optimizer, PTX translation). "
       << "\"code\" compares the CUBIN's SASS, resource records and constant banks with flamejit's "
       << "(cuda/cubin_code.h): an option that changes them is a speed option to measure on a GPU, not a "
          "compile-time option. Cold: a fresh process per sample, loading NVRTC and compiling the default "
          "genome's kernel once ("
       << opt.cold << " samples per set, sets with unchanged fj_iterate code only).\n\n"
       << "- commit: `" << commit << "`" << (dirty ? " (with local changes)" : "") << "\n"
       << "- date: " << date << "\n"
       << "- NVRTC " << fj::nvrtc_version() << ", arch " << opt.arch << "; host CPU: " << fj::cpu_model() << " ("
       << std::thread::hardware_concurrency() << " hardware threads); load average " << load_before
       << " before, " << load_after << " after (1, 5, 15 min)\n"
       << "- flamejit's options: `";
    {
        const auto o = fj::nvrtc_options(opt.arch);
        for (size_t i = 0; i < o.size(); ++i) md << (i ? " " : "") << o[i];
    }
    md << "`\n- command: `" << opt.command << "`\n- kernels: " << kernels.size() << " (";
    for (size_t k = 0; k < kernels.size(); ++k) md << (k ? ", " : "") << kernels[k].label;
    md << ")\n\n## Option sets\n\n"
       << "| option set | " << kernels[0].label << ": wall ms | CPU ms | front end / NVVM / ptxas ms | cold: load + "
       << "first compile ms (front end / NVVM / ptxas) | all kernels: wall / flamejit (median) | CPU / flamejit | code | fj_iterate registers, "
          "spills | CUBIN KiB |\n"
       << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    nlohmann::ordered_json jsets = nlohmann::ordered_json::array();
    for (size_t s = 0; s < sets.size(); ++s) {
        const Result& d = results[s][0];
        nlohmann::ordered_json jk = nlohmann::ordered_json::array();
        if (!d.error.empty()) {
            md << "| " << sets[s].name << " | rejected by NVRTC: " << d.error.substr(0, 120) << " | | | | | | | | |\n";
            jsets.push_back({{"name", sets[s].name}, {"what", sets[s].what}, {"error", d.error}});
            continue;
        }
        std::vector<double> wall_ratio, cpu_ratio;
        int differing = 0, iterate_differing = 0;
        for (size_t k = 0; k < kernels.size(); ++k) {
            const Result& r = results[s][k];
            const Result& base = results[0][k];
            if (!r.error.empty()) continue;
            wall_ratio.push_back(median_of(r.samples, wall) / median_of(base.samples, wall));
            cpu_ratio.push_back(median_of(r.samples, cpu) / median_of(base.samples, cpu));
            differing += r.digest != base.digest;
            iterate_differing += r.iterate_digest != base.iterate_digest;
            nlohmann::ordered_json samples = nlohmann::ordered_json::array();
            for (const Sample& x : r.samples)
                samples.push_back({{"wall_ms", std::round(x.wall * 10) / 10},
                                   {"cpu_ms", std::round(x.cpu * 10) / 10},
                                   {"host_ms", std::round(x.host * 100) / 100},
                                   {"front_end_ms", x.phases.front_end},
                                   {"nvvm_ms", x.phases.nvvm},
                                   {"ptxas_ms", x.phases.ptx}});
            jk.push_back({{"kernel", kernels[k].label},
                          {"same_code", r.digest == base.digest},
                          {"same_fj_iterate_code", r.iterate_digest == base.iterate_digest},
                          {"code_digest", r.digest},
                          {"registers", r.registers},
                          {"spill_store_bytes", r.spill_stores},
                          {"spill_load_bytes", r.spill_loads},
                          {"cubin_bytes", r.cubin_bytes},
                          {"wall_ms_median", median_of(r.samples, wall)},
                          {"cpu_ms_median", median_of(r.samples, cpu)},
                          {"samples", samples}});
        }
        const std::string cold = cold_wall[s].empty()
                                     ? "–"
                                     : fmt(median(cold_load[s])) + " + " + fmt(median(cold_wall[s])) + " (" +
                                           fmt(median(cold_fe[s])) + " / " + fmt(median(cold_nvvm[s])) + " / " +
                                           fmt(median(cold_ptx[s])) + ")";
        md << "| " << sets[s].name << " | " << fmt(median_of(d.samples, wall)) << " | " << fmt(median_of(d.samples, cpu))
           << " | " << fmt(median_of(d.samples, [](const Sample& x) { return x.phases.front_end; })) << " / "
           << fmt(median_of(d.samples, [](const Sample& x) { return x.phases.nvvm; })) << " / "
           << fmt(median_of(d.samples, [](const Sample& x) { return x.phases.ptx; })) << " | " << cold << " | "
           << fmt(median(wall_ratio), 3) << " | " << fmt(median(cpu_ratio), 3) << " | "
           << (differing == 0           ? std::string("same")
               : iterate_differing == 0 ? "fj_iterate same; module differs"
                                        : "differs in " + std::to_string(iterate_differing) + " of " +
                                              std::to_string(wall_ratio.size()))
           << " | " << d.registers << ", " << d.spill_stores << "/" << d.spill_loads << " | "
           << fmt(d.cubin_bytes / 1024.0, 1) << " |\n";
        jsets.push_back({{"name", sets[s].name},
                         {"what", sets[s].what},
                         {"options", options_of(sets[s], opt.arch, "PCH_DIR")},
                         {"prelude_header", sets[s].prelude_header},
                         {"wall_ratio_median", median(wall_ratio)},
                         {"cpu_ratio_median", median(cpu_ratio)},
                         {"kernels_with_other_code", differing},
                         {"kernels_with_other_fj_iterate_code", iterate_differing},
                         {"cold", {{"load_ms", cold_load[s]}, {"first_compile_ms", cold_wall[s]},
                                   {"first_compile_cpu_ms", cold_cpu[s]}, {"front_end_ms", cold_fe[s]},
                                   {"nvvm_ms", cold_nvvm[s]}, {"ptxas_ms", cold_ptx[s]}}},
                         {"kernels", jk}});
    }
    md << "\n## Kernels with flamejit's options\n\n"
       << "| kernel | xforms | variations | source KiB | wall ms | CPU ms | front end / NVVM / ptxas ms | create + "
          "CUBIN ms | fj_iterate registers | CUBIN KiB |\n"
       << "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n";
    for (size_t k = 0; k < kernels.size(); ++k) {
        const Result& r = results[0][k];
        md << "| " << kernels[k].label << " | " << kernels[k].xforms << (kernels[k].has_final ? "+final" : "")
           << (kernels[k].xaos ? " xaos" : "") << " | " << kernels[k].variations << " | "
           << fmt(kernels[k].source.size() / 1024.0, 1) << " | " << fmt(median_of(r.samples, wall)) << " | "
           << fmt(median_of(r.samples, cpu)) << " | "
           << fmt(median_of(r.samples, [](const Sample& x) { return x.phases.front_end; })) << " / "
           << fmt(median_of(r.samples, [](const Sample& x) { return x.phases.nvvm; })) << " / "
           << fmt(median_of(r.samples, [](const Sample& x) { return x.phases.ptx; })) << " | "
           << fmt(median_of(r.samples, [](const Sample& x) { return x.host; }), 2) << " | " << r.registers << " | "
           << fmt(r.cubin_bytes / 1024.0, 1) << " |\n";
    }

    nlohmann::ordered_json jclis = nlohmann::ordered_json::array();
    if (!opt.clis.empty()) {
        md << "\n## `flamejit compile " << opt.genomes[0] << "` with an empty kernel cache\n\n"
           << "\"compiled in\" as the command prints it (loading NVRTC, the first compile of the process, writing "
              "the cache file), and the whole process's wall time; "
           << std::max(opt.cold, 1) << " runs per binary, interleaved.\n\n"
           << "| binary | compiled in, ms: median (min–max) | process wall ms: median |\n| --- | --- | --- |\n";
        for (size_t c = 0; c < opt.clis.size(); ++c) {
            const auto [lo, hi] = std::minmax_element(cli_ms[c].begin(), cli_ms[c].end());
            md << "| `" << opt.clis[c] << "` | "
               << (cli_ms[c].empty() ? "–" : fmt(median(cli_ms[c])) + " (" + fmt(*lo) + "–" + fmt(*hi) + ")")
               << " | " << fmt(median(cli_wall[c])) << " |\n";
            jclis.push_back({{"binary", opt.clis[c]}, {"compiled_in_ms", cli_ms[c]}, {"process_wall_ms", cli_wall[c]}});
        }
    }
    nlohmann::ordered_json jkernels = nlohmann::ordered_json::array();
    for (const Kernel& k : kernels)
        jkernels.push_back({{"kernel", k.label}, {"xforms", k.xforms}, {"final", k.has_final}, {"xaos", k.xaos},
                            {"variations", k.variations}, {"source_bytes", k.source.size()}});
    const nlohmann::ordered_json json = {{"commit", commit},
                                         {"dirty", dirty},
                                         {"date", date},
                                         {"nvrtc", fj::nvrtc_version()},
                                         {"arch", opt.arch},
                                         {"host_cpu", fj::cpu_model()},
                                         {"host_threads", std::thread::hardware_concurrency()},
                                         {"load_average_before", load_before},
                                         {"load_average_after", load_after},
                                         {"command", opt.command},
                                         {"flamejit_options", fj::nvrtc_options(opt.arch)},
                                         {"repeat", opt.repeat},
                                         {"cold_samples", opt.cold},
                                         {"kernels", jkernels},
                                         {"option_sets", jsets},
                                         {"command_line_cold", jclis}};
    fs::create_directories(opt.out);
    const std::string base = opt.tag.empty() ? "nvrtc-options" : "nvrtc-options-" + opt.tag;
    fj::write_file_atomically((fs::path(opt.out) / (base + ".md")).string(), md.str());
    fj::write_file_atomically((fs::path(opt.out) / (base + ".json")).string(), json.dump(2) + "\n");
    std::printf("%s", md.str().c_str());
    return 0;
}
