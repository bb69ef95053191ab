// flamejit — the post-pass on the GPU: compaction, log scaling / DE splat, filter, tone (empty tiles skipped).
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compiled ahead of time by nvcc because CUB's device-wide algorithms do not
// compile under NVRTC. The per-cell and per-pixel formulas come from
// snippets/post, the same headers the CPU post-pass includes.
#include "post/post_cuda_launch.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include <cub/device/device_reduce.cuh>
#include <cub/device/device_select.cuh>
#include <cuda/std/functional>
#include <cuda_runtime.h>
#include <thrust/iterator/counting_iterator.h>

#include "post/filter.h"

namespace fj {
namespace {

// One choke point for runtime calls: the message names the call and where.
void cuda_check(cudaError_t err, const char* expr, const char* file, int line) {
    if (err == cudaSuccess) return;
    throw std::runtime_error(std::string("CUDA post-pass: ") + expr + " failed at " + file + ":" +
                             std::to_string(line) + ": " + cudaGetErrorName(err) + " (" +
                             cudaGetErrorString(err) + ")");
}
#define FJ_CUDA_CHECK(expr) ::fj::cuda_check((expr), #expr, __FILE__, __LINE__)

// One choke point for launches, through the runtime's typed launch call
// (which also lets the tests run this file on the host, emulator/runtime).
template <typename... Params, typename... Args>
void launch(const char* name, const char* file, int line, void (*kernel)(Params...), dim3 grid, dim3 block,
            cudaStream_t stream, Args... args) {
    // Grid, block, dynamic shared bytes, stream, no attributes.
    const cudaLaunchConfig_t config = {grid, block, 0, stream, nullptr, 0};
    cuda_check(cudaLaunchKernelEx(&config, kernel, args...), name, file, line);
}
#define FJ_LAUNCH(kernel, grid, block, stream, ...) \
    ::fj::launch("launch of " #kernel, __FILE__, __LINE__, kernel, grid, block, stream, __VA_ARGS__)

struct DeviceFree {
    void operator()(void* p) const { cudaFree(p); }
};

// Device memory owned for the duration of one post-pass.
template <typename T>
struct DeviceArray {
    std::unique_ptr<T, DeviceFree> ptr;
    explicit DeviceArray(size_t count) {
        void* p = nullptr;
        if (count) FJ_CUDA_CHECK(cudaMalloc(&p, count * sizeof(T)));
        ptr.reset(static_cast<T*>(p));
    }
    T* get() const { return ptr.get(); }
};

template <typename T>
DeviceArray<T> upload(const T* host, size_t count, cudaStream_t stream) {
    DeviceArray<T> d(count);
    if (count)
        FJ_CUDA_CHECK(cudaMemcpyAsync(d.get(), host, count * sizeof(T), cudaMemcpyHostToDevice,
                                      stream));
    return d;
}

// A cell the scaling step must visit: non-empty, and with DE at least os-1
// cells inside the histogram (flam3 skips that border).
struct VisitCell {
    const float4* accum;
    int width, x0, y0, x1, y1;
    __host__ __device__ bool operator()(int n) const {
        int y = n / width, x = n - y * width;
        return accum[n].w != 0.0f && x >= x0 && x < x1 && y >= y0 && y < y1;
    }
};

struct CellAlpha {
    __host__ __device__ double operator()(const float4& c) const { return c.w; }
};

__device__ FJ_INLINE void add_cell(float4* dst, float4 v) {
#if __CUDA_ARCH__ >= 900
    atomicAdd(dst, v);
#else
    atomicAdd(&dst->x, v.x);
    atomicAdd(&dst->y, v.y);
    atomicAdd(&dst->z, v.z);
    atomicAdd(&dst->w, v.w);
#endif
}

// The cell thread t visits: the t-th of the compacted list, or, without
// one (PostPlan::compact_cells off), cell t itself when it is worth a visit.
__device__ FJ_INLINE int visited_cell(const int* cells, const VisitCell& visit, int t) {
    if (cells) return cells[t];
    return visit(t) ? t : -1;
}

// Adds to `out`, which sums the passes of a frame (one thread per cell).
__global__ void log_scale_kernel(const float4* accum, const int* cells, VisitCell visit, int count, float k1,
                                 float k2, float4* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;
    int n = visited_cell(cells, visit, t);
    if (n < 0) return;
    float4 c = accum[n];
    float ls = log_scale_factor(c.w, k1, k2);
    float4 o = out[n];
    out[n] = make_float4(o.x + c.x * ls, o.y + c.y * ls, o.z + c.z * ls, o.w + c.w * ls);
}

// One thread per visited cell; the kernel bank is (2·half+1)² per kernel.
// Kernels are chosen from `counts` (every `stride` floats: the count buffer,
// or the accumulator's alpha).
__global__ void density_splat_kernel(const float4* accum, const float* counts, int stride,
                                     const int* cells, VisitCell visit, int count, int width,
                                     int height, DensitySelect sel, const float* coefs,
                                     const int* radius, float k1, float k2, float4* out) {
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= count) return;
    int n = visited_cell(cells, visit, t);
    if (n < 0) return;
    int y = n / width, x = n - y * width;
    float4 c = accum[n];
    int k = de_kernel_index(density_around(counts, stride, width, x, y, sel.supersample), sel);
    int r = radius[k];
    int row = 2 * sel.half_width + 1;
    float ls = log_scale_factor(c.w, k1, k2);
    const float* kc = coefs + (size_t)k * row * row + sel.half_width * row + sel.half_width;
    for (int dy = -r; dy <= r; ++dy) {
        int ty = y + dy;
        if (ty < 0 || ty >= height) continue;
        for (int dx = -r; dx <= r; ++dx) {
            int tx = x + dx;
            float w = kc[dy * row + dx];
            if (w == 0.0f || tx < 0 || tx >= width) continue;
            float f = w * ls;
            add_cell(out + (size_t)ty * width + tx, make_float4(f * c.x, f * c.y, f * c.z, f * c.w));
        }
    }
}

// Early clip: every cell tone-mapped in place before the filter.
__global__ void tone_cells_kernel(float4* scaled, long long cells, ToneParamsT<double> tone) {
    long long n = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= cells) return;
    float4 c = scaled[n];
    double t[4] = {c.x, c.y, c.z, c.w}, o[4];
    tone_pixel(t, tone, o);
    scaled[n] = make_float4((float)o[0], (float)o[1], (float)o[2], (float)o[3]);
}

// The filter and tone pass runs in tiles of kTile × kTile output pixels.
constexpr int kTile = 16;

// Marks the tiles whose pixels' filter windows hold a non-zero scaled cell
// (one thread per cell): pixel (px, py) filters the fw × fw cells from
// (left + px·os, top + py·os).
__global__ void mark_tiles_kernel(const float4* scaled, long long cells, int hist_w, int left, int top, int os,
                                  int fw, int width, int height, int tiles_x, unsigned char* busy) {
    long long n = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (n >= cells) return;
    float4 c = scaled[n];
    if (c.x == 0.0f && c.y == 0.0f && c.z == 0.0f && c.w == 0.0f) return;
    int cy = (int)(n / hist_w), cx = (int)(n - (long long)cy * hist_w);
    // Pixels p with p·os <= d <= p·os + fw - 1, d the cell's offset.
    auto first = [os, fw](int d) { int a = d - fw + 1; return a <= 0 ? 0 : (a + os - 1) / os; };
    auto last = [os](int d) { return d < 0 ? -1 : d / os; };
    int x0 = first(cx - left), x1 = last(cx - left);
    int y0 = first(cy - top), y1 = last(cy - top);
    if (x1 > width - 1) x1 = width - 1;
    if (y1 > height - 1) y1 = height - 1;
    for (int ty = y0 / kTile; y0 <= y1 && ty <= y1 / kTile; ++ty)
        for (int tx = x0 / kTile; x0 <= x1 && tx <= x1 / kTile; ++tx) busy[ty * tiles_x + tx] = 1;
}

// Filter and tone in double, as the CPU does (tone.h says why): one thread
// per output pixel, so the double arithmetic is a small share of the pass.
// A tile that mark_tiles_kernel left clear (`busy` given) filters to zero
// without reading its windows.
__global__ void filter_tone_kernel(const float4* scaled, int hist_w, int width, int height, int os,
                                   int left, int top, const double* coefs, int fw, ToneParamsT<double> tone,
                                   bool earlyclip, bool linear, const unsigned char* busy, float4* image) {
    int px = blockIdx.x * blockDim.x + threadIdx.x;
    int py = blockIdx.y * blockDim.y + threadIdx.y;
    if (px >= width || py >= height) return;
    double t[4] = {0.0, 0.0, 0.0, 0.0}, o[4];
    if (!busy || busy[blockIdx.y * gridDim.x + blockIdx.x])
        filter_pixel(reinterpret_cast<const float*>(scaled), hist_w, left + px * os, top + py * os, coefs, fw, t);
    if (linear)
        for (int i = 0; i < 4; ++i) o[i] = i < 3 ? t[i] : t[3] / 255.0;
    else if (earlyclip)
        clip_filtered(t, tone.curves, o);
    else
        tone_pixel(t, tone, o);
    image[(size_t)py * width + px] =
        make_float4(toward_zero_float(o[0]), toward_zero_float(o[1]), toward_zero_float(o[2]), toward_zero_float(o[3]));
}

int blocks_for(long long n, int block) { return (int)((n + block - 1) / block); }

// Adds the pass in `buffers` into d_scaled; returns what it visited.
CudaPostTotals scale_pass(const CudaPostJob& job, const CudaPostBuffers& buffers, float4* d_scaled,
                          cudaStream_t stream) {
    const long long cells = (long long)job.hist_width * job.hist_height;
    if (cells > INT32_MAX) throw std::runtime_error("CUDA post-pass: histogram over 2^31 cells");
    const float4* d_accum = reinterpret_cast<const float4*>(buffers.accum);
    const int os = job.supersample;

    // Compact the cells worth visiting, and total the density, so the
    // scaling launch is sized by the hits rather than the histogram.
    // Without the compaction (for measuring it), a thread per cell.
    VisitCell visit{d_accum, job.hist_width, 0, 0, job.hist_width, job.hist_height};
    if (job.density_estimation) {
        visit.x0 = visit.y0 = os - 1;
        visit.x1 = job.hist_width - (os - 1);
        visit.y1 = job.hist_height - (os - 1);
    }
    DeviceArray<int> d_cells(job.compact ? cells : 0);
    DeviceArray<int> d_count(1);
    DeviceArray<double> d_alpha(1);
    thrust::counting_iterator<int> index(0);
    size_t select_bytes = 0, reduce_bytes = 0;
    if (job.compact)
        FJ_CUDA_CHECK(cub::DeviceSelect::If(nullptr, select_bytes, index, d_cells.get(), d_count.get(),
                                            cells, visit, stream));
    FJ_CUDA_CHECK(cub::DeviceReduce::TransformReduce(nullptr, reduce_bytes, d_accum, d_alpha.get(),
                                                     cells, ::cuda::std::plus<double>(), CellAlpha(),
                                                     0.0, stream));
    DeviceArray<unsigned char> d_temp(std::max(select_bytes, reduce_bytes));
    int count = static_cast<int>(cells);
    if (job.compact) {
        FJ_CUDA_CHECK(cub::DeviceSelect::If(d_temp.get(), select_bytes, index, d_cells.get(),
                                            d_count.get(), cells, visit, stream));
        FJ_CUDA_CHECK(cudaMemcpyAsync(&count, d_count.get(), sizeof(int), cudaMemcpyDeviceToHost, stream));
    }
    FJ_CUDA_CHECK(cub::DeviceReduce::TransformReduce(d_temp.get(), reduce_bytes, d_accum,
                                                     d_alpha.get(), cells,
                                                     ::cuda::std::plus<double>(), CellAlpha(), 0.0,
                                                     stream));
    double alpha_sum = 0;
    FJ_CUDA_CHECK(cudaMemcpyAsync(&alpha_sum, d_alpha.get(), sizeof(double), cudaMemcpyDeviceToHost,
                                  stream));
    FJ_CUDA_CHECK(cudaStreamSynchronize(stream));

    const int block = 256;
    if (count > 0 && job.density_estimation) {
        DeviceArray<float> d_bank = upload(job.bank_coefs, job.bank_coef_count, stream);
        DeviceArray<int> d_radius = upload(job.bank_radius, (size_t)job.kernel_count, stream);
        // flam3 chooses kernels by its count channel; alpha/255 equals it
        // when the frame keeps no count buffer.
        const float* counts = buffers.counts ? buffers.counts : buffers.accum + 3;
        const int stride = buffers.counts ? 1 : 4;
        FJ_LAUNCH(density_splat_kernel, blocks_for(count, block), block, stream, d_accum, counts, stride,
                  d_cells.get(), visit, count, job.hist_width, job.hist_height, job.select, d_bank.get(),
                  d_radius.get(), job.k1, job.k2, d_scaled);
        // The bank must outlive the kernel that reads it.
        FJ_CUDA_CHECK(cudaStreamSynchronize(stream));
    } else if (count > 0) {
        FJ_LAUNCH(log_scale_kernel, blocks_for(count, block), block, stream, d_accum, d_cells.get(), visit, count,
                  job.k1, job.k2, d_scaled);
        // d_cells is freed on return.
        FJ_CUDA_CHECK(cudaStreamSynchronize(stream));
    }
    CudaPostTotals totals;
    totals.visited_cells = job.compact ? count : -1;
    totals.alpha_sum = alpha_sum;
    return totals;
}

}  // namespace

