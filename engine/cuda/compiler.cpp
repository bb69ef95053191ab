// flamejit — NVRTC compilation to CUBIN, the ptxas report, and kept failures.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/compiler.h"

#include <algorithm>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <system_error>
#include <thread>

#include "codegen/stitcher.h"
#include "cuda/cubin_code.h"
#include "cuda/nvjitlink_api.h"
#include "cuda/nvrtc_api.h"

namespace fj {
namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

std::string nvrtc_text(const NvrtcApi& api, nvrtcResult result) {
    const char* text = api.nvrtcGetErrorString ? api.nvrtcGetErrorString(result) : nullptr;
    return text ? text : "nvrtcResult " + std::to_string(static_cast<int>(result));
}

void nvrtc_check(const NvrtcApi& api, nvrtcResult result, const char* call) {
    if (result != NVRTC_SUCCESS)
        throw std::runtime_error(std::string(call) + " failed: " + nvrtc_text(api, result));
}

// Frees the program on every path, including exceptions.
struct ProgramGuard {
    const NvrtcApi& api;
    nvrtcProgram program = nullptr;
    ~ProgramGuard() {
        if (program) api.nvrtcDestroyProgram(&program);
    }
};

std::string program_log(const NvrtcApi& api, nvrtcProgram program) {
    size_t size = 0;
    if (api.nvrtcGetProgramLogSize(program, &size) != NVRTC_SUCCESS || size == 0) return "";
    std::string log(size, '\0');
    if (api.nvrtcGetProgramLog(program, log.data()) != NVRTC_SUCCESS) return "";
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
}

std::string first_error_line(const std::string& log) {
    std::istringstream lines(log);
    std::string line;
    while (std::getline(lines, line))
        if (line.find("error") != std::string::npos) return line;
    return log.empty() ? "no log" : log.substr(0, log.find('\n'));
}

bool write_text(const std::filesystem::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    return static_cast<bool>(out);
}

// Reads the integer just before `suffix` in `line`, if present.
bool number_before(const std::string& line, const std::string& suffix, int* out) {
    const size_t at = line.find(suffix);
    if (at == std::string::npos) return false;
    size_t begin = at;
    while (begin > 0 && line[begin - 1] == ' ') --begin;
    size_t end = begin;
    while (begin > 0 && std::isdigit(static_cast<unsigned char>(line[begin - 1]))) --begin;
    if (begin == end) return false;
    *out = std::stoi(line.substr(begin, end - begin));
    return true;
}

// The function whose properties a line of ptxas's report opens
// ("ptxas info : Function properties for NAME"), or "" for other lines.
std::string properties_name(const std::string& line) {
    const std::string mark = "Function properties for ";
    const size_t at = line.find(mark);
    if (at == std::string::npos) return "";
    std::string name = line.substr(at + mark.size());
    name.erase(name.find_last_not_of(" \r") + 1);
    return name;
}

}  // namespace

std::vector<std::string> nvrtc_code_options(const std::string& arch) {
    // -default-device: snippet functions carry FJ_HD, but helpers the
    // stitcher writes need not be annotated. No include path: the generated
    // source includes nothing outside itself.
    return {"-std=c++17", "-arch=" + arch, "-default-device", "--ptxas-options=-v"};
}

std::vector<std::string> nvrtc_compile_time_options() {
    // -minimal: NVRTC's implicit header then leaves out textures, surfaces,
    // the device runtime and the runtime API's types, none of which a
    // generated kernel uses, so the front end has less to parse (about a
    // third of its time; a few percent of a whole compile, because NVVM and
    // ptxas take the rest). benchmarks/README.md ("Compile path") has the
    // measurements, and the options that were measured and not adopted.
    std::vector<std::string> options = {"-minimal"};
    // -no-cache: NVRTC 12.9 and later keep PTX and CUBINs of their own in the
    // driver's compute cache wherever a driver is installed. flamejit's kernel
    // cache already keeps every kernel, and with NVRTC's on as well a render
    // that compiled took about 0.4 s longer on an H200 machine
    // (benchmarks/README.md, "On a GPU: NVIDIA H200, 2026-11-27").
    if (nvrtc_version_number() >= 1209) options.push_back("-no-cache");
    return options;
}

