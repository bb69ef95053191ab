// flamejit — `flamejit compile`: generate and compile a genome's kernel, report it.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <chrono>
#include <cstdio>

#include <sys/resource.h>

#include "atomic_file.h"
#include "cli_args.h"
#include "cli_common.h"
#include "codegen/param_layout.h"
#include "codegen/switch_kernel.h"
#include "cuda/kernel_cache.h"
#include "cuda/kernel_modules.h"
#include "pipeline/prepared_frame.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit compile GENOME [--arch sm_XX] [--emit-cu FILE] [options]\n"
    "\n"
    "Generates the iteration kernel of each flame's structure (of GENOME; - reads standard\n"
    "input) and compiles it with NVRTC to CUBIN (no GPU needed), through the kernel cache.\n"
    "Prints per flame: the cache key, compile milliseconds (or cache hit), registers and\n"
    "spills of the kernel, and for a compile the process's CPU time, page faults and\n"
    "context switches meanwhile.\n"
    "\n"
    "  --arch sm_XX          target architecture (default sm_90)\n"
    "  --emit-cu FILE        write the generated source to FILE (with several flames:\n"
    "                        FILE gets each flame's index)\n"
    "  --flame I             only flame I (0-based); the file's other flames may use\n"
    "                        variations flamejit lacks\n"
    "  --shuffle S           auto (default: the ring, as the CUDA backend's auto), ring, none,\n"
    "                        full, divergent, sorted\n"
    "  --block N             threads per block (default 256)\n"
    "  --accumulate A        atomic (default: float4 atomics on sm_90), scalar, warp (aggregated),\n"
    "                        shared (per-block shared-memory cache), packed (64-bit packed\n"
    "                        integer atomics; lossy in hot cells, see render --help)\n"
    "  --kernel K            specialized (default), linked (each xform compiled as a\n"
    "                        program of its own, in parallel, then linked) or switch\n"
    "                        (every variation behind a switch: the kernel report's reference)\n"
    "  --linked-registers N  a linked kernel's registers per thread, as for render\n"
    "  --compile-threads N   threads compiling a linked kernel's programs (default: one per core);\n"
    "                        its report then says when each program ran, and on which thread\n"
    "  --palettes FILE, --drop-unknown   as for render\n";

// What the process spent, all threads together: for where a compile's time
// goes beyond NVRTC's own work (a page fault costs far more on some virtual
// machines and sandboxes than on others; benchmarks/README.md).
struct ProcessUsage {
    double cpu_ms = 0;
    long page_faults = 0, context_switches = 0;

    static ProcessUsage now() {
        rusage u{};
        getrusage(RUSAGE_SELF, &u);
        const auto ms = [](const timeval& t) { return t.tv_sec * 1e3 + t.tv_usec / 1e3; };
        return {ms(u.ru_utime) + ms(u.ru_stime), u.ru_minflt + u.ru_majflt, u.ru_nvcsw + u.ru_nivcsw};
    }
};

int run(const Args& args) {
    const ParsedArgs a = parse_args(args,
                                    {"arch", "emit-cu", "flame", "shuffle", "block", "accumulate", "kernel", "palettes",
                                     "linked-registers", "compile-threads"},
                                    {"help", "h", "drop-unknown"});
    if (a.has("help") || a.has("h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    if (a.positional.size() != 1) throw UsageError("compile takes exactly one genome file");
    KernelOptions kopt = kernel_options_from(a);
    // --shuffle auto sorts only on the CPU backend, which compiles nothing.
    kopt.sort_idle_frames = false;
    if (kopt.start_linked)
        throw UsageError("--kernel auto is for render, animate and bench: compile builds one form (specialized, linked or switch)");
    if (kopt.arch.empty()) kopt.arch = "sm_90";
    const long long program_threads = a.integer("compile-threads", 0);
    if (program_threads < 0 || program_threads > 64) throw UsageError("--compile-threads must be in 0..64");
    const GenomeInput input = load_genomes(a);
    const auto emit_path = [&](int index) {
        const std::string path = a.value("emit-cu");
        return input.selected.size() > 1 ? path + "." + std::to_string(index) : path;
    };
    if (a.has("emit-cu"))
        for (int index : input.selected) check_output("--emit-cu", emit_path(index));
    const auto& registry = VariationRegistry::standard();
    KernelCache cache;
    for (int index : input.selected) {
        // The key render would use, the frame-dependent parts (the count
        // channel) included.
        FrameOptions frame_options;
        frame_options.kernel = kopt;
        const KernelKey key = in_flame(input, index, [&] { return prepare_still(input.flames[index], frame_options).key; });
        const ParamLayout layout = make_param_layout(key, registry);
        CompileRequest request = kernel_request(key, layout);
        request.program_threads = static_cast<int>(program_threads);
        if (a.has("emit-cu"))
            write_file_atomically(emit_path(index), kernel_source(key, layout, registry, SnippetSource::standard()));
        const ProcessUsage before = ProcessUsage::now();
        const auto t0 = std::chrono::steady_clock::now();
        const CompiledKernel k = cache.get(request);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        const ProcessUsage after = ProcessUsage::now();
        if (k.cache_hit)
            std::printf("flame %d: key %s  cache hit in %.2f ms (first compile took %.1f ms)", index, k.key.c_str(), ms,
                        k.compile_ms);
        else
            std::printf("flame %d: key %s  compiled in %.1f ms", index, k.key.c_str(), ms);
        std::printf("  registers %d  spills %d/%d bytes (store/load)  %s\n", k.registers, k.spill_stores,
                    k.spill_loads, kopt.arch.c_str());
        if (k.linked && !k.cache_hit) {
            std::printf("  linked: %d programs, the slowest %.1f ms, all %.1f ms; nvJitLink loaded in %.1f ms, linked in "
                        "%.1f ms\n",
                        k.linked->programs, k.linked->slowest_ms, k.linked->all_ms, k.linked->linker_load_ms,
                        k.linked->link_ms);
            // Where each program's time fell: a program that starts late or
            // runs longer on a busy machine shows here, not in the sums.
            std::printf("  programs on %d threads (start-end ms, thread):", k.linked->threads);
            for (size_t i = 0; i < k.linked->spans.size(); ++i) {
                const ProgramSpan& p = k.linked->spans[i];
                std::printf("%s %zu: %.0f-%.0f t%d", i ? "," : "", i + 1, p.start_ms, p.end_ms, p.thread);
            }
            std::printf("\n");
        }
        if (!k.cache_hit)
            std::printf("  process during the compile: CPU %.0f ms, %ld page faults, %ld context switches\n",
                        after.cpu_ms - before.cpu_ms, after.page_faults - before.page_faults,
                        after.context_switches - before.context_switches);
        std::printf("  structure: %s\n", key.canonical().c_str());
    }
    return 0;
}

}  // namespace

int cmd_compile(const Args& args) { return run_guarded("compile", [&] { return run(args); }); }

}  // namespace fj::cli
