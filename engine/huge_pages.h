// flamejit — frame-sized host buffers on huge pages.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The CPU backend and post-pass work on buffers of tens of megabytes. With
// 4 KiB pages each buffer costs a page fault every 4 KiB when first touched
// (about 14 µs each on a virtual machine), and the histogram's random adds
// miss the TLB on nearly every hit. Linux backs 2 MiB-aligned memory with
// huge pages when asked (transparent huge pages in "madvise" mode, a common
// default): 512 times fewer faults and TLB entries. Where that is not
// available the memory is simply ordinary.
#pragma once

#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace fj {

inline constexpr size_t kHugePage = size_t(2) << 20;

// Asks the kernel to back [p, p + bytes) with huge pages when it is first
// written (the whole 2 MiB pages inside it; advice only). For buffers another
// type owns, such as an image's vector: call it after reserving, before
// writing.
void advise_huge_pages(void* p, size_t bytes);

// A float buffer that starts as zeros without a pass to clear it: pages
// fresh from the operating system are zero already. For scratch space that
// is added into (the post-pass's density estimation).
class ZeroedBuffer {
public:
    ZeroedBuffer() = default;
    // `count` floats, all +0.0f. Throws std::bad_alloc when there is no memory.
    explicit ZeroedBuffer(size_t count);
    ~ZeroedBuffer();
    ZeroedBuffer(ZeroedBuffer&& other) noexcept;
    ZeroedBuffer& operator=(ZeroedBuffer&& other) noexcept;
    ZeroedBuffer(const ZeroedBuffer&) = delete;
    ZeroedBuffer& operator=(const ZeroedBuffer&) = delete;

    float* data() { return data_; }
    const float* data() const { return data_; }
    size_t size() const { return count_; }

private:
    void release();

    float* data_ = nullptr;
    size_t count_ = 0;
    size_t bytes_ = 0;   // what was mapped; 0 when it came from calloc
};

// An allocator for vectors the CPU backend fills with random adds: blocks
// of a huge page or more are aligned to huge pages and advised to use them.
template <class T>
struct HugePageAllocator {
    using value_type = T;

    HugePageAllocator() = default;
    template <class U>
    HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

    T* allocate(size_t n) {
        const size_t bytes = n * sizeof(T);
        void* p = nullptr;
        if (bytes < kHugePage) {
            p = std::malloc(bytes ? bytes : 1);
        } else {
            const size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
            p = std::aligned_alloc(kHugePage, rounded);
            if (p) advise_huge_pages(p, rounded);
        }
        if (!p) throw std::bad_alloc();
        return static_cast<T*>(p);
    }

    void deallocate(T* p, size_t) noexcept { std::free(p); }

    template <class U>
    bool operator==(const HugePageAllocator<U>&) const noexcept { return true; }
};

template <class T>
using HugePageVector = std::vector<T, HugePageAllocator<T>>;

}  // namespace fj
