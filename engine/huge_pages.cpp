// SPDX-License-Identifier: GPL-3.0-or-later
#include "huge_pages.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
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

ZeroedMemory::ZeroedMemory(size_t bytes) : bytes_(bytes) {
    if (bytes == 0) return;
#if defined(__linux__)
    if (bytes >= kMapAtLeast) {
        if (bytes > size_t(-1) - kHugePage) throw std::bad_alloc();
        // Linux aligns anonymous mappings whose size is a multiple of the
        // huge-page size to it, so every part of the block can be a huge page.
        const size_t mapped = (bytes + kHugePage - 1) / kHugePage * kHugePage;
        void* p = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) throw std::bad_alloc();
        // Advice only: without transparent huge pages it changes nothing.
        madvise(p, mapped, MADV_HUGEPAGE);
        data_ = p;
        mapped_ = mapped;
        return;
    }
#endif
    data_ = std::calloc(bytes, 1);
    if (!data_) throw std::bad_alloc();
}

ZeroedMemory::~ZeroedMemory() { release(); }

ZeroedMemory::ZeroedMemory(ZeroedMemory&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      bytes_(std::exchange(other.bytes_, 0)),
      mapped_(std::exchange(other.mapped_, 0)) {}

ZeroedMemory& ZeroedMemory::operator=(ZeroedMemory&& other) noexcept {
    if (this != &other) {
        release();
        data_ = std::exchange(other.data_, nullptr);
        bytes_ = std::exchange(other.bytes_, 0);
        mapped_ = std::exchange(other.mapped_, 0);
    }
    return *this;
}

void ZeroedMemory::clear() {
    if (!data_) return;
#if defined(__linux__)
    // Private anonymous pages read as zero after MADV_DONTNEED.
    if (mapped_ && madvise(data_, mapped_, MADV_DONTNEED) == 0) return;
#endif
    std::memset(data_, 0, bytes_);
}

void ZeroedMemory::release() {
    if (!data_) return;
#if defined(__linux__)
    if (mapped_) {
        munmap(data_, mapped_);
        data_ = nullptr;
        return;
    }
#endif
    std::free(data_);
    data_ = nullptr;
}

}  // namespace fj
