// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/kernel_modules.h"

#include <algorithm>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "codegen/snippet_source.h"
#include "codegen/stitcher.h"
#include "codegen/switch_kernel.h"
#include "codegen/variation_registry.h"
#include "cuda/nvjitlink_api.h"

namespace fj {
namespace {

// Bytes of one slot of the shared-memory hit cache (FJ_CACHE_WORDS words).
constexpr unsigned int kCacheSlotBytes = 5 * sizeof(unsigned int);

// What runs while a specialized kernel compiles in the background.
KernelKey stand_in(KernelKey key) {
    key.form = KernelForm::Linked;
    return key;
}

}  // namespace

std::string device_arch(CUdevice device) {
    int major = 0, minor = 0;
    CU_CHECK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, device));
    CU_CHECK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, device));
    return "sm_" + std::to_string(major) + std::to_string(minor);
}

KernelModules::KernelModules(std::shared_ptr<KernelCache> cache, CUdevice device, std::string arch,
                             int max_blocks_per_sm, bool start_linked)
    : cache_(std::move(cache)),
      device_(device),
      arch_(std::move(arch)),
      max_blocks_per_sm_(max_blocks_per_sm),
      start_linked_(start_linked) {
    if (start_linked_)
        linker_usable_ = std::async(std::launch::async, [] { return nvjitlink_available(nullptr); }).share();
    CU_CHECK(cuDeviceGetAttribute(&sm_count_, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, device_));
}

void KernelModules::prepare(const KernelKey& requested, const ParamLayout& layout, bool now) {
    KernelKey key = device_key(requested);
    if (now && compiling_in_background(key, layout)) key = stand_in(key);
    const std::string id = key.canonical();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (loaded_.count(id) || prepared_.count(id)) return;
    }
    CompiledKernel compiled = compile(key, layout);
    std::lock_guard<std::mutex> lock(mutex_);
    if (!loaded_.count(id)) prepared_.emplace(id, std::move(compiled));
}

// Only the rendering thread loads kernels; prepare may add to prepared_
// meanwhile, so both maps are read under the lock. A key being compiled by
// prepare and asked for here is compiled once (the cache waits for the
// first request).
const LoadedKernel& KernelModules::load(const KernelKey& requested, const ParamLayout& layout) {
    KernelKey key = device_key(requested);
    if (compiling_in_background(key, layout)) key = stand_in(key);
    const std::string id = key.canonical();
    std::optional<CompiledKernel> early;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (auto found = loaded_.find(id); found != loaded_.end()) return found->second;
        if (auto ready = prepared_.find(id); ready != prepared_.end()) {
            early = std::move(ready->second);
            prepared_.erase(ready);
        }
    }
    const CompiledKernel compiled = early ? std::move(*early) : compile(key, layout);
    LoadedKernel kernel;
    CU_CHECK(cuModuleLoadData(&kernel.module, compiled.cubin.data()));
    try {
        CU_CHECK(cuModuleGetFunction(&kernel.iterate, kernel.module, kIterateKernelName));
        CU_CHECK(cuModuleGetFunction(&kernel.seed, kernel.module, "fj_seed"));
        if (key.atomic_ceiling)
            CU_CHECK(cuModuleGetFunction(&kernel.atomic_ceiling, kernel.module, "fj_atomic_ceiling"));
        kernel.accumulation = key.accumulation;
        if (key.accumulation == Accumulation::Packed)
            CU_CHECK(cuModuleGetFunction(&kernel.packed_flush, kernel.module, "fj_packed_flush"));
        kernel.block = static_cast<unsigned int>(key.block_size);
        int per_sm = 0;
        CU_CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel.iterate,
                                                             static_cast<int>(kernel.block), 0));
        if (per_sm < 1)
            throw std::runtime_error("kernel " + compiled.key + " cannot run blocks of " +
                                     std::to_string(kernel.block) + " threads on this device (" +
                                     std::to_string(compiled.registers) + " registers)");
        if (max_blocks_per_sm_ > 0) per_sm = std::min(per_sm, max_blocks_per_sm_);
        if (key.accumulation == Accumulation::Shared) size_hit_cache(kernel, per_sm);
        kernel.grid = static_cast<unsigned int>(per_sm * sm_count_);
        kernel.blocks_per_sm = per_sm;
        kernel.fixed_blocks = max_blocks_per_sm_ > 0;
        kernel.registers = compiled.registers;
        kernel.stand_in = key.form != requested.form;
    } catch (...) {
        cuda_driver().cuModuleUnload(kernel.module);
        throw;
    }
    std::lock_guard<std::mutex> lock(mutex_);
    prepared_.erase(id);  // a prepare that finished while this compiled
    return loaded_.emplace(id, kernel).first->second;
}

const LoadedKernel* KernelModules::upgrade(const KernelKey& requested, const ParamLayout& layout) {
    const KernelKey key = device_key(requested);
    if (!start_linked_ || key.form != KernelForm::Specialized) return nullptr;
    const std::string id = key.canonical();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (auto found = loaded_.find(id); found != loaded_.end()) return &found->second;
        if (!prepared_.count(id)) {
            if (auto failed = failed_.find(id); failed != failed_.end()) std::rethrow_exception(failed->second);
            return nullptr;
        }
    }
    return &load(requested, layout);
}

