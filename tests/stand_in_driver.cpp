// flamejit — a stand-in for the CUDA driver library, for tests without a GPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Built as a shared library exporting the entry points of
// engine/cuda/driver_symbols.def; tests load it through FLAMEJIT_LIBCUDA_PATH
// so that the CUDA backend's host side (the context made on its own thread,
// prepare, module loading, the launch loop, error paths) runs in CI. It
// plays one device of compute capability 9.0 whose memory is host memory;
// kernels do nothing when launched, so no sample is ever plotted.
//
// FJ_STAND_IN_CONTEXT, read at every cuDevicePrimaryCtxRetain, says how
// making the context goes:
//   unset or ""     at once
//   "fail"          CUDA_ERROR_OUT_OF_MEMORY
//   "wait:DIR"      not before DIR holds a kernel cache file (*.fjk): the
//                   context is made only once the caller has compiled, so a
//                   caller that waited for the context before compiling
//                   deadlocks, which the stand-in ends after 60 s with
//                   CUDA_ERROR_TIMEOUT.
#include <cuda.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <thread>

namespace {

thread_local CUcontext current = nullptr;
// A context and a stream are only ever compared and passed back: any
// distinct non-null addresses do.
int context_object, stream_object, function_object;

bool holds_kernel_file(const std::string& dir) {
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(dir, error))
        if (entry.path().extension() == ".fjk") return true;
    return false;
}

CUresult wait_for_kernel_file(const std::string& dir) {
    const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!holds_kernel_file(dir)) {
        if (std::chrono::steady_clock::now() > give_up) return CUDA_ERROR_TIMEOUT;
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    return CUDA_SUCCESS;
}

}  // namespace

