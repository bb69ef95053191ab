// flamejit — loads NVRTC with dlopen.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/nvrtc_api.h"

#include <dlfcn.h>

#include <stdexcept>

#include "cuda/toolkit_library.h"

namespace fj {
namespace {

#define FJ_NVRTC_STRINGIFY(x) #x

// The soname of the toolkit flamejit is built against: NVRTC's ABI changes
// with the major version.
constexpr const char* kNvrtcSoname = "libnvrtc.so.13";

struct LoadedNvrtc {
    NvrtcApi api;
    void* handle = nullptr;
    std::string path;
    bool usable = false;
    std::string why_not;
};

LoadedNvrtc load_nvrtc() {
    LoadedNvrtc out;
    std::string errors;
    out.handle = open_toolkit_library(kNvrtcSoname, "FLAMEJIT_NVRTC_PATH", &out.path, &errors);
    if (!out.handle) {
        out.why_not = "NVRTC not found (" + errors +
                      "); install the CUDA toolkit's NVRTC or set FLAMEJIT_NVRTC_PATH";
        return out;
    }
#define FJ_NVRTC_SYMBOL(name)                                                           \
    if (out.why_not.empty()) {                                                          \
        out.api.name = reinterpret_cast<decltype(out.api.name)>(                        \
            dlsym(out.handle, FJ_NVRTC_STRINGIFY(name)));                               \
        if (!out.api.name)                                                              \
            out.why_not = "NVRTC at " + out.path + " lacks " FJ_NVRTC_STRINGIFY(name);  \
    }
#include "cuda/nvrtc_symbols.def"
#undef FJ_NVRTC_SYMBOL
    if (!out.why_not.empty()) {
        out.api = NvrtcApi{};
        dlclose(out.handle);
        out.handle = nullptr;
        return out;
    }
    out.usable = true;
    return out;
}

const LoadedNvrtc& nvrtc_state() {
    static const LoadedNvrtc state = load_nvrtc();
    return state;
}

}  // namespace

const NvrtcApi& nvrtc() {
    const LoadedNvrtc& state = nvrtc_state();
    if (!state.usable) throw std::runtime_error(state.why_not);
    return state.api;
}

bool nvrtc_available(std::string* why_not) {
    const LoadedNvrtc& state = nvrtc_state();
    if (!state.usable && why_not) *why_not = state.why_not;
    return state.usable;
}

int nvrtc_version_number() {
    const LoadedNvrtc& state = nvrtc_state();
    int major = 0, minor = 0;
    if (!state.usable || state.api.nvrtcVersion(&major, &minor) != NVRTC_SUCCESS) return 0;
    return major * 100 + minor;
}

std::vector<int> nvrtc_supported_archs() {
    const LoadedNvrtc& state = nvrtc_state();
    int count = 0;
    if (!state.usable || state.api.nvrtcGetNumSupportedArchs(&count) != NVRTC_SUCCESS || count <= 0) return {};
    std::vector<int> archs(static_cast<size_t>(count));
    if (state.api.nvrtcGetSupportedArchs(archs.data()) != NVRTC_SUCCESS) return {};
    return archs;
}

std::string nvrtc_version() {
    const int version = nvrtc_version_number();
    return version == 0 ? "" : std::to_string(version / 100) + "." + std::to_string(version % 100);
}

std::string nvrtc_library_path() {
    return nvrtc_state().path;
}

}  // namespace fj
