// flamejit — NVRTC, loaded at run time.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Like the driver, NVRTC is dlopen'ed so the binary runs (CPU backend) where
// the toolkit's runtime libraries are absent. Search order for the library:
// FLAMEJIT_NVRTC_PATH (a file), the dynamic loader's path, then the toolkit's
// lib folder recorded at build time (FLAMEJIT_CUDA_LIB_DIR).
#pragma once

#include <nvrtc.h>

#include <string>
#include <vector>

namespace fj {

struct NvrtcApi {
#define FJ_NVRTC_SYMBOL(name) decltype(&::name) name = nullptr;
#include "cuda/nvrtc_symbols.def"
#undef FJ_NVRTC_SYMBOL
};

// The loaded NVRTC; throws std::runtime_error with the reason it is unusable.
const NvrtcApi& nvrtc();

bool nvrtc_available(std::string* why_not);

// "13.0", or "" when NVRTC cannot be loaded.
std::string nvrtc_version();

// The same as major * 100 + minor (1300 for 13.0), or 0 when NVRTC cannot be
// loaded.
int nvrtc_version_number();

// The archs NVRTC compiles for (75 for sm_75, ...), or none when it cannot be
// loaded.
std::vector<int> nvrtc_supported_archs();

// The path NVRTC was loaded from ("" when not loaded), for `flamejit info`.
std::string nvrtc_library_path();

}  // namespace fj
