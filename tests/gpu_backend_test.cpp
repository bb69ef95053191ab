// flamejit — the CUDA backend end to end on a real device (label "gpu").
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Without a usable driver, device and NVRTC every case prints why and passes:
// these suites are run with `ctest -L gpu` on machines that have one.
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/variation_registry.h"
#include "cuda/cuda_backend.h"
#include "cuda/driver_api.h"
#include "cuda/nvrtc_api.h"
#include "errors.h"
#include "genome/flam3_reader.h"
#include "pipeline/compile_ahead.h"
#include "pipeline/prepared_frame.h"
#include "pipeline/renderer.h"
#include "test_support.h"

namespace {

// One xform: a rotation by one radian (linear), so every point keeps its
// radius (< sqrt 2 from the seed square) and every plotted sample lands in
// the histogram; optionally a touch of spherical, which can throw points out.
fj::Flame rotation_flame(double spherical_weight) {
    fj::Flame flame;
    flame.name = "gpu-backend-test";
    fj::Xform xf;
    xf.weight = 1;
    xf.color = 0.5;
    xf.affine = {std::cos(1.0), -std::sin(1.0), 0, std::sin(1.0), std::cos(1.0), 0};
    xf.variations.push_back({0, 1.0 - spherical_weight, {}});
    if (spherical_weight > 0) xf.variations.push_back({2, spherical_weight, {}});
    flame.xforms.push_back(xf);
    for (fj::RGBA& entry : flame.palette) entry = {1, 1, 1, 1};
    return flame;
}

// World [-2, 2]² onto a 64×64 histogram.
fj::FramePlan small_plan() {
    fj::FramePlan plan;
    plan.width = plan.height = 64;
    plan.hist_width = plan.hist_height = 64;
    const double world_to_cell[6] = {16, 0, 32, 0, 16, 32};
    for (int i = 0; i < 6; ++i) plan.world_to_cell[i] = world_to_cell[i];
    plan.samples = 2'000'000;
    return plan;
}

// The same world on 512×512 cells: more cells than any block's shared-memory
// hit cache holds, so `shared` takes both of its paths.
fj::FramePlan wide_plan() {
    fj::FramePlan plan = small_plan();
    plan.width = plan.height = plan.hist_width = plan.hist_height = 512;
    const double world_to_cell[6] = {128, 0, 256, 0, 128, 256};
    for (int i = 0; i < 6; ++i) plan.world_to_cell[i] = world_to_cell[i];
    return plan;
}

struct Run {
    fj::IterationStats stats;
    double alpha_total = 0;
    int progress_calls = 0;
    std::vector<float> accum;
};

// `prepare`: name the kernel before the frame, as Renderer does, so that the
// backend compiles it while its context is still being made.
Run render(fj::Backend& backend, const fj::Flame& flame, const fj::FramePlan& plan,
           const fj::KernelOptions& kernel = {}, bool prepare = false) {
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    const fj::KernelKey key = fj::make_kernel_key(flame, kernel);
    const fj::ParamLayout layout = fj::make_param_layout(key, registry);
    const std::vector<float> params = fj::pack_params(flame, key, layout, plan.world_to_cell);
    Run run;
    fj::IterationRequest request;
    request.flame = &flame;
    request.key = &key;
    request.layout = &layout;
    request.plan = &plan;
    request.steps = {{&params, plan.samples}};
    request.seed = 7;
    request.progress = [&](double) { ++run.progress_calls; };
    if (prepare) backend.prepare(key, layout);
    backend.begin_frame(plan);
    run.stats = backend.iterate(request);
    run.accum = fj::cuda_download_accumulator(backend);
    for (size_t i = 3; i < run.accum.size(); i += 4) run.alpha_total += run.accum[i];
    return run;
}

}  // namespace

TEST_CASE("gpu backend: availability gives a reason or a device") {
    std::string why;
    const bool available = fj::cuda_available(&why);
    if (!available) {
        CHECK(!why.empty());
        CHECK_THROWS_AS(fj::make_cuda_backend({}), std::runtime_error);
        fj::test::missing_devices(why);
        return;
    }
    const fj::CudaSystemInfo info = fj::describe_devices();
    CHECK(info.driver_version > 0);
    REQUIRE(!info.devices.empty());
    for (const fj::CudaDeviceInfo& d : info.devices) {
        MESSAGE("device " << d.index << ": " << d.name << " sm_" << d.cc_major << d.cc_minor << ", "
                          << d.memory_bytes / (1 << 20) << " MiB, driver " << info.driver_version
                          << ", NVRTC " << fj::nvrtc_version());
        CHECK(d.cc_major >= 7);
        CHECK(d.memory_bytes > 0);
        CHECK(d.multiprocessors > 0);
    }
}

