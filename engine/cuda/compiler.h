// flamejit — turns generated CUDA source into a CUBIN with NVRTC.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compilation needs no GPU: a named arch (sm_90, ...) is enough, so every
// kernel can be compiled, and its register/spill report read, on any machine
// with NVRTC. The options keep IEEE float semantics (no --use_fast_math): the
// CPU backend runs the same snippets with the host compiler's exact sinf,
// atan2f and divisions, and flam3 itself iterates in double, so approximate
// intrinsics would make the two backends disagree in ways a test could not
// tell from bugs. Fast math is a speed option to be measured, not a default.
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace fj {

// One program's NVRTC run (create, compile, CUBIN) within a linked compile:
// when it started and ended, in ms from the compile's start, and which of
// the pool's threads ran it (0: the calling thread).
struct ProgramSpan {
    double start_ms = 0, end_ms = 0;
    int thread = 0;
};

// How a linked kernel's compile went (not kept in the cache): the slowest
// of its programs' NVRTC runs, all of them together, nvJitLink's loading on
// the calling thread (once a process), the link, and each program's span on
// the pool's threads.
struct LinkedCompileTimes {
    int programs = 0, threads = 0;
    double slowest_ms = 0, all_ms = 0, linker_load_ms = 0, link_ms = 0;
    std::vector<ProgramSpan> spans;  // one per program, in program order
};

struct CompiledKernel {
    std::string cubin;
    std::string log;          // NVRTC's program log (ptxas report included)
    double compile_ms = 0;    // time NVRTC took when the kernel was first built
    int registers = -1;       // of the entry point; -1 when the report lacks it
    int spill_stores = 0;     // bytes
    int spill_loads = 0;      // bytes
    bool cache_hit = false;   // true when found in memory or on disk
    std::string key;          // 32 hex digits (kernel_cache.h)
    std::shared_ptr<const LinkedCompileTimes> linked;  // a linked kernel just compiled
};

struct CompileRequest {
    std::string source;  // the kernel; for a linked kernel, its entry points' program
    // A linked kernel's other programs (codegen/switch_kernel.h,
    // KernelPrograms). With any, every program compiles with -rdc=true, these
    // with -maxrregcount=part_registers, all at once on threads, and
    // nvJitLink links the CUBINs into one.
    std::vector<std::string> parts;
    int part_registers = 0;
    int program_threads = 0;  // threads compiling a linked kernel's programs; 0: one per core
    std::string arch = "sm_90";
    std::string entry = "fj_iterate";  // whose registers and spills are reported
    std::string name = "flamejit_kernel.cu";  // for NVRTC's diagnostics
};

// A compile that NVRTC rejected. The source and the log are kept on disk so
// the user can read them; the message says where.
class KernelCompileError : public std::runtime_error {
public:
    KernelCompileError(const std::string& message, std::string source_path, std::string log_path)
        : std::runtime_error(message),
          source_path_(std::move(source_path)),
          log_path_(std::move(log_path)) {}
    const std::string& source_path() const { return source_path_; }
    const std::string& log_path() const { return log_path_; }

private:
    std::string source_path_, log_path_;
};

// The option list given to NVRTC for an arch; part of the cache key. It is
// nvrtc_code_options(arch), then nvrtc_compile_time_options(), then
// nvrtc_extra_options().
std::vector<std::string> nvrtc_options(const std::string& arch);

// The options of program `index` of a request: nvrtc_options(arch) for one
// program; with parts, -rdc=true for each, and the parts' register bound.
std::vector<std::string> program_options(const CompileRequest& request, size_t index);

// Options from the environment variable FLAMEJIT_NVRTC_OPTIONS (separated by
// blanks), for measuring code options on a GPU before adopting one (e.g.
// "-Xptxas=-O1" or "-Ofc=min"; benchmarks/README.md "Compile path"). Kernels
// compiled with them have keys of their own in the cache; NVRTC refusing one
// is an error naming it.
std::vector<std::string> nvrtc_extra_options();

// The options that decide what NVRTC generates (language, arch, execution
// space) and the ptxas report.
std::vector<std::string> nvrtc_code_options(const std::string& arch);

// Options that only make NVRTC faster: the CUBIN's code is the same with and
// without them (tests/kernel_cache_test.cpp compares cubin_code_digest); they
// depend on the loaded NVRTC's version (-no-cache from 12.9). An
// option that changes generated code belongs in nvrtc_code_options, and only
// after a measurement on a GPU.
std::vector<std::string> nvrtc_compile_time_options();

// A header handed to nvrtcCreateProgram instead of read from disk.
struct NvrtcHeader {
    std::string name;  // as the source #includes it
    std::string text;
};

// One NVRTC compilation as it happened. Times are wall milliseconds of the
// three steps; loading NVRTC itself is not included.
struct NvrtcRun {
    bool compiled = false;  // false: NVRTC rejected the source (the log says why)
    std::string cubin;
    std::string log;
    double create_ms = 0;   // nvrtcCreateProgram
    double compile_ms = 0;  // nvrtcCompileProgram: front end, NVVM, ptxas
    double cubin_ms = 0;    // the log and the CUBIN copied out, the program freed
};

// Compiles `source` with exactly `options`: what compile_kernel does, for
// callers that choose their own options (tools/nvrtc_options.cpp measures
// option sets with it). Throws std::runtime_error when NVRTC is unusable or
// fails for a reason other than the source (an unknown option, ...), with
// the first line of NVRTC's log.
NvrtcRun run_nvrtc(const std::string& source, const std::string& name,
                   const std::vector<std::string>& options,
                   const std::vector<NvrtcHeader>& headers = {});

// Compiles with NVRTC (a linked kernel: its programs on as many threads as
// the machine has, then nvJitLink links them; compile_ms is the wall time of
// it all). On failure, to compile or to link, writes `<failed_dir>/<key>.cu`
// and `.log` and throws KernelCompileError; throws std::runtime_error when
// NVRTC (or nvJitLink) is unusable or fails for a reason other than the
// source.
CompiledKernel compile_kernel(const CompileRequest& request, const std::string& key,
                              const std::string& failed_dir);

struct PtxasReport {
    int registers = -1;
    int spill_stores = 0, spill_loads = 0;
};

// Reads ptxas's -v report for one entry function from an NVRTC log.
PtxasReport parse_ptxas_report(const std::string& log, const std::string& entry);

// Adds the spill bytes of the functions in ptxas's -v report that are not
// entries (a linked kernel's xform functions, or a kernel's xforms as calls,
// and the out-of-line math) to *report.
void add_function_spills(const std::string& log, PtxasReport* report);

}  // namespace fj
