// SPDX-License-Identifier: GPL-3.0-or-later
#include "malloc_policy.h"

#include <cstdlib>
#include <cstring>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace fj {

bool malloc_tuned_by_user(const char* tunables) { return tunables && std::strstr(tunables, "glibc.malloc."); }

bool keep_freed_memory() {
#if defined(__GLIBC__)
    if (malloc_tuned_by_user(std::getenv("GLIBC_TUNABLES"))) return false;
    // Either setting turns glibc's adaptive mapping threshold off, hence
    // both. Its trim threshold stays at 128 KiB, but a trim keeps the pad.
    return mallopt(M_TOP_PAD, 16 << 20) == 1 && mallopt(M_MMAP_THRESHOLD, 32 << 20) == 1;
#else
    return false;
#endif
}

}  // namespace fj
