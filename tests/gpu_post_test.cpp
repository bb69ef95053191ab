// flamejit — the CUDA post-pass (post_cuda.cu) against the CPU post-pass on
// the same accumulators: on a GPU, and in CI on the emulated runtime
// (emulated_post_test). Each case skips, saying why, where no device is there.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include <cuda_runtime.h>

#include "pipeline/frame_plan.h"
#include "post/post_cpu.h"
#include "post/post_cuda.h"
#include "post/post_plan.h"
#include "post_fixtures.h"
#include "test_support.h"

using fj::test::bent_curves;
using fj::test::close;
using fj::test::curve_plan;
using fj::test::random_accumulator;
using fj::test::small_frame;

namespace {

// Whether a device (or the emulated runtime) is there, saying why not.
bool cuda_device_present() {
    int devices = 0;
    const cudaError_t err = cudaGetDeviceCount(&devices);
    if (err == cudaSuccess && devices > 0) return true;
    fj::test::missing_devices(std::string("no CUDA device (") + cudaGetErrorString(err) + ")");
    return false;
}

// Device copies, and the samples of two images that differ beyond float
// rounding.
float* device_copy(const std::vector<float>& host) {
    float* device = nullptr;
    REQUIRE(cudaMalloc(&device, host.size() * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemcpy(device, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
    return device;
}

int mismatches(const fj::ImageF& gpu, const fj::ImageF& cpu) {
    REQUIRE(gpu.rgba.size() == cpu.rgba.size());
    int bad = 0;
    for (size_t i = 0; i < cpu.rgba.size(); ++i)
        if (!close(gpu.rgba[i], cpu.rgba[i], 1e-4, 1e-3)) ++bad;
    return bad;
}

}  // namespace

TEST_CASE("post cuda: matches the CPU post-pass on a random accumulator (needs a GPU)") {
    if (!cuda_device_present()) return;
    fj::Flame f = small_frame();
    f.highlight_power = 1;
    f.vibrancy = 0.7;
    fj::FramePlan plan = fj::plan_frame(f);
    fj::PostPlan post = fj::make_post_plan(f, plan);
    const std::vector<float> accum = random_accumulator(plan, 11);
    float* d_accum = device_copy(accum);
    fj::PostStats gpu_stats, cpu_stats;
    fj::ImageF gpu = fj::post_process_cuda(post, d_accum, nullptr, &gpu_stats);
    fj::ImageF cpu = fj::post_process_cpu(post, accum.data(), 2, &cpu_stats);
    cudaFree(d_accum);
    CHECK(gpu_stats.nonempty_cells == cpu_stats.nonempty_cells);
    CHECK(gpu_stats.alpha_sum == doctest::Approx(cpu_stats.alpha_sum));
    CHECK(mismatches(gpu, cpu) == 0);
    REQUIRE(gpu_stats.density_estimation);
    // Without the compaction of non-empty cells (a thread per cell), with
    // density estimation and with plain log scaling: the same image.
    for (double radius : {f.estimator_radius, 0.0}) {
        CAPTURE(radius);
        fj::Flame g = f;
        g.estimator_radius = radius;
        fj::PostPlan whole = fj::make_post_plan(g, plan);
        whole.compact_cells = false;
        fj::PostStats stats;
        d_accum = device_copy(accum);
        const fj::ImageF uncompacted = fj::post_process_cuda(whole, d_accum, nullptr, &stats);
        cudaFree(d_accum);
        CHECK(stats.nonempty_cells == -1);
        CHECK(stats.density_estimation == (radius > 0));
        CHECK(mismatches(uncompacted, fj::post_process_cpu(whole, accum.data(), 2, nullptr)) == 0);
    }

    // A strip's rows (its filter windows start at filter_top), toned and linear.
    const fj::FramePlan band = fj::band_plan(plan, 10, 20);
    const size_t row = size_t(4) * plan.hist_width;
    const std::vector<float> rows(accum.begin() + row * band.hist_row0,
                                  accum.begin() + row * (band.hist_row0 + band.hist_height));
    d_accum = device_copy(rows);
    for (bool linear : {false, true}) {
        CAPTURE(linear);
        fj::PostPlan strip = fj::make_post_plan(f, band);
        strip.linear = linear;
        CHECK(mismatches(fj::post_process_cuda(strip, d_accum, nullptr, nullptr),
                         fj::post_process_cpu(strip, rows.data(), 2, nullptr)) == 0);
    }
    cudaFree(d_accum);
}

// Output pixels per side of the tiles the GPU filter skips when empty (post_cuda.cu).
constexpr int kTileCells = 16;

TEST_CASE("post cuda: tiles of empty filter windows come out as the CPU's, skipped or not (needs a GPU)") {
    if (!cuda_device_present()) return;
    // Hits crowd one corner: most 16×16 tiles of the 96×72 image filter
    // nothing but empty cells, the corner's neighbours only some of them.
    fj::Flame f = small_frame();
    f.width = 96;
    f.height = 72;
    const fj::FramePlan plan = fj::plan_frame(f);
    std::vector<float> accum(size_t(4) * plan.hist_width * plan.hist_height, 0.0f);
    std::mt19937 rng(5);
    std::uniform_int_distribution<int> near(0, plan.hist_width / 5);
    for (int n = 0; n < 3000; ++n) {
        float* c = &accum[4 * (size_t(near(rng) + 3) * plan.hist_width + near(rng) + 3)];
        c[0] += 255 * 0.9f, c[1] += 255 * 0.2f, c[2] += 255 * 0.4f, c[3] += 255;
    }
    // And single hits far from it, each on the first cell of a tile's first
    // pixel (the tile to its right, or below), whose windows the last pixel
    // of the tile before reaches too: a tile missed on either side of an
    // edge shows. (The filter is wider than the supersample.)
    const fj::PostPlan geometry = fj::make_post_plan(f, plan);
    REQUIRE(geometry.filter.width > geometry.supersample);
    const int cell = kTileCells * geometry.supersample, start = geometry.de_offset;
    for (const auto& [cx, cy] : {std::pair{start + 4 * cell, start + 3 * cell + cell / 2},
                                 std::pair{start + 5 * cell + cell / 2, start + 2 * cell}}) {
        float* c = &accum[4 * (size_t(cy) * plan.hist_width + cx)];
        c[0] += 255, c[3] += 255;
    }
    float* d_accum = device_copy(accum);
    for (double radius : {f.estimator_radius, 0.0})
        for (bool earlyclip : {false, true})
            for (bool compact : {true, false}) {
                CAPTURE(radius);
                CAPTURE(earlyclip);
                CAPTURE(compact);
                fj::Flame g = f;
                g.estimator_radius = radius;
                g.background[2] = 0.5;  // empty pixels are not black
                fj::PostPlan post = fj::make_post_plan(g, plan);
                post.earlyclip = earlyclip;
                post.compact_cells = compact;
                CHECK(mismatches(fj::post_process_cuda(post, d_accum, nullptr, nullptr),
                                 fj::post_process_cpu(post, accum.data(), 2, nullptr)) == 0);
            }
    cudaFree(d_accum);
    // A strip of rows below the corner (its filter windows start at
    // filter_top), where only the top tiles reach hits.
    const fj::FramePlan band = fj::band_plan(plan, 20, 40);
    const size_t row = size_t(4) * plan.hist_width;
    const std::vector<float> rows(accum.begin() + row * band.hist_row0,
                                  accum.begin() + row * (band.hist_row0 + band.hist_height));
    d_accum = device_copy(rows);
    fj::PostPlan strip = fj::make_post_plan(f, band);
    CHECK(mismatches(fj::post_process_cuda(strip, d_accum, nullptr, nullptr),
                     fj::post_process_cpu(strip, rows.data(), 2, nullptr)) == 0);
    cudaFree(d_accum);
}

TEST_CASE("post cuda: Fractorium's colour curves, with and without early clip, match the CPU post-pass (needs a GPU)") {
    if (!cuda_device_present()) return;
    fj::Flame f = small_frame();
    f.curves = bent_curves();
    const fj::FramePlan plan = fj::plan_frame(f);
    const std::vector<float> accum = random_accumulator(plan, 22);
    float* d_accum = device_copy(accum);
    for (bool earlyclip : {false, true}) {
        CAPTURE(earlyclip);
        const fj::PostPlan post = curve_plan(f, plan, earlyclip);
        const fj::ImageF gpu = fj::post_process_cuda(post, d_accum, nullptr, nullptr);
        const fj::ImageF cpu = fj::post_process_cpu(post, accum.data(), 2, nullptr);
        REQUIRE(gpu.rgba.size() == cpu.rgba.size());
        // The lookups truncate, so values that differ in their last bits can
        // land on neighbouring entries: a few hundredths of a level apart.
        double worst = 0;
        for (size_t i = 0; i < cpu.rgba.size(); ++i) worst = std::max(worst, double(std::fabs(gpu.rgba[i] - cpu.rgba[i])));
        CHECK(worst < 0.05);
    }
    cudaFree(d_accum);
}

TEST_CASE("post cuda: two passes with a count channel match the CPU post-pass (needs a GPU)") {
    if (!cuda_device_present()) return;
    const fj::Flame f = small_frame();
    fj::FramePlan plan = fj::plan_frame(f);
    fj::PostPlan post = fj::make_post_plan(f, plan);
    REQUIRE(post.density.kernel_count > 1);
    const size_t cells = size_t(plan.hist_width) * plan.hist_height;
    // Two passes of hits with palette alpha 0.2: counts 255 per hit, alpha 51.
    std::vector<float> accum[2], counts[2];
    std::mt19937 rng(12);
    std::uniform_int_distribution<int> cx(0, plan.hist_width - 1), cy(0, plan.hist_height - 1);
    for (int p = 0; p < 2; ++p) {
        accum[p].assign(4 * cells, 0.0f);
        counts[p].assign(cells, 0.0f);
        for (int n = 0; n < 20000; ++n) {
            const size_t cell = size_t(cy(rng)) * plan.hist_width + cx(rng);
            float* c = &accum[p][4 * cell];
            c[0] += 40, c[1] += 10, c[2] += 25, c[3] += 51;
            counts[p][cell] += 255;
        }
    }
    std::vector<float> cpu_passes(4 * cells, 0.0f);
    fj::scale_pass_cpu(post, {accum[0].data(), counts[0].data()}, cpu_passes.data(), 2);
    const fj::ImageF cpu = fj::post_process_cpu(post, {accum[1].data(), counts[1].data()}, cpu_passes.data(), 2);

    float *d_accum = nullptr, *d_counts = nullptr, *d_passes = nullptr;
    REQUIRE(cudaMalloc(&d_accum, 4 * cells * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&d_counts, cells * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMalloc(&d_passes, 4 * cells * sizeof(float)) == cudaSuccess);
    REQUIRE(cudaMemset(d_passes, 0, 4 * cells * sizeof(float)) == cudaSuccess);
    const fj::CudaFrameBuffers buffers{d_accum, d_counts, d_passes};
    fj::ImageF gpu;
    for (int p = 0; p < 2; ++p) {
        REQUIRE(cudaMemcpy(d_accum, accum[p].data(), 4 * cells * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
        REQUIRE(cudaMemcpy(d_counts, counts[p].data(), cells * sizeof(float), cudaMemcpyHostToDevice) == cudaSuccess);
        if (p == 0)
            fj::scale_pass_cuda(post, buffers, nullptr);
        else
            gpu = fj::post_process_cuda(post, buffers, nullptr, nullptr);
    }
    cudaFree(d_accum);
    cudaFree(d_counts);
    cudaFree(d_passes);
    CHECK(mismatches(gpu, cpu) == 0);
}
