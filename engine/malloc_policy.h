// flamejit — how the C library's allocator keeps freed memory.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// NVRTC allocates and frees most of a compile's memory as it goes, on the
// compiling thread. glibc's malloc gives an arena's free top back to the
// system once it passes 128 KiB (M_TOP_PAD, M_TRIM_THRESHOLD) and maps
// blocks from 128 KiB up on their own (a threshold that rises as they are
// freed), so each phase of a compile takes fresh pages again: a page fault
// every 4 KiB and hundreds of brk and mprotect calls. A linked kernel,
// whose programs compile on threads of their own (each with an arena of its
// own), pays it on every thread. Keeping 16 MiB at each arena's top and
// taking blocks up to 32 MiB (the most glibc's own adaptive threshold
// reaches) from the arenas halves the page faults of expensive8's linked
// compile and spares a process's later compiles most of theirs
// (benchmarks/README.md, "The C library's allocator"); virtual machines and
// sandboxes pay dearly for each. The price: each arena may hold up to 16 MiB
// more than glibc would keep, and only where a thread's allocations once
// reached that far.
#pragma once

namespace fj {

// Whether the environment's GLIBC_TUNABLES (`tunables`: its value, or null)
// sets any of glibc's malloc tunables: then the user's settings stand.
bool malloc_tuned_by_user(const char* tunables);

// Sets the allocator as above, for the whole process: for programs to call
// at the start of main, before their threads start (a library does not set
// a process's policy). Does nothing, and returns false, where the C library
// is not glibc or where malloc_tuned_by_user(getenv("GLIBC_TUNABLES")), so
// that `GLIBC_TUNABLES=glibc.malloc.perturb=0` runs a program with glibc's
// own settings for comparison.
bool keep_freed_memory();

}  // namespace fj
