// Tests the allocator policy of flamejit's programs (engine/malloc_policy.h):
// the user's own malloc tunables stand, and with the policy memory freed at
// the top of the heap is used again without faulting its pages in again
// (with glibc's own settings the second round below faults as much as the
// first).
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <sys/resource.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "malloc_policy.h"

namespace {

long page_faults() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return u.ru_minflt + u.ru_majflt;
}

// 8 MiB in blocks of 64 KiB (below the mapping threshold: from the heap),
// every byte written, then all freed; the page faults it took.
long allocate_write_free() {
    constexpr size_t kBlock = size_t(64) << 10;
    std::vector<char*> blocks;
    blocks.reserve(128);
    const long before = page_faults();
    for (int i = 0; i < 128; ++i) {
        char* p = static_cast<char*>(std::malloc(kBlock));
        REQUIRE(p);
        std::memset(p, i, kBlock);
        blocks.push_back(p);
    }
    for (char* p : blocks) std::free(p);
    return page_faults() - before;
}

}  // namespace

TEST_CASE("a glibc malloc tunable in GLIBC_TUNABLES leaves the allocator to the user") {
    CHECK(fj::malloc_tuned_by_user("glibc.malloc.hugetlb=1"));
    CHECK(fj::malloc_tuned_by_user("glibc.rtld.nns=2:glibc.malloc.perturb=0"));
    CHECK_FALSE(fj::malloc_tuned_by_user("glibc.rtld.nns=2"));
    CHECK_FALSE(fj::malloc_tuned_by_user(""));
    CHECK_FALSE(fj::malloc_tuned_by_user(nullptr));
}

TEST_CASE("with the policy, freed memory is used again without page faults") {
#if defined(__SANITIZE_ADDRESS__)
    MESSAGE("skipped: AddressSanitizer's allocator replaces glibc's malloc");
#elif defined(__GLIBC__)
    if (fj::malloc_tuned_by_user(std::getenv("GLIBC_TUNABLES"))) {
        MESSAGE("skipped: GLIBC_TUNABLES sets malloc tunables, so the policy is left out");
        return;
    }
    REQUIRE(fj::keep_freed_memory());
    const long first = allocate_write_free();
    const long second = allocate_write_free();
    INFO("page faults: first round " << first << ", second " << second);
    // With 4 KiB pages the first round faults about 2048 times; a machine
    // that backs the heap with huge pages faults a few times in either, and
    // then the rounds show nothing of the policy.
    if (first < 512) {
        MESSAGE("skipped: the first round took only " << first << " page faults (huge pages?), nothing to compare");
        return;
    }
    CHECK(second <= first / 8 + 8);
#else
    CHECK_FALSE(fj::keep_freed_memory());
#endif
}
