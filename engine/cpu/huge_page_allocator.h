// flamejit — an allocator for the CPU backend's large random-access buffers.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Histogram adds land on random cells of buffers far larger than the caches,
// so with 4 KiB pages nearly every add also misses the TLB and walks the page
// table. Linux backs 2 MiB-aligned memory with huge pages when asked
// (transparent huge pages in "madvise" mode, a common default), which takes
// the page walks away and faults a buffer in with 512 times fewer page
// faults. Where that is unavailable the memory is simply ordinary.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fj::cpu {

template <class T>
struct HugePageAllocator {
    using value_type = T;
    static constexpr std::size_t kHugePage = std::size_t(2) << 20;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(std::size_t n) {
        const std::size_t bytes = n * sizeof(T);
        if (bytes < kHugePage) {
            if (void* p = std::malloc(bytes ? bytes : 1)) return static_cast<T*>(p);
            throw std::bad_alloc();
        }
        const std::size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* p = std::aligned_alloc(kHugePage, rounded);
        if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves ordinary pages
#endif
        return static_cast<T*>(p);
    }

    void deallocate(T* p, std::size_t) noexcept { std::free(p); }

    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

// A float buffer on huge pages where the system gives them.
template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace fj::cpu
