// flamejit — the CUDA driver, loaded at run time, and the one check for its calls.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The binary never links libcuda: a machine without a driver must still run
// the CPU backend. <cuda.h> supplies types and prototypes only; every call goes
// through the pointers of DriverApi, resolved with dlopen/dlsym on first use.
// A missing library or symbol is remembered, not reported, until someone asks
// for CUDA; then cuda_driver() throws one specific line.
//
// Environment: FLAMEJIT_LIBCUDA_PATH names the driver library to load instead
// of the loader's libcuda.so.1.
#pragma once

#include <cuda.h>

#include <stdexcept>
#include <string>

namespace fj {

// A failed driver call: the message names the expression, the call site and
// the CUresult (name and description).
class CudaError : public std::runtime_error {
public:
    CudaError(const std::string& message, CUresult result)
        : std::runtime_error(message), result_(result) {}
    CUresult result() const { return result_; }

private:
    CUresult result_;
};

struct DriverApi {
#define FJ_DRIVER_SYMBOL(name) decltype(&::name) name = nullptr;
#include "cuda/driver_symbols.def"
#undef FJ_DRIVER_SYMBOL
};

// The loaded driver, with cuInit(0) done. Loading happens once per process (a
// dlopen handle is process-wide anyway). Throws std::runtime_error saying why
// CUDA is unusable: library not found, a symbol missing (driver too old), or
// cuInit's error.
const DriverApi& cuda_driver();

// The same question without throwing; `why_not` receives the one-line reason.
bool cuda_driver_loaded(std::string* why_not);

// "CUDA_ERROR_OUT_OF_MEMORY (out of memory)", or the number when the driver
// cannot name it.
std::string cuda_result_text(CUresult result);

// Throws CudaError unless `result` is CUDA_SUCCESS. Use through CU_CHECK.
void cuda_check(CUresult result, const char* expression, const char* file, int line);

}  // namespace fj

// Calls a driver entry point through the loaded table: CU_CHECK(cuMemAlloc(&p, n)).
#define CU_CHECK(call) ::fj::cuda_check(::fj::cuda_driver().call, #call, __FILE__, __LINE__)
