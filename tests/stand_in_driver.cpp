// flamejit — a stand-in for the CUDA driver library, for tests without a GPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Built as a shared library exporting the entry points of
// engine/cuda/driver_symbols.def; tests load it through FLAMEJIT_LIBCUDA_PATH
// so that the CUDA backend's host side (the context made on its own thread,
// prepare, module loading, the launch loop, error paths) runs in CI. It
// plays one device of compute capability 9.0 whose memory is host memory.
// A module that NVRTC compiled (a CUBIN) loads, but its kernels do nothing
// when launched, so no sample is ever plotted. A module that the stand-in
// NVRTC built for the host (stand_in_nvrtc.cpp: a shared library) is loaded
// with dlopen and its kernels run on host threads (emulator/cuda_emulator.h);
// a kernel that deadlocks or misuses a warp intrinsic fails its launch with
// CUDA_ERROR_LAUNCH_FAILED and says why on stderr.
//
// FJ_STAND_IN_CONTEXT, read at every cuDevicePrimaryCtxRetain, says how
// making the context goes:
//   unset or ""     at once
//   "fail"          CUDA_ERROR_OUT_OF_MEMORY
//   "wait:DIR"      not before DIR holds a kernel cache file (*.fjk): the
//                   context is made only once the caller has compiled, so a
//                   caller that waited for the context before compiling
//                   deadlocks, which the stand-in ends after 60 s with
//                   CUDA_ERROR_TIMEOUT.
// FJ_STAND_IN_DEVICES (1 to 8, default 1) is how many such devices there
// are, each with its own primary context, for renders on several devices;
// FJ_STAND_IN_SMS (1 to 1024, default 2) how many multiprocessors each has,
// so that a pool of a large GPU's size can be tried (4 blocks per SM).
// FJ_STAND_IN_LOG, a file, gets a line for each module loaded ("load N", N
// counting modules from 1 in the process) and each launch ("launch N NAME",
// the module of the function launched), so that a test can tell which
// kernel ran.
#include <cuda.h>

#include <dlfcn.h>
#include <elf.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "emulator/emulated_kernel.h"

namespace {

thread_local CUcontext current = nullptr;
// A context and a stream are only ever compared and passed back: any
// distinct non-null addresses do.
constexpr int kMaxDevices = 8;
int context_objects[kMaxDevices], stream_object;

// A count from the environment, `fallback` when unset or out of 1..max.
int count_from_env(const char* variable, int max, int fallback) {
    const char* text = std::getenv(variable);
    const int count = text && *text ? std::atoi(text) : fallback;
    return count >= 1 && count <= max ? count : fallback;
}

int device_count() { return count_from_env("FJ_STAND_IN_DEVICES", kMaxDevices, 1); }

// A kernel: run on the host when it comes from a host module, else a no-op.
struct Function {
    EmulatedLaunch launch = nullptr;  // null: a CUBIN's kernel, which does nothing
    int module = 0;
    std::string name;
};

struct Module {
    void* library = nullptr;  // dlopen handle of a host module
    int id = 0;
    std::vector<std::unique_ptr<Function>> functions;
};

std::atomic<int> modules_loaded{0};

// A line to FJ_STAND_IN_LOG, where it is set.
void log_line(const std::string& line) {
    static std::mutex mutex;
    const char* path = std::getenv("FJ_STAND_IN_LOG");
    if (!path || !*path) return;
    const std::lock_guard<std::mutex> lock(mutex);
    if (FILE* f = std::fopen(path, "a")) {
        std::fprintf(f, "%s\n", line.c_str());
        std::fclose(f);
    }
}

// The ELF machine of an image (EM_CUDA for a CUBIN), or EM_NONE.
int elf_machine(const void* image) {
    const auto* header = static_cast<const Elf64_Ehdr*>(image);
    if (std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0) return EM_NONE;
    return header->e_machine;
}

// dlopen works on files: the image goes to a temporary one, removed once loaded.
void* load_host_library(const void* image) {
    const auto* header = static_cast<const Elf64_Ehdr*>(image);
    // A shared library ends with its section headers.
    const size_t size = header->e_shoff + size_t{header->e_shnum} * header->e_shentsize;
    std::string path = (std::filesystem::temp_directory_path() / "fj-emulated-module-XXXXXX").string();
    const int fd = mkstemp(path.data());
    if (fd < 0) return nullptr;
    const bool written = write(fd, image, size) == static_cast<ssize_t>(size);
    close(fd);
    void* library = written ? dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL) : nullptr;
    if (!library)
        std::fprintf(stderr, "stand-in driver: cannot load a host module: %s\n", written ? dlerror() : "write failed");
    unlink(path.c_str());
    return library;
}

bool holds_kernel_file(const std::string& dir) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error))
        if (entry.path().extension() == ".fjk") return true;
    return false;
}

CUresult wait_for_kernel_file(const std::string& dir) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!holds_kernel_file(dir)) {
        if (std::chrono::steady_clock::now() > give_up) return CUDA_ERROR_TIMEOUT;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return CUDA_SUCCESS;
}

}  // namespace

extern "C" {

CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }

