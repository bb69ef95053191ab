// flamejit — `flamejit info`: what works on this machine, and why not.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <thread>

#include "cli_args.h"
#include "cli_common.h"
#include "codegen/variation_registry.h"
#include "cuda/cuda_backend.h"
#include "cuda/kernel_cache.h"
#include "cuda/nvrtc_api.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit info\n"
    "\n"
    "Prints which backends work here (and why not), the CUDA devices, the driver and\n"
    "NVRTC versions, the number of variations, and the kernel cache folder and size.\n";

int run(const Args& args) {
    const ParsedArgs a = parse_args(args, {}, {"help", "h"});
    if (a.has("help") || a.has("h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (!a.positional.empty()) throw UsageError("info takes no arguments");
    std::printf("flamejit %s\n", FLAMEJIT_VERSION);
    std::printf("backend cpu: available (%u hardware threads)\n", std::thread::hardware_concurrency());
    std::string why_not;
    if (cuda_available(&why_not)) {
        const CudaSystemInfo sys = describe_devices();
        std::printf("backend cuda: available, driver %d.%d\n", sys.driver_version / 1000,
                    (sys.driver_version % 1000) / 10);
        for (const auto& d : sys.devices)
            std::printf("  device %d: %s, sm_%d%d, %d SMs, %.1f GiB\n", d.index, d.name.c_str(), d.cc_major,
                        d.cc_minor, d.multiprocessors, d.memory_bytes / 1073741824.0);
    } else {
        std::printf("backend cuda: unavailable (%s)\n", why_not.c_str());
    }
    std::string nvrtc_why;
    if (nvrtc_available(&nvrtc_why))
        std::printf("nvrtc: %s (%s)\n", nvrtc_version().c_str(), nvrtc_library_path().c_str());
    else
        std::printf("nvrtc: unavailable (%s)\n", nvrtc_why.c_str());
    std::printf("variations: %zu\n", VariationRegistry::standard().all().size());
    KernelCache cache;
    const KernelCacheUsage usage = cache.disk_usage();
    const std::string bound =
        cache.max_bytes() > 0 ? " of " + std::to_string(cache.max_bytes() >> 20) + " MiB" : ", unbounded";
    std::printf("kernel cache: %s (%llu kernels, %.1f MiB%s)%s\n", cache.directory().c_str(),
                static_cast<unsigned long long>(usage.files), usage.bytes / 1048576.0, bound.c_str(),
                cache.disk_enabled() ? "" : " [disk cache disabled]");
    return 0;
}

}  // namespace

int cmd_info(const Args& args) { return run_guarded("info", [&] { return run(args); }); }

}  // namespace fj::cli