void KernelModules::wait_for_background() {
    std::vector<std::future<void>*> running;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        for (auto& [id, compile] : background_) running.push_back(&compile);
    }
    // Entries are never erased while the modules live, so the pointers hold.
    for (std::future<void>* compile : running) compile->wait();
}

// Starting linked, whether `key` (the device's) is to be stood in for while
// it compiles in the background; its compile starts here, once. A kernel
// held in memory or in the cache is used at once (held as prepared, so that
// it is not stitched and looked up again), as is one that cannot have a
// stand-in (not specialized, or no nvJitLink to link one).
bool KernelModules::compiling_in_background(const KernelKey& key, const ParamLayout& layout) {
    if (!start_linked_ || key.form != KernelForm::Specialized || !linker_usable_.get()) return false;
    const std::string id = key.canonical();
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (loaded_.count(id) || prepared_.count(id)) return false;
        if (auto failed = failed_.find(id); failed != failed_.end()) std::rethrow_exception(failed->second);
        if (background_.count(id)) return true;
    }
    CompileRequest request = kernel_request(key, layout);
    std::optional<CompiledKernel> cached = cache_->find(request);
    std::lock_guard<std::mutex> lock(mutex_);
    if (cached) {
        if (!loaded_.count(id)) prepared_.emplace(id, std::move(*cached));
        return false;
    }
    if (background_.count(id)) return true;  // another thread started it meanwhile
    background_.emplace(id, std::async(std::launch::async, [this, id, request = std::move(request)] {
        try {
            CompiledKernel compiled = cache_->get(request);
            std::lock_guard<std::mutex> done(mutex_);
            if (!loaded_.count(id)) prepared_.emplace(id, std::move(compiled));  // else compiled ahead, and loaded
        } catch (...) {
            std::lock_guard<std::mutex> done(mutex_);
            failed_.emplace(id, std::current_exception());
        }
    }));
    return true;
}

void KernelModules::unload_all() {
    const DriverApi& api = cuda_driver();
    for (auto& [key, kernel] : loaded_) api.cuModuleUnload(kernel.module);
    loaded_.clear();
}

// The key as this device builds it, whatever arch it was made for.
KernelKey KernelModules::device_key(const KernelKey& requested) const {
    KernelKey key = requested;
    key.arch = arch_;
    return key;
}

CompileRequest kernel_request(const KernelKey& key, const ParamLayout& layout) {
    KernelPrograms programs = kernel_programs(key, layout, VariationRegistry::standard(), SnippetSource::standard());
    CompileRequest request;
    request.source = std::move(programs.sources[0]);
    request.parts.assign(std::make_move_iterator(programs.sources.begin() + 1),
                         std::make_move_iterator(programs.sources.end()));
    request.part_registers = programs.part_registers;
    request.arch = key.arch;
    request.entry = kIterateKernelName;
    return request;
}

CompiledKernel KernelModules::compile(const KernelKey& key, const ParamLayout& layout) {
    return cache_->get(kernel_request(key, layout));
}

// The hit cache of --accumulate shared takes the shared memory that
// `blocks_per_sm` resident blocks (the register-limited occupancy) leave
// unused on an SM, so it costs no resident warps: the largest
// power-of-two slot count whose dynamic shared memory still lets the
// occupancy API place that many blocks. The carveout goes to shared
// memory (L1 gets the rest), or the driver could pick a split with room
// for fewer blocks. Without room for 32 slots the kernel runs uncached.
void KernelModules::size_hit_cache(LoadedKernel& kernel, int blocks_per_sm) {
    int per_sm_bytes = 0, reserved = 0, optin = 0, static_bytes = 0;
    CU_CHECK(cuDeviceGetAttribute(&per_sm_bytes, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR, device_));
    CU_CHECK(cuDeviceGetAttribute(&reserved, CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK, device_));
    CU_CHECK(cuDeviceGetAttribute(&optin, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, device_));
    CU_CHECK(cuFuncGetAttribute(&static_bytes, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, kernel.iterate));
    const long long room = std::min<long long>(per_sm_bytes / blocks_per_sm - reserved, optin) - static_bytes;
    // The ceiling kernel, where the module has one, shares the cache.
    std::vector<CUfunction> users = {kernel.iterate};
    if (kernel.atomic_ceiling) users.push_back(kernel.atomic_ceiling);
    for (CUfunction f : users)
        CU_CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                                    CU_SHAREDMEM_CARVEOUT_MAX_SHARED));
    unsigned int bits = 0;
    while (bits < 24 && (static_cast<long long>(kCacheSlotBytes) << (bits + 1)) <= room) ++bits;
    for (; bits >= 5; --bits) {
        const unsigned int bytes = kCacheSlotBytes << bits;
        for (CUfunction f : users)
            CU_CHECK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(bytes)));
        int placed = 0;
        CU_CHECK(cuOccupancyMaxActiveBlocksPerMultiprocessor(&placed, kernel.iterate,
                                                             static_cast<int>(kernel.block), bytes));
        if (placed >= blocks_per_sm) {
            kernel.cache_bits = bits;
            kernel.dynamic_shared = bytes;
            return;
        }
    }
    kernel.cache_bits = 0;
    kernel.dynamic_shared = 0;
}

}  // namespace fj
