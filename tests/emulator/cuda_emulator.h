// flamejit — CUDA device code run on host threads, for tests without a GPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stand-in NVRTC puts this header in front of the CUDA source it is given
// and compiles the whole with the host compiler (stand_in_nvrtc.cpp), so that
// the kernels flamejit generates, and the CUDA backend's host side that
// launches them, run in CI: the stand-in driver loads the result and calls
// its launchers (emulated_kernel.h).
//
// What is emulated, and how:
//   - Every thread of a block is a fiber on one host thread, switched by a
//     few instructions (no signal-mask system call), so that barriers and
//     warp intrinsics cost tens of nanoseconds. Blocks run on as many host
//     threads as there are cores, one block per host thread at a time.
//   - A fiber runs until it reaches __syncthreads (or __syncthreads_count),
//     a warp intrinsic or its end. When no fiber can run, waits are
//     released: a barrier once every thread of the block that has not
//     exited waits at it (as on sm_70 and later); __shfl_sync and __match_any_sync once every lane of their mask
//     waits at the same intrinsic with the same mask; __activemask gives the
//     lanes of the warp waiting at that same line, which is what lanes that
//     took the same branch see on the hardware. Nothing left to release with
//     threads still waiting is a deadlock, and a lane of a mask that exited
//     is an error: the launch fails and says where each lane waits.
//   - Lanes run in lockstep (all as far as they go, then the releases), or
//     with FJ_EMULATOR_SCHEDULE=run-ahead one warp at a time as far as it
//     can go, from the last: a race between barriers gives different
//     results in the two (run_block).
//   - __shared__ variables are thread_local statics (each host thread runs
//     one block at a time); dynamic shared memory is a buffer of the block.
//   - Global and shared atomics are host atomics; memory is the stand-in
//     driver's host memory, so kernels built with -fsanitize=address in a
//     process built with it have their global accesses checked (the fibers
//     tell AddressSanitizer which stack runs), as compute-sanitizer's
//     memcheck does on a device.
// Not emulated: precision (host libm and no fused multiply-adds, so this
// checks logic, not the device's floats), independent progress between
// barriers (lanes of a warp never interleave except at intrinsics), and any
// intrinsic that flamejit's kernels do not use (they fail to compile here).
#pragma once

#if !defined(__x86_64__)
#error "the CUDA emulator switches fibers with x86-64 code"
#endif

#include <atomic>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "emulated_kernel.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/common_interface_defs.h>
#endif

struct alignas(16) float4 {
    float x, y, z, w;
};
inline float4 make_float4(float x, float y, float z, float w) { return {x, y, z, w}; }
struct uint3 {
    unsigned int x, y, z;
};

// Kernels are kept whole (a fiber's entry) and marked so that the stand-in
// NVRTC finds them in the preprocessed source.
#define __global__ __attribute__((used, noinline))
#define __device__
#define __host__
#define __forceinline__ inline __attribute__((always_inline))
#define __launch_bounds__(...)
#define __shared__ static thread_local
#define warpSize 32

// Saves the callee-saved registers and the floating-point control words of
// the running fiber on its stack, stores its stack pointer in *save and
// resumes the fiber whose stack pointer is `load`. Weak: each program of a
// linked kernel (stand_in_nvrtc.cpp) defines it, and their link keeps one.
extern "C" void fj_emulator_switch(void** save, void* load);
asm(R"(
    .text
    .p2align 4
    .weak fj_emulator_switch
    .hidden fj_emulator_switch
    .type fj_emulator_switch, @function
fj_emulator_switch:
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    subq $16, %rsp
    stmxcsr 8(%rsp)
    fnstcw 12(%rsp)
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    ldmxcsr 8(%rsp)
    fldcw 12(%rsp)
    addq $16, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .size fj_emulator_switch, .-fj_emulator_switch
)");

