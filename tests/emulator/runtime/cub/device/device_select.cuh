// flamejit — cub::DeviceSelect::If as engine/post/post_cuda.cu uses it, run on the host (runtime/cuda_runtime.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cub/device/temp_storage.h"

namespace cub {

struct DeviceSelect {
    // The items that pass, in their order, and how many.
    template <class In, class Out, class Count, class NumItems, class Select>
    static cudaError_t If(void* temp, size_t& temp_bytes, In in, Out out, Count selected, NumItems items,
                          Select select, cudaStream_t = nullptr) {
        bool size_query = false;
        const cudaError_t err = stand_in::temp_storage(temp, temp_bytes, 4096, size_query);
        if (err != cudaSuccess || size_query) return err;
        NumItems kept = 0;
        for (NumItems i = 0; i < items; ++i)
            if (select(in[i])) out[kept++] = in[i];
        *selected = kept;
        return cudaSuccess;
    }
};

}  // namespace cub
