// flamejit — the kernel report: each corpus genome's specialized kernel against the all-variations switch kernel.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// For every flame of a genome corpus that uses only the variations flamejit
// has, one row per distinct kernel key: registers, spill bytes, NVRTC compile
// milliseconds and CUBIN size of the kernel the stitcher generates for it, and
// of the switch kernel (codegen/switch_kernel.h) with the same code switches.
// Compilation needs no GPU (ptxas's -v report comes through NVRTC's log).
// Writes kernel-report.md and kernel-report.json into --out.
//
//   kernel_report CORPUS_DIR [--arch sm_90] [--out benchmarks/results] [--repeat N]
#include <nlohmann/json.hpp>

#include <algorithm>
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
#include "codegen/switch_kernel.h"
#include "cuda/compiler.h"
#include "cuda/nvrtc_api.h"
#include "genome/flam3_reader.h"
#include "host_info.h"
#include "malloc_policy.h"
#include "median.h"
#include "pipeline/frame_structure.h"

namespace fs = std::filesystem;

namespace {

struct Options {
    std::string corpus;
    std::string arch = "sm_90";
    std::string out = "benchmarks/results";
    int repeat = 1;
    std::string command;
};

struct Measure {
    int registers = -1, spill_stores = 0, spill_loads = 0;
    double compile_ms = 0;  // the fastest of --repeat cold compiles
    size_t cubin_bytes = 0;
};

struct Row {
    std::string source;  // first flame with this key: file (relative to the corpus) and flame index
    int flames = 0;      // corpus flames sharing the key
    fj::KernelKey key;
    std::set<int> variations;
    Measure specialized, switched;
};

[[noreturn]] void usage_error(const std::string& what) {
    std::fprintf(stderr, "kernel_report: %s (usage: kernel_report CORPUS_DIR [--arch sm_XX] [--out DIR] [--repeat N])\n",
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
        else if (a.rfind("--", 0) == 0) usage_error("unknown option " + a);
        else if (o.corpus.empty()) o.corpus = a;
        else usage_error("one corpus folder only");
    }
    if (o.corpus.empty()) usage_error("no corpus folder given");
    if (!fs::is_directory(o.corpus)) usage_error("'" + o.corpus + "' is not a folder");
    if (o.arch.rfind("sm_", 0) != 0) usage_error("--arch must look like sm_90");
    if (o.repeat < 1 || o.repeat > 20) usage_error("--repeat must be in 1..20");
    return o;
}

Measure measure(const std::string& source, const std::string& arch, int repeat, const std::string& tag) {
    fj::CompileRequest request;
    request.source = source;
    request.arch = arch;
    request.name = tag + ".cu";
    Measure m;
    for (int r = 0; r < repeat; ++r) {
        const fj::CompiledKernel k =
            fj::compile_kernel(request, tag, (fs::temp_directory_path() / "flamejit-kernel-report").string());
        m.registers = k.registers;
        m.spill_stores = k.spill_stores;
        m.spill_loads = k.spill_loads;
        m.cubin_bytes = k.cubin.size();
        m.compile_ms = r == 0 ? k.compile_ms : std::min(m.compile_ms, k.compile_ms);
    }
    return m;
}

using fj::tools::median;

nlohmann::ordered_json to_json(const Measure& m) {
    return {{"registers", m.registers},
            {"spill_store_bytes", m.spill_stores},
            {"spill_load_bytes", m.spill_loads},
            {"compile_ms", std::round(m.compile_ms * 10) / 10},
            {"cubin_bytes", m.cubin_bytes}};
}

// Median, min and max of one quantity over the rows, for both kernels.
struct Stat {
    const char* name;  // in the markdown table
    const char* key;   // in the JSON summary
    double (*get)(const Measure&);
};
const Stat kStats[] = {
    {"registers", "registers", [](const Measure& m) { return double(m.registers); }},
    {"spill bytes (stores + loads)", "spill_bytes", [](const Measure& m) { return double(m.spill_stores + m.spill_loads); }},
    {"compile ms", "compile_ms", [](const Measure& m) { return m.compile_ms; }},
    {"CUBIN KiB", "cubin_kib", [](const Measure& m) { return m.cubin_bytes / 1024.0; }},
};

std::string fmt(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, v == std::floor(v) && std::fabs(v) < 1e9 ? "%.0f" : "%.1f", v);
    return buf;
}

}  // namespace

