// flamejit — nvJitLink, loaded at run time, and one link of CUBINs.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Linked kernels (KernelForm::Linked) are compiled as several NVRTC programs
// and linked into one CUBIN by nvJitLink, which needs no GPU. Like NVRTC it
// is dlopen'ed, and only when needed (a linked kernel's compile, `flamejit
// info`): FLAMEJIT_NVJITLINK_PATH (a file), the dynamic loader's path, then
// the toolkit's lib folder recorded at build time.
#pragma once

#include <nvJitLink.h>

#include <string>
#include <vector>

namespace fj {

struct NvJitLinkApi {
#define FJ_NVJITLINK_SYMBOL(name) decltype(&::name) name = nullptr;
#include "cuda/nvjitlink_symbols.def"
#undef FJ_NVJITLINK_SYMBOL
};

// The loaded nvJitLink; throws std::runtime_error with the reason it is unusable.
const NvJitLinkApi& nvjitlink();

bool nvjitlink_available(std::string* why_not);

// The path nvJitLink was loaded from ("" when not loaded), for `flamejit info`.
std::string nvjitlink_library_path();

struct LinkRun {
    bool linked = false;  // false: the objects do not link (the log says why)
    std::string cubin;
    std::string log;      // nvJitLink's error and info logs
};

// Links relocatable CUBINs (NVRTC's -rdc=true output) for `arch` (sm_90, ...).
// Throws std::runtime_error when nvJitLink is unusable or fails for a reason
// other than the objects.
LinkRun link_cubins(const std::vector<std::string>& objects, const std::string& arch);

}  // namespace fj