void run_scale_pass_cuda(const CudaPostJob& job, const CudaPostBuffers& buffers, void* stream_handle) {
    if (!buffers.passes) throw std::runtime_error("CUDA post-pass: a pass needs a buffer to add into");
    scale_pass(job, buffers, reinterpret_cast<float4*>(buffers.passes), static_cast<cudaStream_t>(stream_handle));
}

void run_post_cuda(const CudaPostJob& job, const CudaPostBuffers& buffers, void* stream_handle,
                   float* host_rgba, CudaPostTotals* totals) {
    cudaStream_t stream = static_cast<cudaStream_t>(stream_handle);
    const long long cells = (long long)job.hist_width * job.hist_height;
    if (cells > INT32_MAX) throw std::runtime_error("CUDA post-pass: histogram over 2^31 cells");
    const int os = job.supersample;

    // A frame of one pass scales into a buffer of its own; the last pass of
    // several adds to the sum of the others.
    DeviceArray<float4> d_own(buffers.passes ? 0 : cells);
    float4* d_scaled = buffers.passes ? reinterpret_cast<float4*>(buffers.passes) : d_own.get();
    if (!buffers.passes) FJ_CUDA_CHECK(cudaMemsetAsync(d_scaled, 0, cells * sizeof(float4), stream));
    const CudaPostTotals seen = scale_pass(job, buffers, d_scaled, stream);

    // The colour curves' table on the device; under early clip the cells
    // are toned without them and the filtered pixels take them.
    DeviceArray<float> d_curves = upload(job.curves, job.curves ? (size_t)4 * FJ_CURVE_ENTRIES : 0, stream);
    ToneParamsT<double> tone = job.tone;
    tone.curves = job.curves ? d_curves.get() : nullptr;
    const int block = 256;
    if (job.earlyclip && !job.linear) {
        ToneParamsT<double> cell_tone = tone;
        cell_tone.curves = nullptr;
        FJ_LAUNCH(tone_cells_kernel, blocks_for(cells, block), block, stream, d_scaled, cells, cell_tone);
    }
    DeviceArray<double> d_filter =
        upload(job.filter_coefs, (size_t)job.filter_width * job.filter_width, stream);
    const size_t pixels = (size_t)job.width * job.height;
    DeviceArray<float4> d_image(pixels);
    dim3 tile(kTile, kTile);
    dim3 grid(blocks_for(job.width, kTile), blocks_for(job.height, kTile));
    // Tiles whose windows hold only empty cells skip the filter (not under
    // early clip, which has toned every cell).
    const bool skip_empty = job.compact && !(job.earlyclip && !job.linear);
    DeviceArray<unsigned char> d_busy(skip_empty ? (size_t)grid.x * grid.y : 0);
    if (skip_empty) {
        FJ_CUDA_CHECK(cudaMemsetAsync(d_busy.get(), 0, (size_t)grid.x * grid.y, stream));
        FJ_LAUNCH(mark_tiles_kernel, blocks_for(cells, block), block, stream, d_scaled, cells, job.hist_width,
                  job.de_offset, job.filter_top, os, job.filter_width, job.width, job.height, (int)grid.x,
                  d_busy.get());
    }
    FJ_LAUNCH(filter_tone_kernel, grid, tile, stream, d_scaled, job.hist_width, job.width, job.height, os,
              job.de_offset, job.filter_top, d_filter.get(), job.filter_width, tone, job.earlyclip, job.linear,
              static_cast<const unsigned char*>(d_busy.get()), d_image.get());
    FJ_CUDA_CHECK(cudaMemcpyAsync(host_rgba, d_image.get(), pixels * sizeof(float4),
                                  cudaMemcpyDeviceToHost, stream));
    FJ_CUDA_CHECK(cudaStreamSynchronize(stream));
    if (totals) *totals = seen;
}

}  // namespace fj