TEST_CASE("gpu backend: every plotted sample of a bounded genome lands in the accumulator") {
    if (!fj::test::cuda_devices_present()) return;
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("gpu-backend-cache");
    auto backend = fj::make_cuda_backend(options);
    CHECK(backend->name() == "cuda");
    const fj::FramePlan plan = small_plan();
    const Run run = render(*backend, rotation_flame(0), plan);
    CHECK(run.stats.samples >= plan.samples);
    CHECK(run.stats.bad_values == 0);
    CHECK(run.progress_calls > 0);
    // Each hit adds visibility (1) × palette alpha (255): the sum is an exact
    // count as long as per-cell floats stay below 2^24.
    CHECK(run.alpha_total == doctest::Approx(255.0 * run.stats.samples).epsilon(1e-6));

    // A second frame starts from a cleared accumulator.
    const Run again = render(*backend, rotation_flame(0), plan);
    CHECK(again.alpha_total == doctest::Approx(255.0 * again.stats.samples).epsilon(1e-6));
}

TEST_CASE("gpu backend: a kernel prepared while the context is made renders as one built on demand") {
    if (!fj::test::cuda_devices_present()) return;
    // A fixed launch shape, so both backends plot the same hits.
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("gpu-backend-prepare-cache");
    options.launch_rounds = 16;
    options.max_blocks_per_sm = 1;
    const fj::FramePlan plan = small_plan();
    const fj::Flame flame = rotation_flame(0.3);
    // The first backend compiles (an empty cache) before its context is
    // surely there; the second finds the kernel in the cache on demand.
    auto prepared = fj::make_cuda_backend(options);
    const Run early = render(*prepared, flame, plan, {}, true);
    auto on_demand = fj::make_cuda_backend(options);
    const Run late = render(*on_demand, flame, plan);
    REQUIRE(early.stats.samples >= plan.samples);
    CHECK(early.stats.samples == late.stats.samples);
    CHECK(early.accum == late.accum);
    // Preparing a kernel the backend already has changes nothing.
    const Run again = render(*prepared, flame, plan, {}, true);
    CHECK(again.accum == early.accum);
}

TEST_CASE("gpu backend: a frame of few samples runs its chains' settling in a few launches, not one per round") {
    if (!fj::test::cuda_devices_present()) return;
    // Far fewer samples than lanes: every lane's first chain is settled
    // (iterate/common.h), so nothing plots for about FJ_SETTLE rounds.
    // Launches of at most 400 rounds must cover them in a handful, where
    // sizing launches by samples / pool alone ran one round per launch.
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("gpu-backend-cache");
    options.launch_rounds = 400;
    auto backend = fj::make_cuda_backend(options);
    fj::FramePlan plan = small_plan();
    plan.samples = 1000;
    const Run run = render(*backend, rotation_flame(0), plan);
    CHECK(run.stats.samples >= plan.samples);
    CHECK(run.stats.launches >= 3);  // FJ_SETTLE + the fuse is over 1000 rounds
    CHECK(run.stats.launches <= 6);
}

TEST_CASE("gpu backend: a device number that does not exist is an input error") {
    if (!fj::test::cuda_devices_present()) return;
    fj::CudaBackendOptions options;
    options.device = 1 << 20;
    CHECK_THROWS_AS(fj::make_cuda_backend(options), fj::InputError);
}

TEST_CASE("gpu backend: an unbounded variation plots at most the counted samples") {
    if (!fj::test::cuda_devices_present()) return;
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("gpu-backend-cache");
    auto backend = fj::make_cuda_backend(options);
    const fj::FramePlan plan = small_plan();
    const Run run = render(*backend, rotation_flame(0.3), plan);
    CHECK(run.stats.samples >= plan.samples);
    CHECK(run.alpha_total > 0);
    CHECK(run.alpha_total <= 255.0 * run.stats.samples * (1 + 1e-6));
}

TEST_CASE("gpu backend: driver errors name the call and the result") {
    if (!fj::test::cuda_devices_present()) return;
    bool thrown = false;
    try {
        CU_CHECK(cuDeviceGet(nullptr, 1 << 20));
    } catch (const fj::CudaError& e) {
        thrown = true;
        const std::string message = e.what();
        CHECK(message.find("cuDeviceGet(nullptr, 1 << 20)") != std::string::npos);
        CHECK(message.find("gpu_backend_test.cpp:") != std::string::npos);
        CHECK(message.find("CUDA_ERROR_") != std::string::npos);
    }
    CHECK(thrown);
}

