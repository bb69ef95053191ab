// flamejit — frame-sized host buffers on huge pages.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The CPU backend and post-pass work on buffers of tens of megabytes. With
// 4 KiB pages each buffer costs a page fault every 4 KiB when first touched
// (1.5-4 µs each on the development VM, more while builds run beside), and
// the histogram's random adds miss the TLB on nearly every hit. Linux backs
// 2 MiB-aligned memory with huge pages when asked (transparent huge pages in
// "madvise" mode, a common default): 512 times fewer faults and TLB entries.
// Where that is not available the memory is simply ordinary.
#pragma once

#include <cstddef>
#include <new>
#include <type_traits>
#include <utility>

namespace fj {

inline constexpr size_t kHugePage = size_t(2) << 20;

// Asks the kernel to back [p, p + bytes) with huge pages when it is first
// written (the whole 2 MiB pages inside it; advice only). For buffers another
// type owns, such as an image's vector: call it after reserving, before
// writing.
void advise_huge_pages(void* p, size_t bytes);

// Memory that starts as zeros without a pass to clear it: pages fresh from
// the operating system are zero already, and a page nothing writes costs
// nothing (it is never faulted in). Large blocks are mappings of whole huge
// pages, advised to use them; small ones come from calloc.
class ZeroedMemory {
public:
    ZeroedMemory() = default;
    // Throws std::bad_alloc when there is no memory.
    explicit ZeroedMemory(size_t bytes);
    ~ZeroedMemory();
    ZeroedMemory(ZeroedMemory&& other) noexcept;
    ZeroedMemory& operator=(ZeroedMemory&& other) noexcept;
    ZeroedMemory(const ZeroedMemory&) = delete;
    ZeroedMemory& operator=(const ZeroedMemory&) = delete;

    void* data() const { return data_; }

    // All zeros again. A mapping's pages go back to the system and read as
    // zero until written, so clearing a mostly untouched block is cheap.
    void clear();

private:
    void release();

    void* data_ = nullptr;
    size_t bytes_ = 0;
    size_t mapped_ = 0;  // the mapping's length; 0 when it came from calloc
};

// `count` elements of a trivial type, all bits zero, on ZeroedMemory: for
// histograms and scratch space that are added into.
template <class T>
class ZeroedArray {
    static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_default_constructible_v<T>);

public:
    ZeroedArray() = default;
    explicit ZeroedArray(size_t count) : memory_(bytes_for(count)), count_(count) {}
    // A moved-from array is empty, its size included.
    ZeroedArray(ZeroedArray&& other) noexcept
        : memory_(std::move(other.memory_)), count_(std::exchange(other.count_, 0)) {}
    ZeroedArray& operator=(ZeroedArray&& other) noexcept {
        memory_ = std::move(other.memory_);
        count_ = std::exchange(other.count_, 0);
        return *this;
    }

    T* data() { return static_cast<T*>(memory_.data()); }
    const T* data() const { return static_cast<const T*>(memory_.data()); }
    size_t size() const { return count_; }
    bool empty() const { return count_ == 0; }
    T& operator[](size_t i) { return data()[i]; }
    const T& operator[](size_t i) const { return data()[i]; }

    void clear() { memory_.clear(); }

    // Sized to `count`, all zeros: the same memory cleared, or new memory.
    void reset(size_t count) {
        if (count == count_)
            clear();
        else
            *this = ZeroedArray(count);
    }

private:
    static size_t bytes_for(size_t count) {
        if (count > (size_t(-1) - kHugePage) / sizeof(T)) throw std::bad_alloc();
        return count * sizeof(T);
    }

    ZeroedMemory memory_;
    size_t count_ = 0;
};

using ZeroedBuffer = ZeroedArray<float>;

}  // namespace fj
