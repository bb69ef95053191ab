// flamejit — a stand-in for NVRTC that builds CUDA source for the host, for tests without a GPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Built as a shared library exporting the entry points of
// engine/cuda/nvrtc_symbols.def; tests load it through FLAMEJIT_NVRTC_PATH,
// beside the stand-in driver (stand_in_driver.cpp). "Compiling" a program
// runs the host C++ compiler on its source with emulator/cuda_emulator.h in
// front and returns the shared library it makes as the program's CUBIN; the
// stand-in driver loads it and runs its kernels on host threads. So the
// kernels flamejit generates run, with the CUDA backend's own launches, in
// CI: their logic is checked, not the device's floating point.
//
// The source is changed in two ways: a declaration `extern __shared__ T
// name[];` becomes a macro for the block's dynamic shared memory, and every
// `extern "C" __global__` function that preprocessing leaves gets a launcher
// (emulator/emulated_kernel.h). The program log holds the compiler's messages and, as
// ptxas's report would, a line per kernel with a nominal 32 registers (the
// host has no such count; the CUDA backend and the tests read the line).
#include <nvrtc.h>

#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <regex>
#include <string>
#include <vector>

#include "emulator/emulated_kernel.h"

namespace {

struct Program {
    std::string source, name;
    std::vector<std::pair<std::string, std::string>> headers;  // include name, text
    std::string log, image;
};

std::string read_file(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

bool write_file(const std::filesystem::path& path, const std::string& text) {
    std::filesystem::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary);
    out << text;
    return static_cast<bool>(out);
}

// The compute capability that -arch / --gpu-architecture names, times ten
// (__CUDA_ARCH__), or sm_90's.
int cuda_arch(int count, const char* const* options) {
    for (int i = 0; i < count; ++i) {
        const std::string option = options[i];
        for (const char* prefix : {"-arch=", "--gpu-architecture="})
            if (option.rfind(prefix, 0) == 0) {
                const size_t digits = option.find_first_of("0123456789");
                if (digits != std::string::npos) return std::atoi(option.c_str() + digits) * 10;
            }
    }
    return 900;
}

// The source with `extern __shared__ T name[];` turned into a macro for the
// block's dynamic shared memory.
std::string with_dynamic_shared(const std::string& cuda) {
    static const std::regex declaration(R"(extern\s+__shared__\s+([A-Za-z_][\w\s]*?)\s+([A-Za-z_]\w*)\s*\[\s*\]\s*;)");
    return std::regex_replace(cuda, declaration,
                              "\n#define $2 (reinterpret_cast<$1*>(::fj_emulator::dynamic_shared()))\n");
}

// The kernels of preprocessed source: cuda_emulator.h marks them, and only
// those that the preprocessor kept are there.
std::vector<std::string> kernel_names(const std::string& preprocessed) {
    static const std::regex kernel(
        R"(^extern\s+"C"\s+__attribute__\s*\(\(\s*used\s*,\s*noinline\s*\)\)\s+void\s+([A-Za-z_]\w*)\s*\()");
    std::vector<std::string> names;
    for (size_t at = preprocessed.find("extern \"C\""); at != std::string::npos;
         at = preprocessed.find("extern \"C\"", at + 1)) {
        const std::string window = preprocessed.substr(at, 300);
        std::smatch match;
        if (std::regex_search(window, match, kernel)) names.push_back(match[1]);
    }
    return names;
}

std::string launcher(const std::string& kernel) {
    return "extern \"C\" __attribute__((visibility(\"default\"))) int " FJ_EMULATED_ENTRY_PREFIX + kernel +
           "(const unsigned grid[3], const unsigned block[3], unsigned shared_bytes, void** args, char* error, "
           "unsigned error_size) { return ::fj_emulator::launch(&" +
           kernel + ", grid, block, shared_bytes, args, error, error_size); }\n";
}

bool run(const std::string& command) { return std::system(command.c_str()) == 0; }

// The build's compiler and emulator folder, unless the environment names
// others (a bundle carries the emulator; its target may have a compiler
// elsewhere).
std::string setting(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

// Preprocesses the source with the emulator in front, adds a launcher for
// every kernel that is left, and compiles that into a shared library.
nvrtcResult compile(Program& p, int count, const char* const* options) {
    namespace fs = std::filesystem;
    std::string dir_template = (fs::temp_directory_path() / "fj-emulated-XXXXXX").string();
    if (!mkdtemp(dir_template.data())) return NVRTC_ERROR_OUT_OF_MEMORY;
    const fs::path dir = dir_template;
    const fs::path source = dir / "kernel.cu", preprocessed = dir / "kernel.ii", library = dir / "kernel.so",
                   log = dir / "log.txt";
    bool ok = write_file(source, with_dynamic_shared(p.source));
    for (const auto& [name, text] : p.headers) ok = ok && write_file(dir / name, text);
    const int arch = cuda_arch(count, options);
    const std::string compiler = "'" + setting("FJ_EMULATOR_CXX", FJ_EMULATOR_CXX) + "' -std=c++20 ";
    const std::string include = setting("FJ_EMULATOR_INCLUDE", FJ_EMULATOR_INCLUDE);
    ok = ok && run(compiler + "-E -D__CUDA_ARCH__=" + std::to_string(arch) + " -I'" + include + "' -I'" +
                   dir.string() + "' -include cuda_emulator.h -x c++ '" + source.string() + "' -o '" +
                   preprocessed.string() + "' > '" + log.string() + "' 2>&1");
    std::vector<std::string> kernels;
    if (ok) {
        std::string text = read_file(preprocessed);
        kernels = kernel_names(text);
        for (const std::string& kernel : kernels) text += launcher(kernel);
        ok = write_file(preprocessed, text) &&
             run(compiler + "-O2 -fPIC -shared -pthread -w -x c++-cpp-output '" + preprocessed.string() + "' -o '" +
                 library.string() + "' > '" + log.string() + "' 2>&1");
    }
    p.log = read_file(log);
    if (ok) {
        p.image = read_file(library);
        for (const std::string& name : kernels)
            p.log += "ptxas info    : Compiling entry function '" + name + "' for 'sm_" + std::to_string(arch / 10) +
                     "'\nptxas info    : Used 32 registers, 0 bytes spill stores, 0 bytes spill loads\n";
    }
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    return ok && !p.image.empty() ? NVRTC_SUCCESS : NVRTC_ERROR_COMPILATION;
}

Program* program(nvrtcProgram p) { return reinterpret_cast<Program*>(p); }

}  // namespace

extern "C" {

// Not a toolkit's version, so kernel caches never mix host libraries with CUBINs.
nvrtcResult nvrtcVersion(int* major, int* minor) {
    *major = 0;
    *minor = 1;
    return NVRTC_SUCCESS;
}

const char* nvrtcGetErrorString(nvrtcResult result) {
    switch (result) {
    case NVRTC_SUCCESS: return "NVRTC_SUCCESS";
    case NVRTC_ERROR_COMPILATION: return "NVRTC_ERROR_COMPILATION";
    case NVRTC_ERROR_OUT_OF_MEMORY: return "NVRTC_ERROR_OUT_OF_MEMORY";
    default: return "NVRTC_ERROR (stand-in)";
    }
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram* out, const char* source, const char* name, int header_count,
                               const char* const* headers, const char* const* include_names) {
    auto* p = new Program;
    p->source = source;
    p->name = name ? name : "kernel.cu";
    for (int i = 0; i < header_count; ++i) p->headers.emplace_back(include_names[i], headers[i]);
    *out = reinterpret_cast<nvrtcProgram>(p);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram* p) {
    delete program(*p);
    *p = nullptr;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram p, int count, const char* const* options) {
    return compile(*program(p), count, options);
}

nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram p, size_t* size) {
    *size = program(p)->log.size() + 1;
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetProgramLog(nvrtcProgram p, char* log) {
    std::memcpy(log, program(p)->log.c_str(), program(p)->log.size() + 1);
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBINSize(nvrtcProgram p, size_t* size) {
    *size = program(p)->image.size();
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetCUBIN(nvrtcProgram p, char* cubin) {
    std::memcpy(cubin, program(p)->image.data(), program(p)->image.size());
    return NVRTC_SUCCESS;
}

}  // extern "C"
