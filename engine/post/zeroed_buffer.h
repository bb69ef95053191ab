// flamejit — a large float buffer that starts as zeros without a pass to clear it.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The CPU post-pass needs a frame-sized scratch buffer of zeros (density
// estimation adds into it). A std::vector clears it in a pass of its own, and
// on fresh memory that pass also takes a page fault every 4 KiB: together
// about a tenth of a 1080p CPU still's run time where faults are costly (a
// virtual machine). Pages fresh from the operating system
// are already zero, so this buffer asks for them directly, in huge pages where
// the kernel offers them (one fault per 2 MiB).
#pragma once

#include <cstddef>

namespace fj {

// Asks the kernel to back [p, p + bytes) with huge pages when it is first
// written (the whole 2 MiB pages inside it; advice only). For buffers another
// type owns, such as an image's vector: call it after reserving, before
// writing.
void advise_huge_pages(void* p, size_t bytes);

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

}  // namespace fj
