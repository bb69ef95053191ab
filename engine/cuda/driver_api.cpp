// flamejit — loads the CUDA driver with dlopen and checks its results.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/driver_api.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <mutex>

namespace fj {
namespace {

// Two steps so that a #define'd name (cuMemAlloc -> cuMemAlloc_v2) is expanded
// before it is turned into the dlsym string.
#define FJ_STRINGIFY_EXPANDED(x) FJ_STRINGIFY_RAW(x)
#define FJ_STRINGIFY_RAW(x) #x

std::string cuda_result_text_with(const DriverApi& api, CUresult result) {
    const char* name = nullptr;
    const char* text = nullptr;
    if (api.cuGetErrorName) api.cuGetErrorName(result, &name);
    if (api.cuGetErrorString) api.cuGetErrorString(result, &text);
    std::string out = name ? name : "CUresult " + std::to_string(static_cast<int>(result));
    if (text) out += std::string(" (") + text + ")";
    return out;
}

struct LoadedDriver {
    DriverApi api;
    void* handle = nullptr;
    bool usable = false;
    std::string why_not;  // set when !usable
};

LoadedDriver load_driver() {
    LoadedDriver out;
    const char* override_path = std::getenv("FLAMEJIT_LIBCUDA_PATH");
    const bool overridden = override_path && *override_path;
    const char* path = overridden ? override_path : "libcuda.so.1";
    out.handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!out.handle) {
        const char* err = dlerror();
        out.why_not = std::string("CUDA driver library not found (") + (err ? err : path) + ")" +
                      (overridden ? "; check FLAMEJIT_LIBCUDA_PATH"
                                  : "; install the NVIDIA driver or set FLAMEJIT_LIBCUDA_PATH");
        return out;
    }
    const char* missing = nullptr;
#define FJ_DRIVER_SYMBOL(name)                                                          \
    if (!missing) {                                                                     \
        out.api.name = reinterpret_cast<decltype(out.api.name)>(                        \
            dlsym(out.handle, FJ_STRINGIFY_EXPANDED(name)));                            \
        if (!out.api.name) missing = FJ_STRINGIFY_EXPANDED(name);                       \
    }
#include "cuda/driver_symbols.def"
#undef FJ_DRIVER_SYMBOL
    if (missing) {
        out.why_not = std::string("CUDA driver at ") + path + " lacks " + missing +
                      " (not a CUDA driver, or one older than CUDA 12)";
        out.api = DriverApi{};
        dlclose(out.handle);
        out.handle = nullptr;
        return out;
    }
    const CUresult init = out.api.cuInit(0);
    if (init != CUDA_SUCCESS) {
        // Kept loaded: cuGetErrorName still works and the text helps the user.
        out.why_not = "cuInit failed: " + std::string(cuda_result_text_with(out.api, init)) +
                      (init == CUDA_ERROR_NO_DEVICE ? "" : "; check nvidia-smi");
        return out;
    }
    out.usable = true;
    return out;
}

const LoadedDriver& driver_state() {
    // Never unloaded: kernels and the post-pass may run until process exit.
    static const LoadedDriver state = load_driver();
    return state;
}

}  // namespace

const DriverApi& cuda_driver() {
    const LoadedDriver& state = driver_state();
    if (!state.usable) throw std::runtime_error(state.why_not);
    return state.api;
}

bool cuda_driver_loaded(std::string* why_not) {
    const LoadedDriver& state = driver_state();
    if (!state.usable && why_not) *why_not = state.why_not;
    return state.usable;
}

std::string cuda_result_text(CUresult result) {
    return cuda_result_text_with(driver_state().api, result);
}

void cuda_check(CUresult result, const char* expression, const char* file, int line) {
    if (result == CUDA_SUCCESS) return;
    // The build passes absolute paths; the file name is enough to find the call.
    const char* slash = std::strrchr(file, '/');
    const char* short_file = slash ? slash + 1 : file;
    throw CudaError(std::string(expression) + " failed at " + short_file + ":" +
                        std::to_string(line) + ": " + cuda_result_text(result),
                    result);
}

}  // namespace fj
