// flamejit — cub::DeviceReduce::TransformReduce as engine/post/post_cuda.cu uses it, run on the host
// (runtime/cuda_runtime.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "cub/device/temp_storage.h"

namespace cub {

struct DeviceReduce {
    // init ⊕ transform(in[0]) ⊕ … in order; CUB adds in a tree, so sums
    // agree to rounding only.
    template <class In, class Out, class NumItems, class Reduce, class Transform, class T>
    static cudaError_t TransformReduce(void* temp, size_t& temp_bytes, In in, Out out, NumItems items,
                                       Reduce reduce, Transform transform, T init, cudaStream_t = nullptr) {
        bool size_query = false;
        const cudaError_t err = stand_in::temp_storage(temp, temp_bytes, 8192, size_query);
        if (err != cudaSuccess || size_query) return err;
        T total = init;
        for (NumItems i = 0; i < items; ++i) total = reduce(total, transform(in[i]));
        *out = total;
        return cudaSuccess;
    }
};

}  // namespace cub
