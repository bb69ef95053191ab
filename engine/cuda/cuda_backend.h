// flamejit — the CUDA backend: JIT iteration kernels and the nvcc-built post-pass.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Works in the device's primary context (shared with the post-pass, which
// uses the runtime API). Per kernel key it stitches the source, gets the CUBIN
// from the kernel cache, loads it once, and sizes the grid with the occupancy
// API. A pool of points (one per thread of the grid) persists across the
// launches of a frame, so the fuse is paid once per frame; launches are sized
// to take about 75 ms each, measured as they run.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "backend.h"

namespace fj {

class KernelCache;

struct CudaBackendOptions {
    int device = 0;
    std::string arch;       // NVRTC target; empty = the device's own (sm_XY)
    std::string cache_dir;  // empty = KernelCache's default folder
    // A kernel cache to use instead of one of the backend's own in cache_dir:
    // the devices of one render share one, so that a kernel they all need
    // (a key is per arch) compiles once however they ask for it.
    std::shared_ptr<KernelCache> kernel_cache;
    // A fixed launch shape instead of a measured one, for tests that compare
    // kernels hit for hit. `launch_rounds` > 0: every launch runs that many
    // rounds (the last one only what the samples still need) instead of
    // being sized by its duration, so the total does not depend on timing.
    // `max_blocks_per_sm` > 0 fixes the grid at that many blocks per SM (or
    // fewer, where the occupancy allows fewer) instead of sizing it per
    // frame, so that kernels of different occupancy (registers differ
    // between accumulation modes) run the same pool of points and therefore
    // the same trajectories.
    unsigned int launch_rounds = 0;
    int max_blocks_per_sm = 0;
    // A specialized kernel not in the kernel cache is first stood in for by
    // its linked form while it compiles in the background (--kernel auto;
    // cuda/kernel_modules.h).
    bool start_linked = false;
};

// Throws std::runtime_error (CudaError for driver calls) with the reason CUDA
// cannot be used, InputError for a device number that does not exist. The
// device's context is made on a thread of its own while the caller goes on
// (Backend::prepare compiles meanwhile); a failure to make it is thrown by
// the first call that needs it.
std::unique_ptr<Backend> make_cuda_backend(const CudaBackendOptions& options);

// Waits for the kernels a CUDA backend compiles in the background (starting
// linked): the next launch then runs the specialized kernel. For tests.
void cuda_wait_for_compiles(Backend& backend);

// The accumulator of a CUDA backend copied to the host: hist_width ×
// hist_height RGBA floats, row-major. For tests and diagnostics.
std::vector<float> cuda_download_accumulator(Backend& backend);
// Its count buffer (flam3's count channel, one float per cell), empty unless
// the frame's key has density_count. For tests and diagnostics.
std::vector<float> cuda_download_counts(Backend& backend);

// The atomic ceiling of the request's kernel: `adds` unit hits to cells of
// the current frame's accumulator (which they dirty), timed after a warm-up
// launch: uniformly random cells, or the cells of `cell_list` in turn (a
// sample of a genome's hits in random order, analysis/hit_sample.h), each
// one inside the frame. Returns adds per second.
double cuda_atomic_ceiling(Backend& backend, const IterationRequest& request, uint64_t adds,
                           const std::vector<uint32_t>& cell_list = {});

// True when the driver loads, initialises, shows a device, and NVRTC loads;
// otherwise `why_not` gets one line saying which step failed.
bool cuda_available(std::string* why_not);

// The same without loading NVRTC, which make_cuda_backend loads while the
// device's context is being made.
bool cuda_device_available(std::string* why_not);

struct CudaDeviceInfo {
    int index = 0;
    std::string name;
    int cc_major = 0, cc_minor = 0;
    unsigned long long memory_bytes = 0;
    int multiprocessors = 0;
};

struct CudaSystemInfo {
    int driver_version = 0;  // e.g. 13000 for 13.0
    std::vector<CudaDeviceInfo> devices;
};

// For `flamejit info`. Throws std::runtime_error saying why when the driver
// is unusable (callers show cuda_available's reason instead).
CudaSystemInfo describe_devices();

}  // namespace fj