TEST_CASE("gpu backend: every accumulation mode gives atomic's accumulator bit for bit (packed: unless it counted carries)") {
    if (!fj::test::cuda_devices_present()) return;
    // A fixed launch shape: every kernel runs the same pool and rounds, so the
    // same hits reach the grid and only the way there differs. Hits are
    // integers and every cell stays far below 2^24, so sums in any order and
    // grouping are exact: any difference is a lost or doubled hit.
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("gpu-backend-cache");
    options.launch_rounds = 16;
    options.max_blocks_per_sm = 1;
    auto backend = fj::make_cuda_backend(options);
    fj::Flame bright = rotation_flame(0.3);
    // Opacity above 1: hits above 255 per channel, which packed words cannot take.
    bright.xforms[0].opacity = 1.2;
    struct Case {
        const char* what;
        fj::Flame flame;
        fj::FramePlan plan;
    };
    // 64×64: about 1600 cells lit, each hit about 1200 times (packed words
    // flush in the kernel, every cell fits in a block's cache); 512×512:
    // about 100k cells, more than a cache holds (its fallback path); misses
    // and bad values from the spherical part.
    const Case cases[] = {{"rotation, 64x64", rotation_flame(0), small_plan()},
                          {"rotation + spherical, 512x512", rotation_flame(0.3), wide_plan()},
                          {"opacity 1.2, 64x64", bright, small_plan()}};
    for (const Case& c : cases) {
        CAPTURE(c.what);
        const Run reference = render(*backend, c.flame, c.plan);
        REQUIRE(reference.stats.samples >= c.plan.samples);
        CHECK(reference.alpha_total > 0);
        for (fj::Accumulation acc : {fj::Accumulation::Scalar, fj::Accumulation::Warp, fj::Accumulation::Shared,
                                     fj::Accumulation::Packed}) {
            CAPTURE(fj::to_string(acc));
            fj::KernelOptions kernel;
            kernel.accumulation = acc;
            const Run run = render(*backend, c.flame, c.plan, kernel);
            CHECK(run.stats.samples == reference.stats.samples);
            // One block per SM leaves the cache most of the SM's shared memory.
            if (acc == fj::Accumulation::Shared) CHECK(run.stats.cache_slots >= 1024);
            REQUIRE(run.accum.size() == reference.accum.size());
            size_t differing_cells = 0;
            for (size_t i = 0; i < run.accum.size(); i += 4)
                differing_cells += std::memcmp(&run.accum[i], &reference.accum[i], 4 * sizeof(float)) != 0;
            if (acc == fj::Accumulation::Packed && run.stats.packed_carries > 0) {
                // The documented loss: a word took 128 or more adds between
                // crossing 2^15 and its exchange. Each counted carry spoils
                // at most one cell.
                MESSAGE("packed: " << run.stats.packed_carries << " carries, " << differing_cells
                                   << " cells differ from atomic");
                CHECK(differing_cells <= run.stats.packed_carries);
            } else {
                CHECK(run.stats.packed_carries == 0);
                CHECK(differing_cells == 0);
            }
        }
    }
}

TEST_CASE("gpu backend: compiling an animation ahead puts each structure's kernel in the cache once") {
    if (!fj::test::cuda_devices_present()) return;
    const std::string cache = fj::test::scratch_dir("compile-ahead-cache");
    // The renderer's backends take their cache folder from the environment.
    const fj::test::ScopedEnv cache_dir("FLAMEJIT_CACHE_DIR", cache);
    const std::vector<fj::Flame> keys = fj::read_flam3_file(fj::test::source_path("genomes/three-structures.flam3"));
    fj::FrameOptions frame;
    frame.temporal_samples = 1;
    const std::vector<double> times = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    std::set<std::string> structures;
    for (double t : times) structures.insert(fj::prepare_animation_frame(keys, t, frame).key.canonical());
    // Three keyframes, two intervals, each padded to the union of its ends:
    // unblurred frames have one structure per interval.
    CHECK(structures.size() == 2);
    const auto kernel_files = [&] {
        size_t n = 0;
        for (const auto& entry : std::filesystem::directory_iterator(cache)) n += entry.path().extension() == ".fjk";
        return n;
    };
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Cuda;
    for (int run = 0; run < 2; ++run) {
        CAPTURE(run);
        // The second renderer finds them all in the cache. Under the stand-in
        // NVRTC (the emulated run) a compile of it would fail and go
        // uncounted; a real NVRTC ignores the setting.
        std::optional<fj::test::ScopedEnv> refuse;
        if (run == 1) refuse.emplace("FJ_STAND_IN_REFUSE", "fj_iterate");
        fj::Renderer renderer(options);
        fj::CompileAhead ahead(renderer, keys, times, frame, 2);
        ahead.wait();
        CHECK(ahead.kernels() == structures.size());
        CHECK(kernel_files() == structures.size());
        // The first compiled each structure once; the second, nothing.
        CHECK(renderer.kernels_compiled() == (run == 0 ? structures.size() : 0));
    }
    // The CPU compiles nothing ahead.
    options.backend = fj::BackendChoice::Cpu;
    fj::Renderer cpu(options);
    fj::CompileAhead none(cpu, keys, times, frame, 2);
    none.wait();
    CHECK(none.kernels() == 0);
    CHECK(cpu.kernels_compiled() == 0);
}
