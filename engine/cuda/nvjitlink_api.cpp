// flamejit — loads nvJitLink with dlopen; links CUBINs.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/nvjitlink_api.h"

#include <dlfcn.h>

#include <stdexcept>

#include "cuda/toolkit_library.h"

namespace fj {
namespace {

// The soname of the toolkit flamejit is built against.
constexpr const char* kNvJitLinkSoname = "libnvJitLink.so.13";

struct LoadedNvJitLink {
    NvJitLinkApi api;
    std::string path;
    bool usable = false;
    std::string why_not;
};

LoadedNvJitLink load_nvjitlink() {
    LoadedNvJitLink out;
    std::string errors;
    void* handle = open_toolkit_library(kNvJitLinkSoname, "FLAMEJIT_NVJITLINK_PATH", &out.path, &errors);
    if (!handle) {
        out.why_not = "nvJitLink not found (" + errors +
                      "); install the CUDA toolkit's nvJitLink or set FLAMEJIT_NVJITLINK_PATH";
        return out;
    }
#define FJ_NVJITLINK_SYMBOL(name)                                                      \
    if (out.why_not.empty()) {                                                         \
        out.api.name = reinterpret_cast<decltype(out.api.name)>(dlsym(handle, #name)); \
        if (!out.api.name) out.why_not = "nvJitLink at " + out.path + " lacks " #name; \
    }
#include "cuda/nvjitlink_symbols.def"
#undef FJ_NVJITLINK_SYMBOL
    if (!out.why_not.empty()) {
        out.api = NvJitLinkApi{};
        out.path.clear();
        dlclose(handle);
        return out;
    }
    out.usable = true;
    return out;
}

// Frees the linker on every path, including exceptions.
struct LinkerGuard {
    const NvJitLinkApi& api;
    nvJitLinkHandle handle = nullptr;
    ~LinkerGuard() {
        if (handle) api.nvJitLinkDestroy(&handle);
    }
};

void check(nvJitLinkResult result, const char* call) {
    if (result != NVJITLINK_SUCCESS)
        throw std::runtime_error(std::string(call) + " failed: nvJitLinkResult " + std::to_string(result));
}

// One of nvJitLink's logs, without its trailing NULs and line ends.
std::string link_log(nvJitLinkResult (*size_of)(nvJitLinkHandle, size_t*),
                     nvJitLinkResult (*read)(nvJitLinkHandle, char*), nvJitLinkHandle handle) {
    size_t size = 0;
    if (size_of(handle, &size) != NVJITLINK_SUCCESS || size == 0) return "";
    std::string log(size, '\0');
    if (read(handle, log.data()) != NVJITLINK_SUCCESS) return "";
    while (!log.empty() && (log.back() == '\0' || log.back() == '\n')) log.pop_back();
    return log;
}

const LoadedNvJitLink& nvjitlink_state() {
    static const LoadedNvJitLink state = load_nvjitlink();
    return state;
}

}  // namespace

const NvJitLinkApi& nvjitlink() {
    const LoadedNvJitLink& state = nvjitlink_state();
    if (!state.usable) throw std::runtime_error(state.why_not);
    return state.api;
}

bool nvjitlink_available(std::string* why_not) {
    const LoadedNvJitLink& state = nvjitlink_state();
    if (!state.usable && why_not) *why_not = state.why_not;
    return state.usable;
}

std::string nvjitlink_library_path() {
    return nvjitlink_state().path;
}

LinkRun link_cubins(const std::vector<std::string>& objects, const std::string& arch) {
    const NvJitLinkApi& api = nvjitlink();
    LinkRun out;
    const std::string arch_option = "-arch=" + arch;
    const char* options[] = {arch_option.c_str()};
    LinkerGuard guard{api};
    check(api.nvJitLinkCreate(&guard.handle, 1, options), "nvJitLinkCreate");
    // nvJitLink keeps the names it is given, not copies, and reads them again
    // when the link completes (AddressSanitizer saw it read a name whose
    // string was gone): they live as long as the link.
    std::vector<std::string> names;
    for (size_t i = 0; i < objects.size(); ++i) names.push_back("program" + std::to_string(i));
    for (size_t i = 0; i < objects.size(); ++i)
        check(api.nvJitLinkAddData(guard.handle, NVJITLINK_INPUT_CUBIN, objects[i].data(), objects[i].size(),
                                   names[i].c_str()),
              "nvJitLinkAddData");
    const nvJitLinkResult completed = api.nvJitLinkComplete(guard.handle);
    out.log = link_log(api.nvJitLinkGetErrorLogSize, api.nvJitLinkGetErrorLog, guard.handle);
    const std::string info = link_log(api.nvJitLinkGetInfoLogSize, api.nvJitLinkGetInfoLog, guard.handle);
    if (!info.empty()) out.log += (out.log.empty() ? "" : "\n") + info;
    if (completed == NVJITLINK_SUCCESS) {
        size_t size = 0;
        check(api.nvJitLinkGetLinkedCubinSize(guard.handle, &size), "nvJitLinkGetLinkedCubinSize");
        out.cubin.resize(size);
        check(api.nvJitLinkGetLinkedCubin(guard.handle, out.cubin.data()), "nvJitLinkGetLinkedCubin");
        out.linked = true;
    } else if (out.log.empty()) {
        // Nothing said about the objects: nvJitLink itself failed.
        check(completed, "nvJitLinkComplete");
    }
    return out;
}

}  // namespace fj