std::vector<std::string> nvrtc_extra_options() {
    std::vector<std::string> options;
    if (const char* text = std::getenv("FLAMEJIT_NVRTC_OPTIONS")) {
        std::istringstream words(text);
        for (std::string word; words >> word;) options.push_back(word);
    }
    return options;
}

std::vector<std::string> nvrtc_options(const std::string& arch) {
    std::vector<std::string> options = nvrtc_code_options(arch);
    for (std::string& option : nvrtc_compile_time_options()) options.push_back(std::move(option));
    for (std::string& option : nvrtc_extra_options()) options.push_back(std::move(option));
    return options;
}

std::vector<std::string> program_options(const CompileRequest& request, size_t index) {
    std::vector<std::string> options = nvrtc_options(request.arch);
    if (request.parts.empty()) return options;
    options.push_back("-rdc=true");
    if (index > 0 && request.part_registers > 0)
        options.push_back("-maxrregcount=" + std::to_string(request.part_registers));
    return options;
}

PtxasReport parse_ptxas_report(const std::string& log, const std::string& entry) {
    // ptxas writes, per function:
    //   ptxas info : Compiling entry function 'NAME' for 'sm_90'
    //   ptxas info : Function properties for NAME
    //       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    //   ptxas info : Used 14 registers, ...
    // and then the properties of the functions it calls (add_function_spills).
    PtxasReport report;
    std::istringstream lines(log);
    std::string line;
    bool inside = false;
    const std::string header = "Compiling entry function '" + entry + "'";
    while (std::getline(lines, line)) {
        if (line.find("Compiling entry function") != std::string::npos) {
            if (inside) break;
            inside = line.find(header) != std::string::npos;
            continue;
        }
        if (!inside) continue;
        if (const std::string name = properties_name(line); !name.empty() && name != entry) break;
        number_before(line, "bytes spill stores", &report.spill_stores);
        number_before(line, "bytes spill loads", &report.spill_loads);
        const size_t used = line.find("Used ");
        if (used != std::string::npos) number_before(line, "registers", &report.registers);
    }
    return report;
}

void add_function_spills(const std::string& log, PtxasReport* report) {
    //   ptxas info : Compiling entry function 'NAME' for 'sm_90'
    //   ptxas info : Function properties for NAME
    //       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    const std::string entry_mark = "Compiling entry function '";
    std::set<std::string> entries;
    std::istringstream first(log);
    std::string line;
    while (std::getline(first, line))
        if (const size_t at = line.find(entry_mark); at != std::string::npos) {
            const size_t from = at + entry_mark.size();
            entries.insert(line.substr(from, line.find('\'', from) - from));
        }
    std::istringstream lines(log);
    bool properties = false;
    while (std::getline(lines, line)) {
        if (const std::string name = properties_name(line); !name.empty()) {
            properties = entries.count(name) == 0;
            continue;
        }
        int stores = 0, loads = 0;
        if (properties && number_before(line, "bytes spill stores", &stores)) {
            number_before(line, "bytes spill loads", &loads);
            report->spill_stores += stores;
            report->spill_loads += loads;
        }
        properties = false;
    }
}

