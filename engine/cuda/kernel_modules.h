// flamejit — a CUDA backend's kernels: compiled for its device, loaded once, sized to it.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A kernel is compiled (or found in the kernel cache) without the device's
// context, so `prepare` may run on any thread: while the backend makes its
// context, or while a frame renders. `load` runs on the rendering thread in
// the device's context: it loads the module, takes its functions, and sizes
// its launch from the occupancy API (blocks per SM, and the shared-memory
// hit cache of --accumulate shared).
#pragma once

#include <map>
#include <mutex>
#include <string>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "cuda/compiler.h"
#include "cuda/driver_api.h"
#include "cuda/kernel_cache.h"

namespace fj {

// A loaded module: its functions and the launch shape sized for the device.
struct LoadedKernel {
    CUmodule module = nullptr;
    CUfunction seed = nullptr;
    CUfunction iterate = nullptr;
    CUfunction atomic_ceiling = nullptr;
    CUfunction packed_flush = nullptr;  // --accumulate packed only
    Accumulation accumulation = Accumulation::Atomic;
    unsigned int block = 0;
    unsigned int grid = 0;  // blocks: all resident at once
    int blocks_per_sm = 0;
    bool fixed_blocks = false;  // blocks_per_sm was named (--blocks-per-sm): no smaller grids
    int registers = -1;
    unsigned int dynamic_shared = 0;  // bytes: the hit cache of --accumulate shared
    unsigned int cache_bits = 0;
};

// The device's compute capability as NVRTC names it (sm_XY).
std::string device_arch(CUdevice device);

// What the kernel cache compiles for a key (its programs, for key.arch).
CompileRequest kernel_request(const KernelKey& key, const ParamLayout& layout);

class KernelModules {
public:
    // `arch`: the NVRTC target (the device's own, or what the user named);
    // `max_blocks_per_sm` > 0 caps the grid (CudaBackendOptions says why).
    KernelModules(const std::string& cache_dir, CUdevice device, std::string arch, int max_blocks_per_sm);
    KernelModules(const KernelModules&) = delete;
    KernelModules& operator=(const KernelModules&) = delete;

    // Compiles the kernel of `requested` (built for this device's arch)
    // unless it is compiled or loaded already. Thread-safe; needs no context.
    void prepare(const KernelKey& requested, const ParamLayout& layout);
    // The loaded kernel, compiled first where no prepare did it. Needs the
    // device's context current; the returned reference stays valid.
    const LoadedKernel& load(const KernelKey& requested, const ParamLayout& layout);
    // Unloads every module; in the device's context.
    void unload_all();

private:
    KernelKey device_key(const KernelKey& requested) const;
    CompiledKernel compile(const KernelKey& key, const ParamLayout& layout);
    void size_hit_cache(LoadedKernel& kernel, int blocks_per_sm);

    KernelCache cache_;
    CUdevice device_;
    std::string arch_;
    int max_blocks_per_sm_;
    int sm_count_ = 0;
    std::mutex mutex_;  // loaded_ and prepared_
    std::map<std::string, LoadedKernel> loaded_;
    std::map<std::string, CompiledKernel> prepared_;  // compiled by prepare, not loaded yet
};

}  // namespace fj