namespace fj_emulator {

enum class Wait : unsigned char { Running, Barrier, Shuffle, Match, Active, Exited };

inline const char* wait_name(Wait w) {
    switch (w) {
    case Wait::Barrier: return "__syncthreads";
    case Wait::Shuffle: return "__shfl_sync";
    case Wait::Match: return "__match_any_sync";
    case Wait::Active: return "__activemask";
    case Wait::Exited: return "exit";
    default: return "running";
    }
}

// Stack per lane. Generated kernels inline everything into a few frames.
constexpr std::size_t kStackBytes = 64 * 1024;

struct Lane {
    void* sp = nullptr;
    unsigned char* stack = nullptr;  // its lowest address
    void* fake_stack = nullptr;      // AddressSanitizer's, while switched out
    uint3 thread_idx{};
    Wait wait = Wait::Running;
    // The intrinsic waited at: its mask, the lane's value and source lane,
    // the source line (__activemask); then its result.
    unsigned int mask = 0;
    int source = 0, width = 32, line = 0;
    unsigned long long value = 0, result = 0;
};

struct Block {
    uint3 block_idx{}, block_dim{}, grid_dim{};
    std::vector<Lane> lanes;
    void* scheduler_sp = nullptr;
    // The host thread's own stack, which the scheduler runs on.
    const void* scheduler_stack = nullptr;
    std::size_t scheduler_stack_size = 0;
    void* scheduler_fake_stack = nullptr;
    void (*body)(void*) = nullptr;
    void* closure = nullptr;
    unsigned char* dynamic_shared = nullptr;
};

inline thread_local Block* current_block = nullptr;
inline thread_local Lane* current_lane = nullptr;

inline void* dynamic_shared() { return current_block->dynamic_shared; }

// Switches between the scheduler and a lane. Kernels built with
// -fsanitize=address (FJ_EMULATOR_FLAGS) tell AddressSanitizer which stack
// runs, so that it checks each lane's frames on that lane's stack.
inline void to_lane(Block& b, Lane& l) {
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_start_switch_fiber(&b.scheduler_fake_stack, l.stack, kStackBytes);
#endif
    fj_emulator_switch(&b.scheduler_sp, l.sp);
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(b.scheduler_fake_stack, nullptr, nullptr);
#endif
}

inline void to_scheduler(Block& b, Lane& l, bool exiting) {
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_start_switch_fiber(exiting ? nullptr : &l.fake_stack, b.scheduler_stack, b.scheduler_stack_size);
#endif
    (void)exiting;
    fj_emulator_switch(&l.sp, b.scheduler_sp);
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(l.fake_stack, &b.scheduler_stack, &b.scheduler_stack_size);
#endif
}

// Parks the running lane until the scheduler releases it.
inline void wait_at(Wait what) {
    Lane* lane = current_lane;
    lane->wait = what;
    to_scheduler(*current_block, *lane, false);
}

[[noreturn]] inline void lane_entry() {
    Block* block = current_block;
#if defined(__SANITIZE_ADDRESS__)
    __sanitizer_finish_switch_fiber(nullptr, &block->scheduler_stack, &block->scheduler_stack_size);
#endif
    block->body(block->closure);
    current_lane->wait = Wait::Exited;
    to_scheduler(*block, *current_lane, true);
    __builtin_unreachable();
}

// A stack whose first switch "returns" into lane_entry with the stack
// aligned as after a call, with zeroed registers and default control words.
inline void* fresh_stack(unsigned char* top) {
    auto* sp = reinterpret_cast<std::uint64_t*>(reinterpret_cast<std::uintptr_t>(top) & ~std::uintptr_t{15});
    *--sp = 0;  // lane_entry's return address: it never returns
    *--sp = reinterpret_cast<std::uint64_t>(&lane_entry);
    for (int i = 0; i < 6; ++i) *--sp = 0;           // rbp, rbx, r12-r15
    *--sp = (std::uint64_t{0x037F} << 32) | 0x1F80;  // x87 control word, MXCSR
    *--sp = 0;
    return sp;
}

inline std::string lane_list(const Block& b, unsigned first, unsigned count, Wait what) {
    std::string out;
    for (unsigned i = first; i < first + count; ++i)
        if (b.lanes[i].wait == what) {
            if (!out.empty()) out += ',';
            out += std::to_string(i);
        }
    return out;
}

// Releases the barrier when every lane of the block that has not exited
// waits at it; returns how many lanes it released.
inline int release_barrier(Block& b) {
    unsigned live = 0, at_barrier = 0;
    for (const Lane& l : b.lanes) {
        live += l.wait != Wait::Exited;
        at_barrier += l.wait == Wait::Barrier;
    }
    if (at_barrier == 0 || at_barrier != live) return 0;
    // __syncthreads_count's result: the lanes that came with a true predicate.
    unsigned long long count = 0;
    for (const Lane& l : b.lanes) count += l.wait == Wait::Barrier && l.value != 0;
    for (Lane& l : b.lanes)
        if (l.wait == Wait::Barrier) {
            l.result = count;
            l.wait = Wait::Running;
        }
    return static_cast<int>(at_barrier);
}

// Releases the warp intrinsics of the warp whose lane 0 is `first` that
// can be released; returns how many lanes it released, or -1 with `error`.
inline int release_warp(Block& b, unsigned first, std::string& error) {
    const unsigned n = static_cast<unsigned>(b.lanes.size());
    int released = 0;
    const unsigned count = std::min(32u, n - first);
    Lane* warp = &b.lanes[first];
    for (unsigned i = 0; i < count; ++i) {
        Lane& l = warp[i];
        if (l.wait == Wait::Active) {
            unsigned mask = 0;
            for (unsigned j = 0; j < count; ++j)
                if (warp[j].wait == Wait::Active && warp[j].line == l.line) mask |= 1u << j;
            for (unsigned j = 0; j < count; ++j)
                if (mask >> j & 1u) {
                    warp[j].result = mask;
                    warp[j].wait = Wait::Running;
                    ++released;
                }
            continue;
        }
        if (l.wait != Wait::Shuffle && l.wait != Wait::Match) continue;
        const unsigned mask = l.mask;
        bool complete = true;
        for (unsigned j = 0; j < 32; ++j) {
            if (!(mask >> j & 1u)) continue;
            if (j >= count || warp[j].wait == Wait::Exited) {
                error = std::string(wait_name(l.wait)) + " in block " + std::to_string(b.block_idx.x) + ", warp " +
                        std::to_string(first / 32) + ": its mask names lane " + std::to_string(j) +
                        (j >= count ? ", which the block does not have" : ", which has exited");
                return -1;
            }
            complete = complete && warp[j].wait == l.wait && warp[j].mask == mask;
        }
        if (!complete) continue;
        for (unsigned j = 0; j < 32; ++j) {
            if (!(mask >> j & 1u)) continue;
            Lane& m = warp[j];
            if (m.wait == Wait::Shuffle) {
                const unsigned src = (j & ~unsigned(m.width - 1)) + (unsigned(m.source) & unsigned(m.width - 1));
                if (!(mask >> src & 1u)) {
                    error = "__shfl_sync in block " + std::to_string(b.block_idx.x) + ", warp " +
                            std::to_string(first / 32) + ": lane " + std::to_string(j) + " reads lane " +
                            std::to_string(src) + ", outside the mask";
                    return -1;
                }
                m.result = warp[src].value;
            } else {
                unsigned same = 0;
                for (unsigned k = 0; k < 32; ++k)
                    if ((mask >> k & 1u) && warp[k].value == m.value) same |= 1u << k;
                m.result = same;
            }
        }
        for (unsigned j = 0; j < 32; ++j)
            if (mask >> j & 1u) {
                warp[j].wait = Wait::Running;
                ++released;
            }
    }
    return released;
}

// The order in which a block's lanes run. Lockstep: every lane that can
// run, in order, then every wait that can be released. Run-ahead: one warp
// at a time, from the last, as far as it can go (its intrinsics released as
// soon as its lanes reach them) before the next. A kernel without races
// between barriers plots the same in both; FJ_EMULATOR_SCHEDULE=run-ahead,
// read at each launch, picks the second.
enum class Schedule { Lockstep, RunAhead };

inline Schedule schedule_from_environment() {
    const char* name = std::getenv("FJ_EMULATOR_SCHEDULE");
    return name && std::strcmp(name, "run-ahead") == 0 ? Schedule::RunAhead : Schedule::Lockstep;
}

// Runs the lanes of [first, end) that can run until each waits or exits.
inline void run_lanes(Block& b, unsigned first, unsigned end) {
    for (unsigned i = first; i < end; ++i) {
        Lane& l = b.lanes[i];
        if (l.wait != Wait::Running) continue;
        current_lane = &l;
        to_lane(b, l);
    }
}

inline std::string deadlock(const Block& b) {
    std::string out = "deadlock in block " + std::to_string(b.block_idx.x) + ":";
    for (Wait w : {Wait::Barrier, Wait::Shuffle, Wait::Match})
        for (unsigned first = 0; first < b.lanes.size(); first += 32) {
            const unsigned count = std::min<unsigned>(32, static_cast<unsigned>(b.lanes.size()) - first);
            const std::string lanes = lane_list(b, first, count, w);
            if (!lanes.empty())
                out += std::string(" warp ") + std::to_string(first / 32) + " lanes " + lanes + " wait at " +
                       wait_name(w) + ";";
        }
    return out;
}

// Runs a block to its end, until all its lanes have exited or none can go on.
inline bool run_block(Block& b, Schedule schedule, std::string& error) {
    const unsigned n = static_cast<unsigned>(b.lanes.size());
    const unsigned warps = (n + 31) / 32;
    for (;;) {
        int released = 0;
        if (schedule == Schedule::Lockstep) {
            run_lanes(b, 0, n);
            for (unsigned w = 0; w < warps; ++w) {
                const int r = release_warp(b, 32 * w, error);
                if (r < 0) return false;
                released += r;
            }
        } else {
            for (unsigned w = warps; w-- > 0;)
                for (;;) {
                    run_lanes(b, 32 * w, std::min(n, 32 * w + 32));
                    const int r = release_warp(b, 32 * w, error);
                    if (r < 0) return false;
                    if (r == 0) break;
                    released += r;
                }
        }
        released += release_barrier(b);
        if (released > 0) continue;
        bool all_exited = true;
        for (const Lane& l : b.lanes) all_exited = all_exited && l.wait == Wait::Exited;
        if (all_exited) return true;
        error = deadlock(b);
        return false;
    }
}

inline int run_grid(void (*body)(void*), void* closure, const unsigned grid[3], const unsigned block[3],
                    unsigned shared_bytes, char* error_out, unsigned error_size) {
    const unsigned long long blocks = 1ull * grid[0] * grid[1] * grid[2];
    const unsigned threads = block[0] * block[1] * block[2];
    if (blocks == 0 || threads == 0 || threads > 1024) {
        std::snprintf(error_out, error_size, "launch of %llu blocks of %u threads", blocks, threads);
        return 1;
    }
    const Schedule schedule = schedule_from_environment();
    std::atomic<unsigned long long> next{0};
    std::atomic<bool> failed{false};
    std::mutex error_mutex;
    std::string first_error;
    auto worker = [&] {
        Block b;
        b.block_dim = {block[0], block[1], block[2]};
        b.grid_dim = {grid[0], grid[1], grid[2]};
        b.body = body;
        b.closure = closure;
        b.lanes.resize(threads);
        std::unique_ptr<unsigned char[]> stacks(new unsigned char[threads * kStackBytes]);
        std::unique_ptr<unsigned long long[]> shared(new unsigned long long[shared_bytes / 8 + 1]);
        b.dynamic_shared = reinterpret_cast<unsigned char*>(shared.get());
        current_block = &b;
        for (unsigned long long i; !failed && (i = next++) < blocks;) {
            b.block_idx = {static_cast<unsigned>(i % grid[0]), static_cast<unsigned>(i / grid[0] % grid[1]),
                           static_cast<unsigned>(i / (1ull * grid[0] * grid[1]))};
            for (unsigned t = 0; t < threads; ++t) {
                Lane& l = b.lanes[t];
                l = Lane{};
                l.thread_idx = {t % block[0], t / block[0] % block[1], t / (block[0] * block[1])};
                l.stack = stacks.get() + t * kStackBytes;
                l.sp = fresh_stack(l.stack + kStackBytes);
            }
            std::string error;
            if (!run_block(b, schedule, error)) {
                std::lock_guard<std::mutex> lock(error_mutex);
                if (first_error.empty()) first_error = error;
                failed = true;
            }
        }
        current_block = nullptr;
        current_lane = nullptr;
    };
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned workers = static_cast<unsigned>(std::min<unsigned long long>(blocks, cores));
    std::vector<std::thread> pool;
    for (unsigned w = 1; w < workers; ++w) pool.emplace_back(worker);
    worker();
    for (std::thread& t : pool) t.join();
    if (!failed) return 0;
    std::snprintf(error_out, error_size, "%s", first_error.c_str());
    return 1;
}

template <class... A, std::size_t... I>
void invoke(void (*kernel)(A...), void** args, std::index_sequence<I...>) {
    kernel(*static_cast<std::remove_reference_t<A>*>(args[I])...);
}

template <class... A>
int launch(void (*kernel)(A...), const unsigned grid[3], const unsigned block[3], unsigned shared_bytes, void** args,
           char* error, unsigned error_size) {
    struct Closure {
        void (*kernel)(A...);
        void** args;
    } closure{kernel, args};
    auto body = [](void* c) {
        auto* k = static_cast<Closure*>(c);
        invoke(k->kernel, k->args, std::index_sequence_for<A...>{});
    };
    return run_grid(body, &closure, grid, block, shared_bytes, error, error_size);
}

template <class T>
unsigned long long bits_of(T v) {
    static_assert(sizeof(T) <= 8 && std::is_trivially_copyable_v<T>, "warp intrinsics take values of up to 8 bytes");
    unsigned long long out = 0;
    std::memcpy(&out, &v, sizeof(T));
    return out;
}

inline unsigned int activemask_at(int line) {
    current_lane->line = line;
    wait_at(Wait::Active);
    return static_cast<unsigned int>(current_lane->result);
}

}  // namespace fj_emulator

