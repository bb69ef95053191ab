// flamejit — NVRTC compilation to CUBIN, the ptxas report, and kept failures.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/compiler.h"

#include <cctype>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

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

std::vector<std::string> nvrtc_options(const std::string& arch) {
    // -default-device: snippet functions carry FJ_HD, but helpers the
    // stitcher writes need not be annotated. No include path: the generated
    // source includes nothing outside itself.
    return {"-std=c++17", "-arch=" + arch, "-default-device", "--ptxas-options=-v"};
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

CompiledKernel compile_kernel(const CompileRequest& request, const std::string& key,
                              const std::string& failed_dir) {
    const NvrtcApi& api = nvrtc();
    const auto start = std::chrono::steady_clock::now();

    ProgramGuard guard{api};
    nvrtc_check(api,
                api.nvrtcCreateProgram(&guard.program, request.source.c_str(),
                                       request.name.c_str(), 0, nullptr, nullptr),
                "nvrtcCreateProgram");
    const std::vector<std::string> options = nvrtc_options(request.arch);
    std::vector<const char*> option_ptrs;
    for (const std::string& option : options) option_ptrs.push_back(option.c_str());
    const nvrtcResult compiled = api.nvrtcCompileProgram(
        guard.program, static_cast<int>(option_ptrs.size()), option_ptrs.data());
    CompiledKernel out;
    out.key = key;
    out.log = program_log(api, guard.program);

    if (compiled == NVRTC_ERROR_COMPILATION) {
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
    nvrtc_check(api, compiled, "nvrtcCompileProgram");

    size_t cubin_size = 0;
    nvrtc_check(api, api.nvrtcGetCUBINSize(guard.program, &cubin_size), "nvrtcGetCUBINSize");
    out.cubin.resize(cubin_size);
    nvrtc_check(api, api.nvrtcGetCUBIN(guard.program, out.cubin.data()), "nvrtcGetCUBIN");

    out.compile_ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
            .count();
    const PtxasReport report = parse_ptxas_report(out.log, request.entry);
    out.registers = report.registers;
    out.spill_stores = report.spill_stores;
    out.spill_loads = report.spill_loads;
    return out;
}

}  // namespace fj