NvrtcRun run_nvrtc(const std::string& source, const std::string& name,
                   const std::vector<std::string>& options, const std::vector<NvrtcHeader>& headers) {
    const NvrtcApi& api = nvrtc();
    using clock = std::chrono::steady_clock;
    NvrtcRun out;
    std::vector<const char*> header_texts, header_names;
    for (const NvrtcHeader& h : headers) {
        header_texts.push_back(h.text.c_str());
        header_names.push_back(h.name.c_str());
    }
    auto t = clock::now();
    ProgramGuard guard{api};
    nvrtc_check(api,
                api.nvrtcCreateProgram(&guard.program, source.c_str(), name.c_str(),
                                       static_cast<int>(headers.size()),
                                       headers.empty() ? nullptr : header_texts.data(),
                                       headers.empty() ? nullptr : header_names.data()),
                "nvrtcCreateProgram");
    out.create_ms = ms_since(t);

    std::vector<const char*> option_ptrs;
    for (const std::string& option : options) option_ptrs.push_back(option.c_str());
    t = clock::now();
    const nvrtcResult compiled = api.nvrtcCompileProgram(
        guard.program, static_cast<int>(option_ptrs.size()), option_ptrs.data());
    out.compile_ms = ms_since(t);

    t = clock::now();
    out.log = program_log(api, guard.program);
    if (compiled == NVRTC_ERROR_COMPILATION) return out;
    if (compiled != NVRTC_SUCCESS)
        throw std::runtime_error("nvrtcCompileProgram failed: " + nvrtc_text(api, compiled) +
                                 (out.log.empty() ? "" : " (" + first_error_line(out.log) + ")"));
    size_t cubin_size = 0;
    nvrtc_check(api, api.nvrtcGetCUBINSize(guard.program, &cubin_size), "nvrtcGetCUBINSize");
    out.cubin.resize(cubin_size);
    nvrtc_check(api, api.nvrtcGetCUBIN(guard.program, out.cubin.data()), "nvrtcGetCUBIN");
    api.nvrtcDestroyProgram(&guard.program);
    guard.program = nullptr;
    out.cubin_ms = ms_since(t);
    out.compiled = true;
    return out;
}

namespace {

// Keeps a failed kernel's source and log in `failed_dir` and throws
// KernelCompileError with `what` (a line saying what failed) and where they are.
[[noreturn]] void keep_failure(const std::string& what, const std::string& key, const std::string& source,
                               const std::string& log, const std::string& failed_dir) {
    namespace fs = std::filesystem;
    const fs::path dir(failed_dir);
    const fs::path source_path = dir / (key + ".cu");
    const fs::path log_path = dir / (key + ".log");
    std::error_code ec;
    fs::create_directories(dir, ec);
    const bool kept = !ec && write_text(source_path, source) && write_text(log_path, log + "\n");
    const std::string where = kept ? "; source kept in " + source_path.string() + ", log in " + log_path.string()
                                   : "; could not keep the source and log in " + dir.string();
    throw KernelCompileError(what + where, kept ? source_path.string() : "", kept ? log_path.string() : "");
}

// A linked kernel: every program on a pool of threads (nvJitLink loads on
// the calling thread meanwhile, once per process), then one link.
CompiledKernel compile_linked(const CompileRequest& request, const std::string& key, const std::string& failed_dir) {
    const auto start = std::chrono::steady_clock::now();
    const size_t count = request.parts.size() + 1;
    const auto source_of = [&](size_t i) -> const std::string& { return i == 0 ? request.source : request.parts[i - 1]; };
    const std::vector<std::string> entry_options = program_options(request, 0),
                                   part_options = program_options(request, 1);
    std::vector<NvrtcRun> runs(count);
    std::vector<std::exception_ptr> errors(count);
    LinkedCompileTimes times;
    times.spans.resize(count);
    std::atomic<size_t> next{0};
    const auto work = [&](int thread) {
        for (size_t i; (i = next++) < count;) {
            times.spans[i].start_ms = ms_since(start);
            times.spans[i].thread = thread;
            try {
                const std::string name = i == 0 ? request.name : "part" + std::to_string(i) + "_" + request.name;
                runs[i] = run_nvrtc(source_of(i), name, i == 0 ? entry_options : part_options);
            } catch (...) {
                errors[i] = std::current_exception();
            }
            times.spans[i].end_ms = ms_since(start);
        }
    };
    const size_t cores = std::max(1u, std::thread::hardware_concurrency());
    const size_t threads = std::min<size_t>(count, request.program_threads > 0 ? request.program_threads : cores);
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) {
        try {
            pool.emplace_back(work, static_cast<int>(t));
        } catch (const std::system_error&) {
            break;  // no more threads: those running (and this one) compile the rest
        }
    }
    times.threads = static_cast<int>(pool.size() + 1);
    std::exception_ptr linker_error;
    const auto load_start = std::chrono::steady_clock::now();
    try {
        nvjitlink();
    } catch (...) {
        linker_error = std::current_exception();
    }
    times.linker_load_ms = ms_since(load_start);
    work(0);
    for (std::thread& t : pool) t.join();
    for (const std::exception_ptr& e : errors)
        if (e) std::rethrow_exception(e);

