// flamejit — finds a CUDA toolkit library at run time.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "cuda/toolkit_library.h"

#include <dlfcn.h>

#include <cstdlib>
#include <vector>

namespace fj {

void* open_toolkit_library(const char* soname, const char* override_variable, std::string* path,
                           std::string* errors) {
    std::vector<std::string> candidates;
    const char* override_path = std::getenv(override_variable);
    if (override_path && *override_path) {
        candidates.push_back(override_path);
    } else {
        candidates.push_back(soname);
#ifdef FLAMEJIT_CUDA_LIB_DIR
        candidates.push_back(std::string(FLAMEJIT_CUDA_LIB_DIR) + "/" + soname);
#endif
    }
    errors->clear();
    for (const std::string& candidate : candidates) {
        if (void* handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL)) {
            *path = candidate;
            return handle;
        }
        const char* err = dlerror();
        *errors += std::string(errors->empty() ? "" : "; ") + (err ? err : candidate.c_str());
    }
    return nullptr;
}

}  // namespace fj