#define threadIdx (::fj_emulator::current_lane->thread_idx)
#define blockIdx (::fj_emulator::current_block->block_idx)
#define blockDim (::fj_emulator::current_block->block_dim)
#define gridDim (::fj_emulator::current_block->grid_dim)
#define __activemask() ::fj_emulator::activemask_at(__LINE__)

inline int __syncthreads_count(int predicate) {
    fj_emulator::current_lane->value = predicate != 0;
    fj_emulator::wait_at(fj_emulator::Wait::Barrier);
    return static_cast<int>(fj_emulator::current_lane->result);
}
inline void __syncthreads() { __syncthreads_count(0); }

template <class T>
T __shfl_sync(unsigned int mask, T value, int source, int width = 32) {
    fj_emulator::Lane* lane = fj_emulator::current_lane;
    lane->mask = mask;
    lane->value = fj_emulator::bits_of(value);
    lane->source = source;
    lane->width = width;
    fj_emulator::wait_at(fj_emulator::Wait::Shuffle);
    T out;
    std::memcpy(&out, &fj_emulator::current_lane->result, sizeof(T));
    return out;
}

template <class T>
unsigned int __match_any_sync(unsigned int mask, T value) {
    fj_emulator::Lane* lane = fj_emulator::current_lane;
    lane->mask = mask;
    lane->value = fj_emulator::bits_of(value);
    fj_emulator::wait_at(fj_emulator::Wait::Match);
    return static_cast<unsigned int>(fj_emulator::current_lane->result);
}

