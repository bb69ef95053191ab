// flamejit — `flamejit info`: what works on this machine, and why not.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "cli_common.h"
#include "codegen/variation_registry.h"
#include "cuda/cuda_backend.h"
#include "cuda/kernel_cache.h"
#include "cuda/nvjitlink_api.h"
#include "cuda/nvrtc_api.h"
#include "flamejit_commit.h"
#include "host_info.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit info [--json]\n"
    "\n"
    "Prints which backends work here (and why not), the CUDA devices, the driver and\n"
    "NVRTC versions, nvJitLink's library, the number of variations, and the kernel\n"
    "cache folder and size.\n"
    "  --json   the same as one JSON object, for scripts: version, commit, backends.cpu\n"
    "           (available, threads), backends.cuda (available, reason or driver_version\n"
    "           and, where the NVIDIA driver says it, nvidia_driver),\n"
    "           devices (index, name, sm, multiprocessors, memory_bytes), nvrtc (available,\n"
    "           version, library or reason), nvjitlink (available, library or reason),\n"
    "           variations, kernel_cache (folder, kernels, bytes, max_bytes, disk)\n";

// What info reports, gathered once for either form.
nlohmann::json describe_machine() {
    nlohmann::json j;
    j["version"] = FLAMEJIT_VERSION;
    j["commit"] = FLAMEJIT_COMMIT;
    j["backends"]["cpu"] = {{"available", true}, {"threads", std::thread::hardware_concurrency()}};
    nlohmann::json devices = nlohmann::json::array();
    std::string why_not;
    if (cuda_available(&why_not)) {
        const CudaSystemInfo sys = describe_devices();
        j["backends"]["cuda"] = {{"available", true}, {"driver_version", sys.driver_version}};
        if (const std::string module = nvidia_driver_version(); !module.empty())
            j["backends"]["cuda"]["nvidia_driver"] = module;
        for (const auto& d : sys.devices)
            devices.push_back({{"index", d.index},
                               {"name", d.name},
                               {"sm", "sm_" + std::to_string(d.cc_major) + std::to_string(d.cc_minor)},
                               {"multiprocessors", d.multiprocessors},
                               {"memory_bytes", d.memory_bytes}});
    } else {
        j["backends"]["cuda"] = {{"available", false}, {"reason", why_not}};
    }
    j["devices"] = devices;
    std::string nvrtc_why;
    if (nvrtc_available(&nvrtc_why))
        j["nvrtc"] = {{"available", true}, {"version", nvrtc_version()}, {"library", nvrtc_library_path()}};
    else
        j["nvrtc"] = {{"available", false}, {"reason", nvrtc_why}};
    std::string linker_why;
    if (nvjitlink_available(&linker_why))
        j["nvjitlink"] = {{"available", true}, {"library", nvjitlink_library_path()}};
    else
        j["nvjitlink"] = {{"available", false}, {"reason", linker_why}};
    j["variations"] = VariationRegistry::standard().all().size();
    KernelCache cache;
    const KernelCacheUsage usage = cache.disk_usage();
    j["kernel_cache"] = {{"folder", cache.directory()},
                         {"kernels", usage.files},
                         {"bytes", usage.bytes},
                         {"max_bytes", cache.max_bytes()},  // 0: unbounded
                         {"disk", cache.disk_enabled()}};
    return j;
}

void print_text(const nlohmann::json& j) {
    std::printf("flamejit %s\n", j["version"].get<std::string>().c_str());
    std::printf("backend cpu: available (%u hardware threads)\n", j["backends"]["cpu"]["threads"].get<unsigned>());
    const nlohmann::json& cuda = j["backends"]["cuda"];
    if (cuda["available"].get<bool>()) {
        const int driver = cuda["driver_version"].get<int>();
        std::printf("backend cuda: available, driver %d.%d", driver / 1000, (driver % 1000) / 10);
        if (cuda.contains("nvidia_driver"))
            std::printf(" (NVIDIA %s)", cuda["nvidia_driver"].get<std::string>().c_str());
        std::printf("\n");
        for (const auto& d : j["devices"])
            std::printf("  device %d: %s, %s, %d SMs, %.1f GiB\n", d["index"].get<int>(),
                        d["name"].get<std::string>().c_str(), d["sm"].get<std::string>().c_str(),
                        d["multiprocessors"].get<int>(), d["memory_bytes"].get<double>() / 1073741824.0);
    } else {
        std::printf("backend cuda: unavailable (%s)\n", cuda["reason"].get<std::string>().c_str());
    }
    const nlohmann::json& nvrtc = j["nvrtc"];
    if (nvrtc["available"].get<bool>())
        std::printf("nvrtc: %s (%s)\n", nvrtc["version"].get<std::string>().c_str(),
                    nvrtc["library"].get<std::string>().c_str());
    else
        std::printf("nvrtc: unavailable (%s)\n", nvrtc["reason"].get<std::string>().c_str());
    const nlohmann::json& linker = j["nvjitlink"];
    if (linker["available"].get<bool>())
        std::printf("nvjitlink: %s (--kernel linked)\n", linker["library"].get<std::string>().c_str());
    else
        std::printf("nvjitlink: unavailable (%s; --kernel linked needs it)\n",
                    linker["reason"].get<std::string>().c_str());
    std::printf("variations: %zu\n", j["variations"].get<size_t>());
    const nlohmann::json& cache = j["kernel_cache"];
    const auto max_bytes = cache["max_bytes"].get<unsigned long long>();
    const std::string bound = max_bytes > 0 ? " of " + std::to_string(max_bytes >> 20) + " MiB" : ", unbounded";
    std::printf("kernel cache: %s (%llu kernels, %.1f MiB%s)%s\n", cache["folder"].get<std::string>().c_str(),
                cache["kernels"].get<unsigned long long>(), cache["bytes"].get<double>() / 1048576.0, bound.c_str(),
                cache["disk"].get<bool>() ? "" : " [disk cache disabled]");
}

int run(const Args& args) {
    const ParsedArgs a = parse_args(args, {}, {"help", "h", "json"});
    if (a.has("help") || a.has("h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (!a.positional.empty()) throw UsageError("info takes no arguments");
    const nlohmann::json j = describe_machine();
    if (a.has("json"))
        std::printf("%s\n", j.dump(2).c_str());
    else
        print_text(j);
    return 0;
}

}  // namespace

int cmd_info(const Args& args) { return run_guarded("info", [&] { return run(args); }); }

}  // namespace fj::cli