// The build's CUDA version, or FJ_STAND_IN_DRIVER_VERSION's (12040: 12.4).
CUresult cuDriverGetVersion(int* version) {
    const char* text = std::getenv("FJ_STAND_IN_DRIVER_VERSION");
    *version = text && *text ? std::atoi(text) : CUDA_VERSION;
    return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
    switch (error) {
    case CUDA_SUCCESS: *name = "CUDA_SUCCESS"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
    case CUDA_ERROR_INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; break;
    case CUDA_ERROR_INVALID_IMAGE: *name = "CUDA_ERROR_INVALID_IMAGE"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *name = "CUDA_ERROR_INVALID_CONTEXT"; break;
    case CUDA_ERROR_TIMEOUT: *name = "CUDA_ERROR_TIMEOUT"; break;
    case CUDA_ERROR_NOT_FOUND: *name = "CUDA_ERROR_NOT_FOUND"; break;
    case CUDA_ERROR_LAUNCH_FAILED: *name = "CUDA_ERROR_LAUNCH_FAILED"; break;
    default: *name = "CUDA_ERROR_UNKNOWN"; return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
    *text = error == CUDA_SUCCESS ? "no error" : "stand-in driver error";
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
    *count = device_count();
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    if (ordinal < 0 || ordinal >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
    *device = ordinal;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice) {
    std::strncpy(name, "flamejit stand-in device", static_cast<size_t>(length));
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
    switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = count_from_env("FJ_STAND_IN_SMS", 1024, 2); break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *value = 228 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = 227 * 1024; break;
    default: *value = 0; break;
    }
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t* bytes, CUdevice) {
    *bytes = size_t{1} << 30;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice device) {
    if (device < 0 || device >= device_count()) return CUDA_ERROR_INVALID_DEVICE;
    const char* how = std::getenv("FJ_STAND_IN_CONTEXT");
    const std::string mode = how ? how : "";
    if (mode == "fail") return CUDA_ERROR_OUT_OF_MEMORY;
    if (mode.rfind("wait:", 0) == 0) {
        const CUresult waited = wait_for_kernel_file(mode.substr(5));
        if (waited != CUDA_SUCCESS) return waited;
    }
    *context = reinterpret_cast<CUcontext>(&context_objects[device]);
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }

CUresult cuCtxSetCurrent(CUcontext context) {
    current = context;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext* context) {
    *context = current;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() { return current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; }

// Calls that need a context fail without one, as the driver's do.
#define FJ_NEEDS_CONTEXT() \
    if (!current) return CUDA_ERROR_INVALID_CONTEXT

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
    FJ_NEEDS_CONTEXT();
    auto loaded = std::make_unique<Module>();
    const int machine = elf_machine(image);
    if (machine == EM_X86_64) {
        loaded->library = load_host_library(image);
        if (!loaded->library) return CUDA_ERROR_INVALID_IMAGE;
    } else if (machine != EM_CUDA) {
        return CUDA_ERROR_INVALID_IMAGE;
    }
    loaded->id = ++modules_loaded;
    log_line("load " + std::to_string(loaded->id));
    *module = reinterpret_cast<CUmodule>(loaded.release());
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
    auto* loaded = reinterpret_cast<Module*>(module);
    if (loaded->library) dlclose(loaded->library);
    delete loaded;
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule module, const char* name) {
    FJ_NEEDS_CONTEXT();
    auto* loaded = reinterpret_cast<Module*>(module);
    EmulatedLaunch launch = nullptr;
    if (loaded->library) {
        const std::string entry = std::string(FJ_EMULATED_ENTRY_PREFIX) + name;
        launch = reinterpret_cast<EmulatedLaunch>(dlsym(loaded->library, entry.c_str()));
        if (!launch) return CUDA_ERROR_NOT_FOUND;
    }
    loaded->functions.push_back(std::make_unique<Function>(Function{launch, loaded->id, name}));
    *function = reinterpret_cast<CUfunction>(loaded->functions.back().get());
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int* value, CUfunction_attribute, CUfunction) {
    *value = 0;
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction, int, size_t) {
    *blocks = 4;
    return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t* free_bytes, size_t* total) {
    *free_bytes = *total = size_t{1} << 30;
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr* pointer, size_t bytes) {
    FJ_NEEDS_CONTEXT();
    void* memory = std::calloc(bytes, 1);
    if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
    *pointer = reinterpret_cast<CUdeviceptr>(memory);
    return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr pointer) {
    std::free(reinterpret_cast<void*>(pointer));
    return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr to, const void* from, size_t bytes, CUstream) {
    FJ_NEEDS_CONTEXT();
    std::memcpy(reinterpret_cast<void*>(to), from, bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync(void* to, CUdeviceptr from, size_t bytes, CUstream) {
    FJ_NEEDS_CONTEXT();
    std::memcpy(to, reinterpret_cast<const void*>(from), bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr to, unsigned int value, size_t count, CUstream) {
    FJ_NEEDS_CONTEXT();
    auto* words = reinterpret_cast<unsigned int*>(to);
    for (size_t i = 0; i < count; ++i) words[i] = value;
    return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream* stream, unsigned int) {
    FJ_NEEDS_CONTEXT();
    *stream = reinterpret_cast<CUstream>(&stream_object);
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }

CUresult cuStreamSynchronize(CUstream) {
    FJ_NEEDS_CONTEXT();
    return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction function, unsigned int grid_x, unsigned int grid_y, unsigned int grid_z,
                        unsigned int block_x, unsigned int block_y, unsigned int block_z, unsigned int shared_bytes,
                        CUstream, void** args, void**) {
    FJ_NEEDS_CONTEXT();
    const Function& f = *reinterpret_cast<Function*>(function);
    log_line("launch " + std::to_string(f.module) + " " + f.name);
    const EmulatedLaunch launch = f.launch;
    if (!launch) return CUDA_SUCCESS;
    const unsigned grid[3] = {grid_x, grid_y, grid_z}, block[3] = {block_x, block_y, block_z};
    char error[1024] = "";
    if (launch(grid, block, shared_bytes, args, error, sizeof error) == 0) return CUDA_SUCCESS;
    std::fprintf(stderr, "stand-in driver: kernel launch failed: %s\n", error);
    return CUDA_ERROR_LAUNCH_FAILED;
}

}  // extern "C"
