// flamejit — a CUDA backend's kernels: compiled for its device, loaded once, sized to it.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A kernel is compiled (or found in the kernel cache) without the device's
// context, so `prepare` may run on any thread: while the backend makes its
// context, or while a frame renders. `load` runs on the rendering thread in
// the device's context: it loads the module, takes its functions, and sizes
// its launch from the occupancy API (blocks per SM, and the shared-memory
// hit cache of --accumulate shared).
//
// Starting linked (`start_linked`): a specialized kernel that the kernel
// cache does not hold is stood in for by the linked kernel of its key
// (--kernel linked: its programs compile at once on the host's cores, in a
// fraction of the specialized kernel's time where there are many xforms)
// while the specialized one compiles on a thread of its own; `upgrade` hands
// it over once it is ready. Both take the same parameter block, seed the same
// pool and plot the same hits, so a frame may change kernels between
// launches. Without nvJitLink there is no stand-in: frames wait for their
// kernel as before. The compile left running when the modules go is waited
// for, so that the next process finds the specialized kernel in the cache.
#pragma once

#include <exception>
#include <future>
#include <map>
#include <memory>
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
    bool stand_in = false;  // the linked kernel, run while the specialized one compiles
    unsigned int dynamic_shared = 0;  // bytes: the hit cache of --accumulate shared
    unsigned int cache_bits = 0;
};

// The device's compute capability as NVRTC names it (sm_XY).
std::string device_arch(CUdevice device);

// What the kernel cache compiles for a key (its programs, for key.arch).
CompileRequest kernel_request(const KernelKey& key, const ParamLayout& layout);

class KernelModules {
public:
    // `cache`: where kernels are compiled and kept (other devices' modules
    // may share it); `arch`: the NVRTC target (the device's own, or what the
    // user named); `max_blocks_per_sm` > 0 caps the grid
    // (CudaBackendOptions says why); `start_linked`: above.
    KernelModules(std::shared_ptr<KernelCache> cache, CUdevice device, std::string arch, int max_blocks_per_sm,
                  bool start_linked);
    KernelModules(const KernelModules&) = delete;
    KernelModules& operator=(const KernelModules&) = delete;

    // Compiles the kernel of `requested` (built for this device's arch)
    // unless it is compiled or loaded already; starting linked, its stand-in
    // instead where it is needed `now` (a kernel compiled ahead of its
    // frames has the time). Thread-safe; needs no context.
    void prepare(const KernelKey& requested, const ParamLayout& layout, bool now);
    // The loaded kernel (or its stand-in), compiled first where no prepare
    // did it. Needs the device's context current; the returned reference
    // stays valid.
    const LoadedKernel& load(const KernelKey& requested, const ParamLayout& layout);
    // The kernel of `requested` once its compile in the background is done
    // (loaded now if need be), else nullptr; never waits for a compile. A
    // failed background compile is thrown here, as a compile in `load` would.
    const LoadedKernel* upgrade(const KernelKey& requested, const ParamLayout& layout);
    // Waits for the compiles running in the background.
    void wait_for_background();
    // Unloads every module; in the device's context.
    void unload_all();

private:
    KernelKey device_key(const KernelKey& requested) const;
    CompiledKernel compile(const KernelKey& key, const ParamLayout& layout);
    bool compiling_in_background(const KernelKey& key, const ParamLayout& layout);
    void size_hit_cache(LoadedKernel& kernel, int blocks_per_sm);

    std::shared_ptr<KernelCache> cache_;
    CUdevice device_;
    std::string arch_;
    int max_blocks_per_sm_;
    bool start_linked_;
    // Starting linked: whether nvJitLink loads, found out on a thread of its
    // own from the start (a stand-in's compile loads it anyway).
    std::shared_future<bool> linker_usable_;
    int sm_count_ = 0;
    std::mutex mutex_;  // the maps
    std::map<std::string, LoadedKernel> loaded_;
    std::map<std::string, CompiledKernel> prepared_;  // compiled by prepare or in the background, not loaded yet
    std::map<std::string, std::exception_ptr> failed_;  // background compiles that threw
    // Last, so that it goes first: its destruction waits for the compiles,
    // which use the members above.
    std::map<std::string, std::future<void>> background_;
};

}  // namespace fj
