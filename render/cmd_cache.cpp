// flamejit — `flamejit cache`: the kernel cache's folder and size; clear or prune it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cstdio>
#include <stdexcept>

#include "cli_args.h"
#include "cli_common.h"
#include "cuda/kernel_cache.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit cache [info | clear | prune --max-size SIZE]\n"
    "\n"
    "The compiled kernels flamejit keeps between runs (one file per genome structure,\n"
    "arch and option set).\n"
    "\n"
    "  info (default)          the folder, its kernels and their size, the size bound,\n"
    "                          and the failed compiles kept for reading\n"
    "  clear                   delete every cached kernel and kept failed compile\n"
    "  prune --max-size SIZE   delete the least recently used kernels until the rest\n"
    "                          take at most SIZE (bytes, or with K, M or G: 200M, 1G)\n"
    "\n"
    "The folder is FLAMEJIT_CACHE_DIR, else $XDG_CACHE_HOME/flamejit, else\n"
    "~/.cache/flamejit. Every compile keeps it under FLAMEJIT_CACHE_MAX_MB (default\n"
    "1024; 0 for no bound) by the same pruning.\n";

double mib(uint64_t bytes) { return static_cast<double>(bytes) / 1048576.0; }

int run(const Args& args) {
    const ParsedArgs a = parse_args(args, {"max-size"}, {"help", "h"});
    if (a.has("help") || a.has("h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (a.positional.size() > 1) throw UsageError("cache takes one action: info, clear or prune");
    const std::string action = a.positional.empty() ? "info" : a.positional[0];
    if (action != "prune" && a.has("max-size")) throw UsageError("--max-size belongs to cache prune");
    KernelCache cache;
    if (!cache.disk_enabled())
        throw std::runtime_error("no usable kernel cache folder" +
                                 (cache.directory().empty() ? std::string(" (HOME is not set)") : " at " + cache.directory()));

    if (action == "info") {
        const KernelCacheUsage kernels = cache.disk_usage();
        const KernelCacheUsage failed = cache.failed_usage();
        std::printf("folder: %s\n", cache.directory().c_str());
        std::printf("kernels: %llu, %.1f MiB\n", static_cast<unsigned long long>(kernels.files),
                    mib(kernels.bytes));
        if (cache.max_bytes() > 0) std::printf("bound: %.0f MiB\n", mib(cache.max_bytes()));
        else std::printf("bound: none\n");
        std::printf("failed compiles kept: %llu files in %s\n", static_cast<unsigned long long>(failed.files),
                    cache.failed_directory().c_str());
        return 0;
    }
    if (action == "clear") {
        const KernelCacheUsage removed = cache.clear();
        std::printf("deleted %llu kernels (%.1f MiB) from %s\n", static_cast<unsigned long long>(removed.files),
                    mib(removed.bytes), cache.directory().c_str());
        return 0;
    }
    if (action == "prune") {
        if (!a.has("max-size")) throw UsageError("cache prune needs --max-size SIZE");
        const KernelCacheUsage removed = cache.prune(parse_byte_size("max-size", a.value("max-size")));
        const KernelCacheUsage left = cache.disk_usage();
        std::printf("deleted %llu kernels (%.1f MiB); %llu left (%.1f MiB) in %s\n",
                    static_cast<unsigned long long>(removed.files), mib(removed.bytes),
                    static_cast<unsigned long long>(left.files), mib(left.bytes), cache.directory().c_str());
        return 0;
    }
    throw UsageError("unknown cache action '" + action + "' (info, clear or prune)");
}

}  // namespace

int cmd_cache(const Args& args) { return run_guarded("cache", [&] { return run(args); }); }

}  // namespace fj::cli