    CompiledKernel out;
    out.key = key;
    std::string all_source;
    for (size_t i = 0; i < count; ++i) {
        const std::string banner = linked_program_banner(i, count);
        all_source += banner + source_of(i) + "\n";
        out.log += (i ? "\n" : "") + banner + runs[i].log;
    }
    for (size_t i = 0; i < count; ++i)
        if (!runs[i].compiled)
            keep_failure("NVRTC could not compile program " + std::to_string(i + 1) + " of linked kernel " + key +
                             " for " + request.arch + ": " + first_error_line(runs[i].log),
                         key, all_source, out.log, failed_dir);
    if (linker_error) std::rethrow_exception(linker_error);
    std::vector<std::string> objects;
    for (NvrtcRun& run : runs) {
        const double ms = run.create_ms + run.compile_ms + run.cubin_ms;
        times.slowest_ms = std::max(times.slowest_ms, ms);
        times.all_ms += ms;
        objects.push_back(std::move(run.cubin));
    }
    times.programs = static_cast<int>(count);
    const auto link_start = std::chrono::steady_clock::now();
    LinkRun link = link_cubins(objects, request.arch);
    times.link_ms = ms_since(link_start);
    out.log += "\n// ==== nvJitLink\n" + link.log;
    if (!link.linked)
        keep_failure("nvJitLink could not link kernel " + key + " for " + request.arch + ": " +
                         first_error_line(link.log),
                     key, all_source, out.log, failed_dir);
    out.cubin = std::move(link.cubin);
    out.compile_ms = ms_since(start);
    out.linked = std::make_shared<const LinkedCompileTimes>(std::move(times));
    // The linker gives the entry the largest register count of what it
    // calls; the CUBIN's record has it, the entry program's report only its own.
    PtxasReport report = parse_ptxas_report(runs[0].log, request.entry);
    const int linked_registers = cubin_registers(out.cubin, request.entry);
    out.registers = linked_registers >= 0 ? linked_registers : report.registers;
    for (size_t i = 1; i < count; ++i) add_function_spills(runs[i].log, &report);
    out.spill_stores = report.spill_stores;
    out.spill_loads = report.spill_loads;
    return out;
}

}  // namespace

CompiledKernel compile_kernel(const CompileRequest& request, const std::string& key,
                              const std::string& failed_dir) {
    if (!request.parts.empty()) return compile_linked(request, key, failed_dir);
    NvrtcRun run = run_nvrtc(request.source, request.name, program_options(request, 0));
    CompiledKernel out;
    out.key = key;
    out.log = std::move(run.log);
    if (!run.compiled)
        keep_failure("NVRTC could not compile kernel " + key + " for " + request.arch + ": " +
                         first_error_line(out.log),
                     key, request.source, out.log, failed_dir);
    out.cubin = std::move(run.cubin);
    out.compile_ms = run.create_ms + run.compile_ms + run.cubin_ms;
    PtxasReport report = parse_ptxas_report(out.log, request.entry);
    add_function_spills(out.log, &report);  // what it calls: the out-of-line math, xforms as calls
    // Once, on a GPU machine's NVRTC, the report of one kernel lacked its
    // registers (cause unknown); the CUBIN's own record stands in.
    out.registers = report.registers >= 0 ? report.registers : cubin_registers(out.cubin, request.entry);
    out.spill_stores = report.spill_stores;
    out.spill_loads = report.spill_loads;
    return out;
}

}  // namespace fj
