// flamejit — NVRTC compilation to CUBIN, the ptxas report, and kept failures.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/compiler.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "cuda/cubin_code.h"
#include "cuda/nvrtc_api.h"

namespace fj {
namespace {

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

PtxasReport parse_ptxas_report(const std::string& log, const std::string& entry) {
    // ptxas writes, per function:
    //   ptxas info : Compiling entry function 'NAME' for 'sm_90'
    //   ptxas info : Function properties for NAME
    //       0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
    //   ptxas info : Used 14 registers, ...
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
        number_before(line, "bytes spill stores", &report.spill_stores);
        number_before(line, "bytes spill loads", &report.spill_loads);
        const size_t used = line.find("Used ");
        if (used != std::string::npos) number_before(line, "registers", &report.registers);
    }
    return report;
}

NvrtcRun run_nvrtc(const std::string& source, const std::string& name,
                   const std::vector<std::string>& options, const std::vector<NvrtcHeader>& headers) {
    const NvrtcApi& api = nvrtc();
    using clock = std::chrono::steady_clock;
    auto ms_since = [](clock::time_point t) {
        return std::chrono::duration<double, std::milli>(clock::now() - t).count();
    };
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

CompiledKernel compile_kernel(const CompileRequest& request, const std::string& key,
                              const std::string& failed_dir) {
    NvrtcRun run = run_nvrtc(request.source, request.name, nvrtc_options(request.arch));
    CompiledKernel out;
    out.key = key;
    out.log = std::move(run.log);

    if (!run.compiled) {
        namespace fs = std::filesystem;
        const fs::path dir(failed_dir);
        const fs::path source_path = dir / (key + ".cu");
        const fs::path log_path = dir / (key + ".log");
        std::error_code ec;
        fs::create_directories(dir, ec);
        const bool kept = !ec && write_text(source_path, request.source) &&
                          write_text(log_path, out.log + "\n");
        const std::string where =
            kept ? "; source kept in " + source_path.string() + ", log in " + log_path.string()
                 : "; could not keep the source and log in " + dir.string();
        throw KernelCompileError("NVRTC could not compile kernel " + key + " for " +
                                     request.arch + ": " + first_error_line(out.log) + where,
                                 kept ? source_path.string() : "",
                                 kept ? log_path.string() : "");
    }
    out.cubin = std::move(run.cubin);
    out.compile_ms = run.create_ms + run.compile_ms + run.cubin_ms;
    const PtxasReport report = parse_ptxas_report(out.log, request.entry);
    // Once, on a GPU machine's NVRTC, the report of one kernel lacked its
    // registers (cause unknown); the CUBIN's own record stands in.
    out.registers = report.registers >= 0 ? report.registers : cubin_registers(out.cubin, request.entry);
    out.spill_stores = report.spill_stores;
    out.spill_loads = report.spill_loads;
    return out;
}

}  // namespace fj
