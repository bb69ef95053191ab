// flamejit — finds a CUDA toolkit library (NVRTC, nvJitLink) at run time.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

namespace fj {

// dlopen's the library: the file `override_variable` names in the
// environment when it is set, else `soname` through the dynamic loader's
// path, then in the toolkit's lib folder recorded at build time
// (FLAMEJIT_CUDA_LIB_DIR). Returns the handle and sets *path to what was
// opened; returns nullptr with every try's error in *errors.
void* open_toolkit_library(const char* soname, const char* override_variable, std::string* path,
                           std::string* errors);

}  // namespace fj