extern "C" {

CUresult cuInit(unsigned int) { return CUDA_SUCCESS; }

CUresult cuDriverGetVersion(int* version) {
    *version = CUDA_VERSION;
    return CUDA_SUCCESS;
}

CUresult cuGetErrorName(CUresult error, const char** name) {
    switch (error) {
    case CUDA_SUCCESS: *name = "CUDA_SUCCESS"; break;
    case CUDA_ERROR_OUT_OF_MEMORY: *name = "CUDA_ERROR_OUT_OF_MEMORY"; break;
    case CUDA_ERROR_INVALID_DEVICE: *name = "CUDA_ERROR_INVALID_DEVICE"; break;
    case CUDA_ERROR_INVALID_IMAGE: *name = "CUDA_ERROR_INVALID_IMAGE"; break;
    case CUDA_ERROR_INVALID_CONTEXT: *name = "CUDA_ERROR_INVALID_CONTEXT"; break;
    case CUDA_ERROR_TIMEOUT: *name = "CUDA_ERROR_TIMEOUT"; break;
    default: *name = "CUDA_ERROR_UNKNOWN"; return CUDA_ERROR_INVALID_VALUE;
    }
    return CUDA_SUCCESS;
}

CUresult cuGetErrorString(CUresult error, const char** text) {
    *text = error == CUDA_SUCCESS ? "no error" : "stand-in driver error";
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetCount(int* count) {
    *count = 1;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice* device, int ordinal) {
    if (ordinal != 0) return CUDA_ERROR_INVALID_DEVICE;
    *device = 0;
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetName(char* name, int length, CUdevice) {
    std::strncpy(name, "flamejit stand-in device", static_cast<size_t>(length));
    return CUDA_SUCCESS;
}

CUresult cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice) {
    switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: *value = 9; break;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *value = 0; break;
    case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *value = 2; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR: *value = 228 * 1024; break;
    case CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK: *value = 1024; break;
    case CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN: *value = 227 * 1024; break;
    default: *value = 0; break;
    }
    return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t* bytes, CUdevice) {
    *bytes = size_t{1} << 30;
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRetain(CUcontext* context, CUdevice) {
    const char* how = std::getenv("FJ_STAND_IN_CONTEXT");
    const std::string mode = how ? how : "";
    if (mode == "fail") return CUDA_ERROR_OUT_OF_MEMORY;
    if (mode.rfind("wait:", 0) == 0) {
        const CUresult waited = wait_for_kernel_file(mode.substr(5));
        if (waited != CUDA_SUCCESS) return waited;
    }
    *context = reinterpret_cast<CUcontext>(&context_object);
    return CUDA_SUCCESS;
}

CUresult cuDevicePrimaryCtxRelease(CUdevice) { return CUDA_SUCCESS; }

CUresult cuCtxSetCurrent(CUcontext context) {
    current = context;
    return CUDA_SUCCESS;
}

CUresult cuCtxGetCurrent(CUcontext* context) {
    *context = current;
    return CUDA_SUCCESS;
}

CUresult cuCtxSynchronize() { return current ? CUDA_SUCCESS : CUDA_ERROR_INVALID_CONTEXT; }

// Calls that need a context fail without one, as the driver's do.
#define FJ_NEEDS_CONTEXT() \
    if (!current) return CUDA_ERROR_INVALID_CONTEXT

CUresult cuModuleLoadData(CUmodule* module, const void* image) {
    FJ_NEEDS_CONTEXT();
    if (std::memcmp(image, "\x7f" "ELF", 4) != 0) return CUDA_ERROR_INVALID_IMAGE;
    *module = reinterpret_cast<CUmodule>(new char);
    return CUDA_SUCCESS;
}

CUresult cuModuleUnload(CUmodule module) {
    delete reinterpret_cast<char*>(module);
    return CUDA_SUCCESS;
}

CUresult cuModuleGetFunction(CUfunction* function, CUmodule, const char*) {
    FJ_NEEDS_CONTEXT();
    *function = reinterpret_cast<CUfunction>(&function_object);
    return CUDA_SUCCESS;
}

CUresult cuFuncGetAttribute(int* value, CUfunction_attribute, CUfunction) {
    *value = 0;
    return CUDA_SUCCESS;
}

CUresult cuFuncSetAttribute(CUfunction, CUfunction_attribute, int) { return CUDA_SUCCESS; }

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, CUfunction, int, size_t) {
    *blocks = 4;
    return CUDA_SUCCESS;
}

CUresult cuMemGetInfo(size_t* free_bytes, size_t* total) {
    *free_bytes = *total = size_t{1} << 30;
    return CUDA_SUCCESS;
}

CUresult cuMemAlloc(CUdeviceptr* pointer, size_t bytes) {
    FJ_NEEDS_CONTEXT();
    void* memory = std::calloc(bytes, 1);
    if (!memory) return CUDA_ERROR_OUT_OF_MEMORY;
    *pointer = reinterpret_cast<CUdeviceptr>(memory);
    return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr pointer) {
    std::free(reinterpret_cast<void*>(pointer));
    return CUDA_SUCCESS;
}

CUresult cuMemcpyHtoDAsync(CUdeviceptr to, const void* from, size_t bytes, CUstream) {
    FJ_NEEDS_CONTEXT();
    std::memcpy(reinterpret_cast<void*>(to), from, bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemcpyDtoHAsync(void* to, CUdeviceptr from, size_t bytes, CUstream) {
    FJ_NEEDS_CONTEXT();
    std::memcpy(to, reinterpret_cast<const void*>(from), bytes);
    return CUDA_SUCCESS;
}

CUresult cuMemsetD32Async(CUdeviceptr to, unsigned int value, size_t count, CUstream) {
    FJ_NEEDS_CONTEXT();
    auto* words = reinterpret_cast<unsigned int*>(to);
    for (size_t i = 0; i < count; ++i) words[i] = value;
    return CUDA_SUCCESS;
}

CUresult cuStreamCreate(CUstream* stream, unsigned int) {
    FJ_NEEDS_CONTEXT();
    *stream = reinterpret_cast<CUstream>(&stream_object);
    return CUDA_SUCCESS;
}

CUresult cuStreamDestroy(CUstream) { return CUDA_SUCCESS; }

CUresult cuStreamSynchronize(CUstream) {
    FJ_NEEDS_CONTEXT();
    return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction, unsigned int, unsigned int, unsigned int, unsigned int, unsigned int,
                        unsigned int, unsigned int, CUstream, void**, void**) {
    FJ_NEEDS_CONTEXT();
    return CUDA_SUCCESS;
}

}  // extern "C"
