// flamejit — the CUDA runtime's memory calls over host memory, for tests without a GPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Linked into the emulated test programs in place of the runtime library
// (emulator/runtime/cuda_runtime.h says why), with the declarations of the
// real <cuda_runtime_api.h>, so that these are the functions that test code
// built against it calls. One device; "device" memory is host memory, as
// the stand-in driver's is; calls run when made, so streams are ignored.
// A call that is not here is the real runtime's, which fails without a
// driver: add it here rather than let a test reach it.
#include <cuda_runtime_api.h>

#include <cstdlib>
#include <cstring>

extern "C" {

const char* cudaGetErrorName(cudaError_t error) {
    switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
    default: return "cudaErrorUnknown";
    }
}

const char* cudaGetErrorString(cudaError_t error) {
    switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorLaunchFailure: return "unspecified launch failure (emulated)";
    default: return "unknown error";
    }
}

cudaError_t cudaGetDeviceCount(int* count) {
    *count = 1;
    return cudaSuccess;
}

cudaError_t cudaMalloc(void** pointer, size_t size) {
    // The device's allocations are aligned to at least 256 bytes.
    *pointer = size ? std::aligned_alloc(256, (size + 255) / 256 * 256) : nullptr;
    return size && !*pointer ? cudaErrorMemoryAllocation : cudaSuccess;
}

cudaError_t cudaFree(void* pointer) {
    std::free(pointer);
    return cudaSuccess;
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind) {
    if (count) std::memcpy(dst, src, count);
    return cudaSuccess;
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind, cudaStream_t) {
    return cudaMemcpy(dst, src, count, kind);
}

cudaError_t cudaMemset(void* pointer, int value, size_t count) {
    if (count) std::memset(pointer, value, count);
    return cudaSuccess;
}

cudaError_t cudaMemsetAsync(void* pointer, int value, size_t count, cudaStream_t) {
    return cudaMemset(pointer, value, count);
}

cudaError_t cudaStreamSynchronize(cudaStream_t) { return cudaSuccess; }

}  // extern "C"
