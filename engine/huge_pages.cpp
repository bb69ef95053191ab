// SPDX-License-Identifier: GPL-3.0-or-later
#include "huge_pages.h"

#include <cstdint>
#include <cstdlib>
#include <new>
#include <utility>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace fj {
namespace {

// Below this, calloc's own arena is as good, and a mapping would waste most
// of a huge page.
constexpr size_t kMapAtLeast = size_t(1) << 20;

}  // namespace

void advise_huge_pages(void* p, size_t bytes) {
#if defined(__linux__)
    const uintptr_t begin = (reinterpret_cast<uintptr_t>(p) + kHugePage - 1) / kHugePage * kHugePage;
    const uintptr_t end = (reinterpret_cast<uintptr_t>(p) + bytes) / kHugePage * kHugePage;
    if (end > begin) madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
    (void)p;
    (void)bytes;
#endif
}

ZeroedBuffer::ZeroedBuffer(size_t count) : count_(count) {
    if (count == 0) return;
    if (count > size_t(-1) / sizeof(float) - kHugePage) throw std::bad_alloc();
    const size_t bytes = count * sizeof(float);
#if defined(__linux__)
    if (bytes >= kMapAtLeast) {
        // Linux aligns anonymous mappings whose size is a multiple of the
        // huge-page size to it, so every part of the buffer can be a huge page.
        const size_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        // Advice only: without transparent huge pages it changes nothing.
        madvise(p, mapped, MADV_HUGEPAGE);
        data_ = static_cast<float*>(p);
        bytes_ = mapped;
        return;
    }
#endif
    data_ = static_cast<float*>(std::calloc(count, sizeof(float)));
    if (!data_) throw std::bad_alloc();
}

ZeroedBuffer::~ZeroedBuffer() { release(); }

ZeroedBuffer::ZeroedBuffer(ZeroedBuffer&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      count_(std::exchange(other.count_, 0)),
      bytes_(std::exchange(other.bytes_, 0)) {}

ZeroedBuffer& ZeroedBuffer::operator=(ZeroedBuffer&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        count_ = std::exchange(other.count_, 0);
        bytes_ = std::exchange(other.bytes_, 0);
    }
    return *this;
}

void ZeroedBuffer::release() {
    if (!data_) return;
#if defined(__linux__)
    if (bytes_) {
        munmap(data_, bytes_);
        data_ = nullptr;
        return;
    }
#endif
    std::free(data_);
    data_ = nullptr;
}

}  // namespace fj
