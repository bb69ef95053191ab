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
// Of NVRTC's options it heeds -arch (__CUDA_ARCH__), -D definitions and
// -rdc=true: a linked kernel's program (KernelForm::Linked) becomes a host
// object file, and the library also stands in for nvJitLink (tests load it
// through FLAMEJIT_NVJITLINK_PATH too), whose link makes the objects one
// shared library.
//
// Environment: FJ_EMULATOR_CXX (the compiler; default the build's),
// FJ_EMULATOR_INCLUDE (the folder of cuda_emulator.h; default the source's),
// FJ_EMULATOR_FLAGS (more compiler options: "-fsanitize=undefined" checks
// the kernels for undefined behaviour; "-fsanitize=address" their memory
// accesses, in a process built with AddressSanitizer), FJ_STAND_IN_REFUSE (a
// program whose source holds this text fails as a compile error would, for
// tests of what follows one).
#include <nvrtc.h>

#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "emulator/emulated_kernel.h"

namespace {

struct Program {
    std::string source, name;  // name: a file name, for the compiler's messages
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

// The macro definitions among the options (-DNAME, -DNAME=VALUE: the code
// shapes FLAMEJIT_NVRTC_OPTIONS picks), quoted for the shell.
std::string macro_options(int count, const char* const* options) {
    std::string macros;
    for (int i = 0; i < count; ++i)
        if (std::strncmp(options[i], "-D", 2) == 0 && !std::strchr(options[i], '\''))
            macros += " '" + std::string(options[i]) + "'";
    return macros;
}

// Runs of white space as one space, so that declarations read alike
// however they were laid out.
std::string squeezed(const std::string& text) {
    std::string out;
    for (char c : text) {
        const bool space = std::isspace(static_cast<unsigned char>(c));
        if (!space) out += c;
        else if (!out.empty() && out.back() != ' ') out += ' ';
    }
    return out;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// The source with `extern __shared__ T name[];` turned into a macro for the
// block's dynamic shared memory.
std::string with_dynamic_shared(const std::string& cuda) {
    const std::string marker = "extern __shared__ ";
    std::string out;
    size_t from = 0;
    for (size_t at; (at = cuda.find(marker, from)) != std::string::npos;) {
        const size_t end = cuda.find(';', at);
        if (end == std::string::npos) break;
        // "T name[]" → T and name.
        std::string declaration = squeezed(cuda.substr(at + marker.size(), end - at - marker.size()));
        while (!declaration.empty() && (declaration.back() == ' ' || declaration.back() == ']' ||
                                        declaration.back() == '['))
            declaration.pop_back();
        size_t name = declaration.size();
        while (name > 0 && identifier_char(declaration[name - 1])) --name;
        const std::string type = squeezed(declaration.substr(0, name));
        out += cuda.substr(from, at - from) + "\n#define " + declaration.substr(name) + " (reinterpret_cast<" + type +
               "*>(::fj_emulator::dynamic_shared()))\n";
        from = end + 1;
    }
    return out + cuda.substr(from);
}

// The kernels of preprocessed source: cuda_emulator.h marks them, and only
// those that the preprocessor kept are there.
std::vector<std::string> kernel_names(const std::string& preprocessed) {
    const std::string marker = "extern \"C\" __attribute__((used, noinline)) void ";
    std::vector<std::string> names;
    for (size_t at = preprocessed.find("extern \"C\""); at != std::string::npos;
         at = preprocessed.find("extern \"C\"", at + 1)) {
        const std::string window = squeezed(preprocessed.substr(at, 200));
        if (window.rfind(marker, 0) != 0) continue;
        size_t end = marker.size();
        while (end < window.size() && identifier_char(window[end])) ++end;
        if (end > marker.size()) names.push_back(window.substr(marker.size(), end - marker.size()));
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

// A setting from the environment, else the build's (a bundle carries the
// emulator elsewhere; its target may have its compiler elsewhere).
std::string setting(const char* name, const char* fallback) {
    const char* value = std::getenv(name);
    return value && *value ? value : fallback;
}

bool has_option(int count, const char* const* options, const char* wanted) {
    for (int i = 0; i < count; ++i)
        if (std::strcmp(options[i], wanted) == 0) return true;
    return false;
}

std::string compiler_command() {
    std::string command = "'";
    command += setting("FJ_EMULATOR_CXX", FJ_EMULATOR_CXX);
    return command + "' -std=c++20 ";
}

// Makes a folder for one compile or link; empty when it cannot.
std::filesystem::path scratch_folder() {
    std::string dir_template = (std::filesystem::temp_directory_path() / "fj-emulated-XXXXXX").string();
    return mkdtemp(dir_template.data()) ? std::filesystem::path(dir_template) : std::filesystem::path();
}

// Preprocesses the source with the emulator in front, adds a launcher for
// every kernel that is left, and compiles that into a shared library (with
// -rdc=true, an object file for the stand-in linker).
nvrtcResult compile(Program& p, int count, const char* const* options) {
    namespace fs = std::filesystem;
    const std::string refused = setting("FJ_STAND_IN_REFUSE", "");
    if (!refused.empty() && p.source.find(refused) != std::string::npos) {
        p.log = p.name + ": error: refused by FJ_STAND_IN_REFUSE (\"" + refused + "\")\n";
        return NVRTC_ERROR_COMPILATION;
    }
    const fs::path dir = scratch_folder();
    if (dir.empty()) return NVRTC_ERROR_OUT_OF_MEMORY;
    const bool relocatable = has_option(count, options, "-rdc=true");
    // The program's name, so that the compiler's messages give it.
    const fs::path source = dir / p.name, preprocessed = dir / "kernel.ii",
                   library = dir / (relocatable ? "kernel.o" : "kernel.so"), log = dir / "log.txt";
    bool ok = write_file(source, with_dynamic_shared(p.source));
    for (const auto& [name, text] : p.headers) ok = ok && write_file(dir / name, text);
    const int arch = cuda_arch(count, options);
    const std::string compiler = compiler_command();
    const std::string include = setting("FJ_EMULATOR_INCLUDE", FJ_EMULATOR_INCLUDE);
    ok = ok && run(compiler + "-E -D__CUDA_ARCH__=" + std::to_string(arch) + macro_options(count, options) +
                   " -I'" + include + "' -I'" + dir.string() + "' -include cuda_emulator.h -x c++ '" +
                   source.string() + "' -o '" + preprocessed.string() + "' > '" + log.string() + "' 2>&1");
    std::vector<std::string> kernels;
    if (ok) {
        std::string text = read_file(preprocessed);
        kernels = kernel_names(text);
        for (const std::string& kernel : kernels) text += launcher(kernel);
        ok = write_file(preprocessed, text) &&
             run(compiler + "-O2 -fPIC " + (relocatable ? "-c " : "-shared -pthread ") + "-w " +
                 setting("FJ_EMULATOR_FLAGS", "") +
                 " -x c++-cpp-output '" + preprocessed.string() + "' -o '" + library.string() + "' > '" +
                 log.string() + "' 2>&1");
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

// nvJitLink's handle: the objects added, then the library they make.
struct Linker {
    std::vector<std::string> objects;
    std::string log, image;
};

// Links the objects into one shared library, as compile() would have built
// their program had it been one.
bool link(Linker& l) {
    namespace fs = std::filesystem;
    const fs::path dir = scratch_folder();
    if (dir.empty()) return false;
    const fs::path library = dir / "kernel.so", log = dir / "log.txt";
    std::string inputs;
    bool ok = true;
    for (size_t i = 0; i < l.objects.size(); ++i) {
        const fs::path object = dir / ("program" + std::to_string(i) + ".o");
        ok = ok && write_file(object, l.objects[i]);
        inputs += " '" + object.string() + "'";
    }
    ok = ok && run(compiler_command() + "-shared -pthread " + setting("FJ_EMULATOR_FLAGS", "") + inputs + " -o '" +
                   library.string() + "' > '" + log.string() + "' 2>&1");
    l.log = read_file(log);
    if (ok) l.image = read_file(library);
    std::error_code ignored;
    fs::remove_all(dir, ignored);
    return ok && !l.image.empty();
}

// nvJitLink's results and handle, as its header declares them (the header's
// own inline wrappers would clash with these definitions).
using nvJitLinkResult = int;
constexpr nvJitLinkResult kLinkSuccess = 0, kLinkFailed = 6;  // NVJITLINK_SUCCESS, NVJITLINK_ERROR_INTERNAL
using nvJitLinkHandle = Linker*;

nvJitLinkResult copy_out(const std::string& text, char* out) {
    std::memcpy(out, text.c_str(), text.size() + 1);
    return kLinkSuccess;
}

}  // namespace

extern "C" {

// Not a toolkit's version, so kernel caches never mix host libraries with CUBINs.
nvrtcResult nvrtcVersion(int* major, int* minor) {
    *major = 0;
    *minor = 1;
    return NVRTC_SUCCESS;
}

// The archs of NVRTC 13.0, which the kernels' options name.
constexpr int kArchs[] = {75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121};

nvrtcResult nvrtcGetNumSupportedArchs(int* count) {
    *count = static_cast<int>(std::size(kArchs));
    return NVRTC_SUCCESS;
}

nvrtcResult nvrtcGetSupportedArchs(int* archs) {
    std::copy(std::begin(kArchs), std::end(kArchs), archs);
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
    const std::filesystem::path given = name ? name : "";
    p->name = given.filename().empty() ? "kernel.cu" : given.filename().string();
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

nvJitLinkResult nvJitLinkCreate(nvJitLinkHandle* out, uint32_t, const char* const*) {
    *out = new Linker;
    return kLinkSuccess;
}

nvJitLinkResult nvJitLinkDestroy(nvJitLinkHandle* l) {
    delete *l;
    *l = nullptr;
    return kLinkSuccess;
}

nvJitLinkResult nvJitLinkAddData(nvJitLinkHandle l, int, const void* data, size_t size, const char*) {
    l->objects.emplace_back(static_cast<const char*>(data), size);
    return kLinkSuccess;
}

nvJitLinkResult nvJitLinkComplete(nvJitLinkHandle l) { return link(*l) ? kLinkSuccess : kLinkFailed; }

nvJitLinkResult nvJitLinkGetLinkedCubinSize(nvJitLinkHandle l, size_t* size) {
    *size = l->image.size();
    return kLinkSuccess;
}

nvJitLinkResult nvJitLinkGetLinkedCubin(nvJitLinkHandle l, void* cubin) {
    std::memcpy(cubin, l->image.data(), l->image.size());
    return kLinkSuccess;
}

nvJitLinkResult nvJitLinkGetErrorLogSize(nvJitLinkHandle l, size_t* size) {
    *size = l->log.size() + 1;
    return kLinkSuccess;
}

nvJitLinkResult nvJitLinkGetErrorLog(nvJitLinkHandle l, char* log) { return copy_out(l->log, log); }

nvJitLinkResult nvJitLinkGetInfoLogSize(nvJitLinkHandle, size_t* size) {
    *size = 1;
    return kLinkSuccess;
}

nvJitLinkResult nvJitLinkGetInfoLog(nvJitLinkHandle, char* log) { return copy_out("", log); }

}  // extern "C"