inline int __ffs(int x) { return __builtin_ffs(x); }
inline int __popc(unsigned int x) { return __builtin_popcount(x); }
inline unsigned int __float_as_uint(float x) {
    unsigned int u;
    std::memcpy(&u, &x, sizeof u);
    return u;
}
// Arithmetic the device rounds once per operation, never fused. The host
// compiler fuses only where FJ_EMULATOR_FLAGS allow it (-mfma
// -ffp-contract=fast, to mimic the device's contractions): the empty asm
// statements keep a product, and an addend, out of any fused multiply-add.
inline float __fmul_rn(float a, float b) {
    float r = a * b;
    __asm__("" : "+x"(r));
    return r;
}
inline float __fadd_rn(float a, float b) {
    __asm__("" : "+x"(a), "+x"(b));
    return a + b;
}

// Relaxed, as the device's atomics; float adds by compare-and-swap.
inline float atomicAdd(float* a, float v) { return std::atomic_ref<float>(*a).fetch_add(v, std::memory_order_relaxed); }
inline float4 atomicAdd(float4* a, float4 v) {
    return {atomicAdd(&a->x, v.x), atomicAdd(&a->y, v.y), atomicAdd(&a->z, v.z), atomicAdd(&a->w, v.w)};
}
#define FJ_EMULATED_INTEGER_ATOMICS(T)                                                              \
    inline T atomicAdd(T* a, T v) { return __atomic_fetch_add(a, v, __ATOMIC_RELAXED); }            \
    inline T atomicExch(T* a, T v) { return __atomic_exchange_n(a, v, __ATOMIC_RELAXED); }          \
    inline T atomicCAS(T* a, T compare, T value) {                                                  \
        __atomic_compare_exchange_n(a, &compare, value, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
        return compare;                                                                             \
    }                                                                                               \
    inline T atomicMin(T* a, T v) {                                                                 \
        T old = __atomic_load_n(a, __ATOMIC_RELAXED);                                               \
        while (v < old && !__atomic_compare_exchange_n(a, &old, v, true, __ATOMIC_RELAXED,          \
                                                       __ATOMIC_RELAXED)) {                         \
        }                                                                                           \
        return old;                                                                                 \
    }
FJ_EMULATED_INTEGER_ATOMICS(int)
FJ_EMULATED_INTEGER_ATOMICS(unsigned int)
FJ_EMULATED_INTEGER_ATOMICS(unsigned long long)
#undef FJ_EMULATED_INTEGER_ATOMICS
