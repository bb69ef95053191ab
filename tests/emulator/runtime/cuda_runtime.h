// flamejit — the CUDA runtime as engine/post/post_cuda.cu uses it, for that file built for the host.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// With this folder first on the include path, the host compiler takes
// post_cuda.cu (emulator/post_cuda_emulated.cpp includes it): its kernels
// run on cuda_emulator.h's fibers, launched here, and the CUB and Thrust
// pieces it calls are the stand-ins beside this header. The memory calls
// are the C functions of the real runtime's ABI, defined by
// stand_in_runtime.cpp over host memory, so that test code built against
// the real <cuda_runtime.h> and the stand-in driver's "device" pointers
// (host memory too) meet the same buffers. Work is done when it is issued:
// streams order nothing and synchronizing waits for nothing.
#pragma once

#include <cstddef>
#include <cstdio>

#include "cuda_emulator.h"

extern "C" {

// The values and layouts of the real runtime's declarations.
enum cudaError {
    cudaSuccess = 0,
    cudaErrorInvalidValue = 1,
    cudaErrorMemoryAllocation = 2,
    cudaErrorLaunchFailure = 719,
};
typedef enum cudaError cudaError_t;

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4,
};

typedef struct CUstream_st* cudaStream_t;

const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);
cudaError_t cudaMalloc(void** pointer, size_t size);
cudaError_t cudaFree(void* pointer);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind, cudaStream_t stream);
cudaError_t cudaMemsetAsync(void* pointer, int value, size_t count, cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);

}  // extern "C"

struct dim3 {
    unsigned int x, y, z;
    dim3(unsigned int vx = 1, unsigned int vy = 1, unsigned int vz = 1) : x(vx), y(vy), z(vz) {}
};

// The real fields in their order (cuda_emulator.h makes gridDim and
// blockDim macros, so the names differ).
struct cudaLaunchConfig_t {
    dim3 grid;
    dim3 block;
    size_t shared_bytes;
    cudaStream_t stream;
    void* attributes;
    unsigned int attribute_count;
};

// The real runtime's typed launch: arguments converted to the kernel's
// parameter types, then the grid run to its end on the emulator. A launch
// the emulator refuses (a deadlock, a bad shape) fails as a device fault
// would, with the emulator's account on stderr.
template <typename... Params, typename... Args>
cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t* config, void (*kernel)(Params...), Args&&... args) {
    const unsigned grid[3] = {config->grid.x, config->grid.y, config->grid.z};
    const unsigned block[3] = {config->block.x, config->block.y, config->block.z};
    return [&](Params... converted) {
        void* pointers[] = {&converted..., nullptr};
        char error[2048];
        if (fj_emulator::launch(kernel, grid, block, static_cast<unsigned>(config->shared_bytes), pointers, error,
                                sizeof error) == 0)
            return cudaSuccess;
        std::fprintf(stderr, "emulated CUDA runtime: launch failed: %s\n", error);
        return cudaErrorLaunchFailure;
    }(static_cast<Args&&>(args)...);
}
