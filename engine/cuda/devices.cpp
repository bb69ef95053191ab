// SPDX-License-Identifier: GPL-3.0-or-later
// What the CUDA backend can use here: the driver, its devices, NVRTC.
#include "cuda/cuda_backend.h"
#include "cuda/driver_api.h"
#include "cuda/nvrtc_api.h"

namespace fj {

bool cuda_device_available(std::string* why_not) {
    std::string reason;
    if (!cuda_driver_loaded(&reason)) {
        if (why_not) *why_not = reason;
        return false;
    }
    // The post-pass's runtime and NVRTC's CUBINs come from the toolkit this
    // build used, which CUDA documents to run on drivers of its major
    // version or later (minor version compatibility); an older driver would
    // fail a frame only once its kernel had compiled.
    int version = 0;
    if (cuda_driver().cuDriverGetVersion(&version) == CUDA_SUCCESS && version / 1000 < CUDA_VERSION / 1000) {
        if (why_not)
            *why_not = "the NVIDIA driver supports CUDA " + std::to_string(version / 1000) + "." +
                       std::to_string(version % 1000 / 10) + ", and flamejit, built with CUDA " +
                       std::to_string(CUDA_VERSION / 1000) + "." + std::to_string(CUDA_VERSION % 1000 / 10) +
                       ", needs a driver for CUDA " + std::to_string(CUDA_VERSION / 1000) + " or later";
        return false;
    }
    int count = 0;
    const CUresult result = cuda_driver().cuDeviceGetCount(&count);
    if (result != CUDA_SUCCESS || count == 0) {
        if (why_not)
            *why_not = result != CUDA_SUCCESS
                           ? "cuDeviceGetCount failed: " + cuda_result_text(result)
                           : std::string("the CUDA driver reports no device");
        return false;
    }
    return true;
}

bool cuda_available(std::string* why_not) {
    return cuda_device_available(why_not) && nvrtc_available(why_not);
}

CudaSystemInfo describe_devices() {
    CudaSystemInfo info;
    CU_CHECK(cuDriverGetVersion(&info.driver_version));
    int count = 0;
    CU_CHECK(cuDeviceGetCount(&count));
    for (int i = 0; i < count; ++i) {
        CUdevice device = 0;
        CU_CHECK(cuDeviceGet(&device, i));
        CudaDeviceInfo d;
        d.index = i;
        char name[256] = {};
        CU_CHECK(cuDeviceGetName(name, sizeof name - 1, device));
        d.name = name;
        CU_CHECK(cuDeviceGetAttribute(&d.cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                      device));
        CU_CHECK(cuDeviceGetAttribute(&d.cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                                      device));
        CU_CHECK(cuDeviceGetAttribute(&d.multiprocessors, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                                      device));
        size_t bytes = 0;
        CU_CHECK(cuDeviceTotalMem(&bytes, device));
        d.memory_bytes = bytes;
        info.devices.push_back(d);
    }
    return info;
}

}  // namespace fj