int main(int argc, char** argv) {
    fj::keep_freed_memory();  // as flamejit's own process compiles
    const Options opt = parse(argc, argv);
    std::string why;
    if (!fj::nvrtc_available(&why)) {
        std::fprintf(stderr, "kernel_report: NVRTC is not available: %s\n", why.c_str());
        return 1;
    }
    const auto& registry = fj::VariationRegistry::standard();
    const fj::SnippetSource& snippets = fj::SnippetSource::standard();

    std::vector<std::string> files;
    for (const auto& e : fs::recursive_directory_iterator(opt.corpus)) {
        const std::string ext = e.path().extension().string();
        if (e.is_regular_file() && (ext == ".flam3" || ext == ".flame" || ext == ".xml")) files.push_back(e.path().string());
    }
    std::sort(files.begin(), files.end());

    std::vector<Row> rows;
    std::map<std::string, size_t> by_key;
    int flames = 0, unsupported = 0, unreadable = 0;
    for (const std::string& file : files) {
        const std::string label = fs::relative(file, opt.corpus).string();
        const auto elements = fj::flam3_flame_elements(file);
        for (size_t i = 0; i < elements.size(); ++i) {
            std::vector<fj::Flame> parsed;
            try {
                parsed = fj::read_flam3_string(elements[i], label);
            } catch (const std::exception& e) {
                (std::string(e.what()).find("unknown variation") != std::string::npos ? unsupported : unreadable)++;
                continue;
            }
            for (const fj::Flame& flame : parsed) {
                ++flames;
                const fj::KernelKey key =
                    fj::make_kernel_key(fj::spread_rare_xforms(flame), {fj::Shuffle::Ring, 256, opt.arch});
                const auto [it, fresh] = by_key.emplace(key.canonical(), rows.size());
                if (fresh) {
                    Row row;
                    row.source = label + "#" + std::to_string(i);
                    row.key = key;
                    row.variations = key.variation_ids();
                    rows.push_back(row);
                }
                ++rows[it->second].flames;
            }
        }
    }
    if (rows.empty()) {
        std::fprintf(stderr, "kernel_report: no flame in %s uses only variations flamejit knows\n", opt.corpus.c_str());
        return 2;
    }
    std::fprintf(stderr, "%d flames, %zu kernel keys (%d flames with variations flamejit lacks, %d unreadable)\n", flames,
                 rows.size(), unsupported, unreadable);

    // Switch kernels depend only on the code switches: compile each distinct one once.
    std::map<std::string, Measure> switch_measures;
    for (size_t r = 0; r < rows.size(); ++r) {
        Row& row = rows[r];
        const std::string spec = fj::stitch_kernel(row.key, fj::make_param_layout(row.key, registry), registry, snippets);
        row.specialized = measure(spec, opt.arch, opt.repeat, "specialized-" + std::to_string(r));
        const std::string sw = fj::switch_kernel_source(row.key, registry, snippets);
        auto found = switch_measures.find(sw);
        if (found == switch_measures.end())
            found = switch_measures.emplace(sw, measure(sw, opt.arch, opt.repeat, "switch-" + std::to_string(r))).first;
        row.switched = found->second;
        std::fprintf(stderr, "[%zu/%zu] %s: %d/%d registers, %.0f/%.0f ms\n", r + 1, rows.size(), row.source.c_str(),
                     row.specialized.registers, row.switched.registers, row.specialized.compile_ms,
                     row.switched.compile_ms);
    }

    const std::string date = fj::utc_timestamp();
    const fj::SourceRevision revision = fj::source_revision();
    const std::string& commit = revision.commit;
    const bool dirty = revision.dirty;

    nlohmann::ordered_json summary = nlohmann::ordered_json::object();
    std::ostringstream md;
    md << "# Kernel report\n\n"
       << "Each corpus flame made only of variations flamejit knows, one row per distinct kernel key: the kernel flamejit\n"
       << "generates for it (one inlined function per xform, holding only its variations) against one kernel\n"
       << "that holds all " << registry.all().size() << " variations behind a switch, with the same code switches "
       << "(xaos, final xform, palette mode, shuffle, accumulation, block size). Compiled with NVRTC for " << opt.arch
       << "; registers and spills from ptxas's report; compile time is NVRTC's wall time (fastest of " << opt.repeat
       << ").\n\n"
       << "- commit: `" << commit << "`" << (dirty ? " (with local changes)" : "") << "\n"
       << "- date: " << date << "\n"
       << "- NVRTC: " << fj::nvrtc_version() << ", arch " << opt.arch << "; host CPU: " << fj::cpu_model() << " ("
       << std::thread::hardware_concurrency() << " hardware threads)\n"
       << "- command: `" << opt.command << "`\n"
       << "- corpus: " << files.size() << " files, " << flames << " flames of variations flamejit knows ("
       << unsupported << " skipped for others), " << rows.size() << " kernel keys, "
       << switch_measures.size() << " distinct switch kernels\n\n"
       << "## Summary (over kernel keys)\n\n"
       << "| quantity | specialized: median (min–max) | switch: median (min–max) | median ratio switch / specialized |\n"
       << "| --- | --- | --- | --- |\n";
    for (const Stat& s : kStats) {
        std::vector<double> a, b, ratio;
        for (const Row& r : rows) {
            a.push_back(s.get(r.specialized));
            b.push_back(s.get(r.switched));
            if (s.get(r.specialized) > 0) ratio.push_back(s.get(r.switched) / s.get(r.specialized));
        }
        const auto [amin, amax] = std::minmax_element(a.begin(), a.end());
        const auto [bmin, bmax] = std::minmax_element(b.begin(), b.end());
        // A ratio over the few keys whose specialized kernel spills says little;
        // how many keys spill at all says more.
        const bool spills = std::string(s.key) == "spill_bytes";
        const auto nonzero = [](const std::vector<double>& v) { return std::count_if(v.begin(), v.end(), [](double x) { return x > 0; }); };
        md << "| " << s.name << " | " << fmt(median(a)) << " (" << fmt(*amin) << "–" << fmt(*amax) << ") | "
           << fmt(median(b)) << " (" << fmt(*bmin) << "–" << fmt(*bmax) << ") | ";
        if (spills)
            md << "keys that spill: " << nonzero(a) << " of " << a.size() << " → " << nonzero(b) << " of " << b.size() << " |\n";
        else
            md << (ratio.empty() ? "–" : fmt(std::round(median(ratio) * 100) / 100)) << " |\n";
        summary[s.key] = {{"specialized", {{"median", median(a)}, {"min", *amin}, {"max", *amax}}},
                           {"switch", {{"median", median(b)}, {"min", *bmin}, {"max", *bmax}}},
                           {"median_ratio", ratio.empty() || spills ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(median(ratio))},
                           {"keys_nonzero", {{"specialized", nonzero(a)}, {"switch", nonzero(b)}}}};
    }
    md << "\n## Per kernel key\n\n"
       << "Registers, spill bytes (store/load), compile ms and CUBIN KiB: specialized → switch.\n\n"
       << "| first flame | flames | xforms | variations | registers | spills | compile ms | CUBIN KiB |\n"
       << "| --- | --- | --- | --- | --- | --- | --- | --- |\n";
    nlohmann::ordered_json kernels = nlohmann::ordered_json::array();
    for (const Row& r : rows) {
        std::string names;
        nlohmann::ordered_json vars = nlohmann::ordered_json::array();
        for (int id : r.variations) {
            names += (names.empty() ? "" : ", ") + registry.by_id(id)->name;
            vars.push_back(registry.by_id(id)->name);
        }
        const Measure& a = r.specialized;
        const Measure& b = r.switched;
        md << "| " << r.source << " | " << r.flames << " | " << r.key.xforms.size() << (r.key.has_final ? "+final" : "")
           << (r.key.xaos ? " xaos" : "") << " | " << names << " | " << a.registers << " → " << b.registers << " | "
           << a.spill_stores << "/" << a.spill_loads << " → " << b.spill_stores << "/" << b.spill_loads << " | "
           << fmt(std::round(a.compile_ms)) << " → " << fmt(std::round(b.compile_ms)) << " | "
           << fmt(std::round(a.cubin_bytes / 102.4) / 10) << " → " << fmt(std::round(b.cubin_bytes / 102.4) / 10) << " |\n";
        kernels.push_back({{"first_flame", r.source},
                           {"flames", r.flames},
                           {"key", r.key.canonical()},
                           {"variations", vars},
                           {"specialized", to_json(a)},
                           {"switch", to_json(b)}});
    }

    const nlohmann::ordered_json json = {
        {"commit", commit},
        {"dirty", dirty},
        {"date", date},
        {"nvrtc", fj::nvrtc_version()},
        {"arch", opt.arch},
        {"host_cpu", fj::cpu_model()},
        {"host_threads", std::thread::hardware_concurrency()},
        {"command", opt.command},
        {"nvrtc_options", fj::nvrtc_options(opt.arch)},
        {"repeat", opt.repeat},
        {"corpus", {{"files", files.size()}, {"flames", flames}, {"unsupported_flames", unsupported},
                    {"unreadable_flames", unreadable}, {"kernel_keys", rows.size()},
                    {"switch_kernels", switch_measures.size()}}},
        {"summary", summary},
        {"kernels", kernels}};
    fs::create_directories(opt.out);
    fj::write_file_atomically((fs::path(opt.out) / "kernel-report.md").string(), md.str());
    fj::write_file_atomically((fs::path(opt.out) / "kernel-report.json").string(), json.dump(2) + "\n");
    std::printf("%s", md.str().substr(0, md.str().find("## Per kernel key")).c_str());
    return 0;
}
