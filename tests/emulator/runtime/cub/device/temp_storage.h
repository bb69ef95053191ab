// flamejit — the temporary-storage protocol of CUB's device-wide calls, for their host stand-ins.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// As with CUB: a first call with no storage asks for its size, the second
// works in it. The stand-ins ask for storage they do not need and write all
// of it, so that a caller that hands over less than was asked for (sizes of
// two calls mixed up) writes out of bounds, which AddressSanitizer reports.
#pragma once

#include <cstring>

#include "cuda_runtime.h"

namespace cub::stand_in {

inline cudaError_t temp_storage(void* storage, size_t& bytes, size_t wanted, bool& size_query) {
    size_query = storage == nullptr;
    if (size_query) {
        bytes = wanted;
        return cudaSuccess;
    }
    if (bytes < wanted) return cudaErrorInvalidValue;
    std::memset(storage, 0xA5, wanted);
    return cudaSuccess;
}

}  // namespace cub::stand_in
