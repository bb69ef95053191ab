// flamejit — how the stand-in driver calls a kernel that the stand-in NVRTC built for the host.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The stand-in NVRTC (stand_in_nvrtc.cpp) compiles CUDA source with the host
// compiler into a shared library, with cuda_emulator.h in front of it, and
// hands that library back as the "CUBIN". For every `extern "C" __global__`
// function NAME the library exports kEmulatedEntryPrefix + NAME, an
// EmulatedLaunch that runs the kernel's grid on host threads.
#pragma once

// Returns 0 when every thread of the grid ran to its end; otherwise writes
// why not (a deadlock at a barrier or warp intrinsic, named with the lanes
// involved) to `error` and returns 1.
using EmulatedLaunch = int (*)(const unsigned grid[3], const unsigned block[3], unsigned shared_bytes, void** args,
                               char* error, unsigned error_size);

#define FJ_EMULATED_ENTRY_PREFIX "fj_emulated_launch_"
