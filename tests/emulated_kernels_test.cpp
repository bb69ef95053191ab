// flamejit — the generated CUDA kernels, run on the host, against the CPU backend.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The process loads the stand-in driver and the stand-in NVRTC
// (stand_in_driver.cpp, stand_in_nvrtc.cpp): NVRTC's part is played by the
// host compiler, with emulator/cuda_emulator.h running each block's threads
// as fibers. So the CUDA backend compiles, loads and launches the kernels it
// generates (seeding, iteration with each shuffle, accumulation, the final
// xform) and the host code of both sides is the same compiler's: the CPU
// backend, which keeps the kernel's semantics (same streams, draws, blocks
// and exchanges), must then plot the very same hits. Any difference is a
// difference of logic between fj_iterate and the CPU backend, which the GPU
// suites, where device floats differ from the host's, could only see as
// statistics.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/switch_kernel.h"
#include "codegen/variation_registry.h"
#include "cpu/cpu_backend.h"
#include "cuda/compiler.h"
#include "cuda/cuda_backend.h"
#include "cuda/driver_api.h"
#include "errors.h"
#include "iterate/common.h"
#include "test_support.h"

using fj::test::ScopedEnv;

namespace {

// Before the driver, NVRTC and nvJitLink are first loaded (once per process): the
// stand-ins that $FJ_STAND_IN_DRIVER and $FJ_STAND_IN_NVRTC name (a bundle's
// env.sh), else the build's.
const bool kStandIns = [] {
    setenv("FLAMEJIT_LIBCUDA_PATH", fj::test::path_from_env("FJ_STAND_IN_DRIVER", FJ_STAND_IN_DRIVER).c_str(), 1);
    setenv("FLAMEJIT_NVRTC_PATH", fj::test::path_from_env("FJ_STAND_IN_NVRTC", FJ_STAND_IN_NVRTC).c_str(), 1);
    // The stand-in NVRTC also stands in for nvJitLink (linked kernels).
    setenv("FLAMEJIT_NVJITLINK_PATH", fj::test::path_from_env("FJ_STAND_IN_NVRTC", FJ_STAND_IN_NVRTC).c_str(), 1);
    return true;
}();

// This test's kernels run on the stand-ins in place of the driver and NVRTC,
// with the host compiler the stand-in NVRTC runs (which a machine given only
// a bundle may lack): any of them missing fails the case.
void require_emulator() {
    REQUIRE(kStandIns);
    const std::string compiler = fj::test::path_from_env("FJ_EMULATOR_CXX", FJ_EMULATOR_CXX);
    REQUIRE_MESSAGE(access(compiler.c_str(), X_OK) == 0, "no host compiler at " << compiler << " (FJ_EMULATOR_CXX)");
    std::string why;
    REQUIRE_MESSAGE(fj::cuda_available(&why), why);
}

constexpr int kBlock = 256;
// Two blocks: one per SM of the stand-in device (max_blocks_per_sm = 1),
// one per thread of the CPU backend.
constexpr unsigned kLanes = 2 * kBlock;
// Samples per lane: below FJ_SETTLE, so most lanes' first chains are
// settled and a few fresh (iterate/common.h), and both kinds plot.
constexpr unsigned kPerLane = 300;

fj::Xform xform(double weight, double color, std::vector<fj::VariationUse> variations, fj::AffineD affine) {
    fj::Xform x;
    x.weight = weight;
    x.color = color;
    x.affine = affine;
    x.variations = std::move(variations);
    return x;
}

// Three xforms of plain, trigonometric and random variations (julia draws),
// a post affine, an xform at half opacity, a final xform taken with
// opacity 0.7, and a palette of distinct entries.
fj::Flame test_flame(fj::PaletteMode palette_mode) {
    fj::Flame flame;
    flame.name = "emulated-kernels-test";
    flame.xforms.push_back(xform(0.5, 0.0, {{0, 0.7, {}}, {1, 0.3, {}}}, {0.6, -0.3, 0.2, 0.3, 0.6, -0.1}));
    flame.xforms.push_back(xform(0.3, 0.5, {{2, 0.4, {}}, {13, 0.6, {}}}, {0.5, 0.2, -0.3, -0.2, 0.5, 0.25}));
    flame.xforms.push_back(xform(0.2, 1.0, {{3, 0.5, {}}, {0, 0.5, {}}}, {-0.4, 0.1, 0.5, 0.3, 0.4, 0.0}));
    flame.xforms[1].post = {0.9, 0.1, 0.05, -0.1, 0.9, 0.0};
    flame.xforms[2].opacity = 0.5;
    flame.has_final = true;
    flame.final_xform = xform(0, 0.25, {{0, 0.8, {}}, {1, 0.2, {}}}, {1.1, 0.2, 0, -0.2, 1.1, 0});
    flame.final_xform.opacity = 0.7;
    for (int i = 0; i < 256; ++i) flame.palette[i] = {i / 255.0, 1 - i / 255.0, (i % 7) / 6.0, 1};
    flame.palette_mode = palette_mode;
    return flame;
}

// World [-2, 2]² onto 96×96 cells.
fj::FramePlan test_plan() {
    fj::FramePlan plan;
    plan.width = plan.height = plan.hist_width = plan.hist_height = 96;
    const double world_to_cell[6] = {24, 0, 48, 0, 24, 48};
    for (int i = 0; i < 6; ++i) plan.world_to_cell[i] = world_to_cell[i];
    plan.samples = uint64_t{kLanes} * kPerLane;
    return plan;
}

struct Run {
    fj::IterationStats stats;
    std::vector<uint64_t> call_samples;  // plotted by each iterate call
    std::vector<float> accum;
    std::vector<float> counts;  // flam3's count channel, where the key keeps one
};

// Cells whose four channels are not the same bits in both runs.
size_t differing_cells(const Run& a, const Run& b) {
    size_t differing = 0;
    for (size_t i = 0; i < a.accum.size(); i += 4)
        differing += std::memcmp(&a.accum[i], &b.accum[i], 4 * sizeof(float)) != 0;
    return differing;
}

// The property every case checks: the same samples, bad values and hits.
void check_same_hits(const Run& run, const Run& reference) {
    CHECK(run.stats.samples == reference.stats.samples);
    CHECK(run.stats.bad_values == reference.stats.bad_values);
    REQUIRE(run.accum.size() == reference.accum.size());
    CHECK(differing_cells(run, reference) == 0);
    CHECK(run.counts == reference.counts);
}

// A time step of a frame: the flame at one time, and the samples it adds.
struct Step {
    const fj::Flame* flame;
    uint64_t samples;
};
// One iterate call of a frame (a pass): one or more time steps.
using Call = std::vector<Step>;

// A frame of one or more iterate calls (one structure, so one kernel),
// with flam3's count channel where `density_count`. With one step, the CPU
// backend runs the rounds its call's samples need and then more, all its
// blocks alike, until it has plotted them (the last round passes the count
// by a little); the CUDA backend launches until it has plotted the
// samples asked for, in launches of other lengths. So a CUDA run is asked
// for what the CPU `reference` plotted in each such call (the frame's total,
// which sets the share of fresh chains, stays the steps'): it then stops
// after as many rounds if its kernel plots the same. With several steps,
// both count each block's samples and stop it at the end of its stretch,
// so both are asked for the steps' samples.
Run iterate_frame(fj::Backend& backend, const std::vector<Call>& calls, const fj::KernelOptions& options,
                  bool density_count = false, const Run* reference = nullptr, const fj::ProgressFn& progress = {}) {
    const fj::FramePlan plan = test_plan();
    fj::KernelKey key = fj::make_kernel_key(*calls[0][0].flame, options);
    key.density_count = density_count;
    key.time_steps = calls[0].size() > 1;
    const fj::ParamLayout layout = fj::make_param_layout(key, fj::VariationRegistry::standard());
    uint64_t frame_samples = 0;
    for (const Call& call : calls)
        for (const Step& step : call) frame_samples += step.samples;
    backend.begin_frame(plan);
    Run run;
    for (size_t i = 0; i < calls.size(); ++i) {
        std::vector<std::vector<float>> params;
        for (const Step& step : calls[i])
            params.push_back(fj::pack_kernel_params(*step.flame, key, layout, plan.world_to_cell));
        fj::IterationRequest request{.flame = calls[i][0].flame, .key = &key, .layout = &layout, .plan = &plan,
                                     .frame_samples = frame_samples, .seed = 2026, .progress = progress};
        for (size_t s = 0; s < calls[i].size(); ++s) request.steps.push_back({&params[s], calls[i][s].samples});
        if (reference && calls[i].size() == 1) request.steps[0].samples = reference->call_samples.at(i);
        const fj::IterationStats stats = backend.iterate(request);
        run.call_samples.push_back(stats.samples);
        run.stats.samples += stats.samples;
        run.stats.bad_values += stats.bad_values;
        run.stats.idle_lane_rounds += stats.idle_lane_rounds;
        run.stats.packed_carries += stats.packed_carries;
        run.stats.launches += stats.launches;
        run.stats.stand_in_launches += stats.stand_in_launches;
    }
    if (backend.name() == "cuda") {
        run.accum = fj::cuda_download_accumulator(backend);
        run.counts = fj::cuda_download_counts(backend);
    } else {
        const auto accum = fj::cpu_accumulator(backend);
        const auto counts = fj::cpu_counts(backend);
        run.accum.assign(accum.begin(), accum.end());
        run.counts.assign(counts.begin(), counts.end());
    }
    return run;
}

Run iterate(fj::Backend& backend, const fj::Flame& flame, const fj::KernelOptions& options,
            uint64_t samples = test_plan().samples, bool density_count = false, const Run* reference = nullptr,
            const fj::ProgressFn& progress = {}) {
    return iterate_frame(backend, {{{&flame, samples}}}, options, density_count, reference, progress);
}

// The CPU backend plots what it is asked for and a little more: its whole
// rounds pass the count.
void check_about(uint64_t plotted, uint64_t asked) {
    CHECK(plotted >= asked);
    CHECK(static_cast<double>(plotted) <= 1.1 * static_cast<double>(asked));
}

std::unique_ptr<fj::Backend> emulated_cuda_backend(const std::string& cache_tag,
                                                   unsigned launch_rounds = kPerLane + FJ_FUSE) {
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir(cache_tag);
    options.launch_rounds = launch_rounds;
    options.max_blocks_per_sm = 1;
    return fj::make_cuda_backend(options);
}

// A backend that starts on linked kernels (--kernel auto), its kernel cache
// in a new folder, in launches of 37 rounds, so that a frame takes several.
fj::CudaBackendOptions start_linked_options(const std::string& cache_tag) {
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir(cache_tag);
    options.launch_rounds = 37;
    options.max_blocks_per_sm = 1;
    options.start_linked = true;
    return options;
}

}  // namespace

TEST_CASE("emulated kernels: the generated kernel plots the CPU backend's hits, bit for bit, in any warp order") {
    require_emulator();
    auto cuda = emulated_cuda_backend("emulated-kernels-cache");
    auto cpu = fj::make_cpu_backend({2});
    // Every accumulation mode meets two shuffles and both palette modes. The
    // shared cache holds only part of the cells lit, so both of its paths
    // run; packed words stay far from a carry.
    const fj::Accumulation modes[] = {fj::Accumulation::Atomic, fj::Accumulation::Shared, fj::Accumulation::Warp,
                                      fj::Accumulation::Packed};
    const fj::Shuffle shuffles[] = {fj::Shuffle::Ring, fj::Shuffle::None, fj::Shuffle::Full, fj::Shuffle::Divergent,
                                    fj::Shuffle::Sorted};
    for (int palette = 0; palette < 2; ++palette)
        for (int s = 0; s < 5; ++s) {
            fj::KernelOptions options;
            options.shuffle = shuffles[s];
            options.accumulation = modes[(s + palette) % 4];
            const fj::Flame flame = test_flame(palette ? fj::PaletteMode::Linear : fj::PaletteMode::Step);
            CAPTURE(fj::make_kernel_key(flame, options).canonical());
            // Half the runs keep flam3's count channel beside the hits.
            const bool counts = palette == 1;
            const Run reference = iterate(*cpu, flame, options, test_plan().samples, counts);
            check_about(reference.stats.samples, test_plan().samples);
            CHECK(reference.counts.empty() == !counts);
            size_t lit = 0;
            for (size_t i = 3; i < reference.accum.size(); i += 4) lit += reference.accum[i] > 0;
            CHECK(lit > 1000);
            // A race between barriers (a read before the write it needs, a
            // write before a read of the old value) shows as a difference
            // between lanes run in lockstep and warps run ahead of others.
            for (const std::string schedule : {"lockstep", "run-ahead"}) {
                CAPTURE(schedule);
                const ScopedEnv emulator_schedule("FJ_EMULATOR_SCHEDULE", schedule);
                const Run run = iterate(*cuda, flame, options, test_plan().samples, counts, &reference);
                CHECK(run.stats.packed_carries == 0);
                check_same_hits(run, reference);
            }
        }
}

TEST_CASE("emulated kernels: blocks of 128 and 1024 threads exchange and plot as the CPU backend's do") {
    require_emulator();
    const fj::Flame flame = test_flame(fj::PaletteMode::Step);
    auto cuda = emulated_cuda_backend("emulated-blocks-cache");
    auto cpu = fj::make_cpu_backend({2});
    for (int block : {128, 1024})
        for (fj::Shuffle shuffle : {fj::Shuffle::Ring, fj::Shuffle::Full, fj::Shuffle::Sorted}) {
            fj::KernelOptions options;
            options.block_size = block;
            options.shuffle = shuffle;
            CAPTURE(fj::make_kernel_key(flame, options).canonical());
            // Two blocks again, so kPerLane samples per lane.
            const uint64_t samples = 2ull * block * kPerLane;
            const Run reference = iterate(*cpu, flame, options, samples);
            const Run run = iterate(*cuda, flame, options, samples, false, &reference);
            check_about(reference.stats.samples, samples);
            check_same_hits(run, reference);
        }
}

// A use of variation `name` (registry defaults for its parameters).
fj::VariationUse use(const char* name, double weight, fj::VariationMode mode = fj::VariationMode::Regular) {
    const fj::VariationInfo* info = fj::VariationRegistry::standard().by_name(name);
    REQUIRE_MESSAGE(info, name);
    fj::VariationUse u{info->id, weight, {}, mode};
    for (const fj::ParamInfo& p : info->params) u.params.push_back(p.default_value);
    return u;
}

TEST_CASE("emulated kernels: Fractorium's pre_ and post_ uses plot as the flames they equal, on both backends") {
    REQUIRE(kStandIns);
    using M = fj::VariationMode;
    auto cpu = fj::make_cpu_backend({2});
    const fj::Flame base = test_flame(fj::PaletteMode::Step);
    // Each pair says one thing two ways; scaling by 2 or 1/2 is exact in
    // float, so the hits must be the same bits.
    struct Pair {
        const char* what;
        fj::Flame with, without;
    };
    std::vector<Pair> pairs;
    {
        // pre_linear 0.5 replaces the transformed point by its half.
        Pair p{"pre_linear 0.5 = the affine halved", base, base};
        auto& v = p.with.xforms[0].variations;
        v.insert(v.begin(), use("linear", 0.5, M::Pre));
        fj::AffineD& a = p.without.xforms[0].affine;
        a = {a.a / 2, a.b / 2, a.c / 2, a.d / 2, a.e / 2, a.f / 2};
        pairs.push_back(p);
    }
    {
        // post_linear 2 replaces the sum by its double, before the post affine.
        Pair p{"post_linear 2 = the post affine's linear part doubled", base, base};
        p.with.xforms[1].variations.push_back(use("linear", 2, M::Post));
        fj::AffineD& a = p.without.xforms[1].post;
        a = {2 * a.a, 2 * a.b, a.c, 2 * a.d, 2 * a.e, a.f};
        pairs.push_back(p);
    }
    {
        // With Pre uses and no Regular ones, the transformed point is the sum.
        Pair p{"pre_swirl alone = swirl", base, base};
        p.with.xforms[2].variations = {use("swirl", 1, M::Pre)};
        p.without.xforms[2].variations = {use("swirl", 1)};
        pairs.push_back(p);
    }
    {
        // flatten sums (@assign sum): as pre_ and post_ it passes the point
        // on; replacing it would collapse the xform's points onto 0.
        Pair p{"pre_ and post_ flatten = nothing", base, base};
        auto& v = p.with.final_xform.variations;
        v.insert(v.begin(), use("flatten", 1, M::Pre));
        v.push_back(use("flatten", 1, M::Post));
        pairs.push_back(p);
    }
    {
        // concentric drops the sum of the plain uses before it (id order:
        // linear 0, swirl 3); neither draws, so the streams stay in step.
        Pair p{"linear and swirl, then concentric = concentric alone", base, base};
        p.with.xforms[1].variations = {use("linear", 0.6), use("swirl", 0.3), use("concentric", 0.8)};
        p.without.xforms[1].variations = {use("concentric", 0.8)};
        pairs.push_back(p);
    }
    std::vector<Run> equals;  // each pair's flame without the uses, on the CPU backend
    for (const Pair& p : pairs) {
        const std::string what = p.what;
        CAPTURE(what);
        CHECK(!(fj::make_kernel_key(p.with, {}) == fj::make_kernel_key(p.without, {})));
        equals.push_back(iterate(*cpu, p.without, {}));
        check_same_hits(iterate(*cpu, p.with, {}), equals.back());
    }
    // The generated kernel of each flame with the uses plots those hits too.
    require_emulator();
    auto cuda = emulated_cuda_backend("emulated-modes-cache");
    for (size_t i = 0; i < pairs.size(); ++i) {
        const std::string what = pairs[i].what;
        CAPTURE(what);
        check_same_hits(iterate(*cuda, pairs[i].with, {}, test_plan().samples, false, &equals[i]), equals[i]);
    }

    // Every kind in one flame, random ones among them (blur, sineblur and
    // flam3's pre_blur draw): the generated kernel applies them in the CPU
    // backend's order, with its draws.
    fj::Flame mixed = base;
    mixed.xforms[0].variations = {use("swirl", 0.8, M::Pre), use("blur", 0.05, M::Pre), use("linear", 0.7),
                                  use("pre_blur", 0.02), use("sinusoidal", 0.3), use("sineblur", 0.1, M::Post),
                                  use("spherical", 0.9, M::Post)};
    mixed.xforms[2].variations = {use("julia", 1, M::Pre), use("horseshoe", 0.5, M::Post)};
    mixed.xforms[1].variations = {use("linear", 0.6), use("concentric", 0.8), use("rblur", 0.3)};
    CAPTURE(fj::make_kernel_key(mixed, {}).canonical());
    const Run reference = iterate(*cpu, mixed, {});
    check_same_hits(iterate(*cuda, mixed, {}, test_plan().samples, false, &reference), reference);
}

// Every place a use can change the colour index (Regular, Pre, Post, the
// final xform), random ones among them, one that reads the sum before it,
// and var_color kept whole, halved and dropped.
fj::Flame direct_colour_flame() {
    using M = fj::VariationMode;
    fj::Flame flame = test_flame(fj::PaletteMode::Linear);
    fj::VariationUse falloff = use("falloff2", 0.4, M::Post);
    falloff.params[0] = 5;    // scatter
    falloff.params[1] = 0.1;  // mindist
    falloff.params[5] = 1;    // mul_c
    flame.xforms[0].variations = {use("linear", 0.6), use("dc_gridout", 0.3), use("dc_linear", 0.2), falloff};
    flame.xforms[0].direct_color = 0.5;
    flame.xforms[1].variations.insert(flame.xforms[1].variations.begin(), use("dc_carpet", 0.9, M::Pre));
    flame.xforms[2].variations.push_back(use("dc_triangle", 0.4));
    flame.xforms[2].direct_color = 0;
    flame.final_xform.variations.push_back(use("dc_gridout", 0.2));
    return flame;
}

TEST_CASE("emulated kernels: direct-colour variations colour the hits as on the CPU backend, by var_color") {
    require_emulator();
    const fj::Flame flame = direct_colour_flame();
    auto cuda = emulated_cuda_backend("emulated-direct-colour-cache");
    auto cpu = fj::make_cpu_backend({2});
    CAPTURE(fj::make_kernel_key(flame, {}).canonical());
    const Run reference = iterate(*cpu, flame, {});
    check_same_hits(iterate(*cuda, flame, {}, test_plan().samples, false, &reference), reference);
    // The colour changes show: without var_color the hits' colours differ.
    fj::Flame dropped = flame;
    for (fj::Xform& xf : dropped.xforms) xf.direct_color = 0;
    dropped.final_xform.direct_color = 0;
    CHECK(differing_cells(iterate(*cpu, dropped, {}), reference) > 100);
}

TEST_CASE("emulated kernels: the switch kernel (--kernel switch) plots the specialized kernel's hits") {
    require_emulator();
    using M = fj::VariationMode;
    // pre_ and post_ uses that replace and that add, flam3's pre_blur, a
    // final xform, direct colour, parameters: everything the switch kernel
    // reads from its records instead of having it compiled in.
    fj::Flame flame = direct_colour_flame();
    flame.xforms[2].variations = {use("swirl", 0.8, M::Pre), use("blur", 0.05, M::Pre), use("julia", 0.7),
                                  use("pre_blur", 0.02), use("dc_triangle", 0.4), use("sineblur", 0.1, M::Post),
                                  use("spherical", 0.9, M::Post)};
    flame.xforms[1].variations = {use("linear", 0.6), use("concentric", 0.8), use("rblur", 0.3)};
    fj::KernelOptions generic;
    generic.form = fj::KernelForm::Switch;
    auto cuda = emulated_cuda_backend("emulated-switch-cache");
    auto cpu = fj::make_cpu_backend({2});
    CAPTURE(fj::make_kernel_key(flame, generic).canonical());
    const Run reference = iterate(*cpu, flame, {});
    check_same_hits(iterate(*cuda, flame, generic, test_plan().samples, false, &reference), reference);
    // The CPU backend runs specialized code only, and says so.
    CHECK_THROWS_AS(iterate(*cpu, flame, generic), fj::InputError);
}

// The emulated CUDA kernel of `flame` compiled with the NVRTC options of a
// code shape (`options`) against the CPU backend's hits.
void check_shape_plots_cpu_hits(const fj::Flame& flame, const char* options, const std::string& cache) {
    auto cuda = emulated_cuda_backend(cache);
    auto cpu = fj::make_cpu_backend({2});
    CAPTURE(fj::make_kernel_key(flame, {}).canonical());
    const Run reference = iterate(*cpu, flame, {});
    const ScopedEnv shape("FLAMEJIT_NVRTC_OPTIONS", options);
    const Run run = iterate(*cuda, flame, {}, test_plan().samples, false, &reference);
    check_same_hits(run, reference);
}

// Xforms whose functions a kernel may call rather than inline: pre_ and
// post_ uses, direct colour, parameters, random numbers, and a final xform.
fj::Flame called_xforms_flame() {
    using M = fj::VariationMode;
    fj::Flame flame = direct_colour_flame();
    flame.xforms[0].variations = {use("polar", 0.5), use("julian", 0.4), use("dc_linear", 0.2)};
    flame.xforms[2].variations = {use("swirl", 0.8, M::Pre), use("julia", 0.7), use("dc_triangle", 0.4),
                                  use("spherical", 0.9, M::Post)};
    return flame;
}

TEST_CASE("emulated kernels: the shared prologue (-DFJ_SHARED_PROLOGUE) plots the CPU backend's hits, bit for bit") {
    require_emulator();
    using M = fj::VariationMode;
    // Xforms that take the point and VarIn from the prologue, reading
    // different fields (radius, both angles, the ratios, `in` whole, none),
    // beside one whose pre_ uses change the point first (it makes its own),
    // direct colour and the final xform.
    fj::Flame flame = direct_colour_flame();
    flame.xforms[0].variations = {use("polar", 0.5), use("julian", 0.4), use("edisc", 0.1), use("dc_linear", 0.2)};
    flame.xforms[1].variations = {use("linear", 0.6), use("ex", 0.3), use("hyperbolic", 0.1), use("spherical", 0.2)};
    flame.xforms[2].variations = {use("swirl", 0.8, M::Pre), use("julia", 0.7), use("dc_triangle", 0.4),
                                  use("spherical", 0.9, M::Post)};
    check_shape_plots_cpu_hits(flame, "-DFJ_SHARED_PROLOGUE", "emulated-shared-prologue-cache");
}

TEST_CASE("emulated kernels: xforms as calls (-DFJ_XFORM_CALLS) plot the CPU backend's hits, bit for bit") {
    require_emulator();
    // Each xform's function called with the point, colour and random state
    // by value and handing them back (the final xform inlined as before).
    check_shape_plots_cpu_hits(called_xforms_flame(), "-DFJ_XFORM_CALLS", "emulated-xform-calls-cache");
}

TEST_CASE("emulated kernels: a linked kernel (--kernel linked) plots the CPU backend's hits, bit for bit") {
    require_emulator();
    // Each xform, the final one too, a program of its own, called through
    // its function; then a motion-blurred frame (a kernel with time steps,
    // whose xforms have another register bound).
    const fj::Flame flame = called_xforms_flame();
    fj::KernelOptions linked;
    linked.form = fj::KernelForm::Linked;
    auto cuda = emulated_cuda_backend("emulated-linked-cache");
    auto cpu = fj::make_cpu_backend({2});
    CAPTURE(fj::make_kernel_key(flame, linked).canonical());
    const Run reference = iterate(*cpu, flame, {});
    check_same_hits(iterate(*cuda, flame, linked, test_plan().samples, false, &reference), reference);
    // Under a looser register bound (--linked-registers 64), the same hits.
    fj::KernelOptions wide = linked;
    wide.linked_registers = 64;
    check_same_hits(iterate(*cuda, flame, wide, test_plan().samples, false, &reference), reference);

    fj::Flame later = flame;
    later.xforms[0].affine.c += 0.05;
    const std::vector<Call> calls = {{{&flame, test_plan().samples}, {&later, test_plan().samples / 3}}};
    const Run steps_reference = iterate_frame(*cpu, calls, {});
    check_same_hits(iterate_frame(*cuda, calls, linked, false, &steps_reference), steps_reference);
}

TEST_CASE("emulated kernels: starting linked (--kernel auto), a frame moves to the specialized kernel between launches and plots the CPU backend's hits, bit for bit") {
    require_emulator();
    const fj::Flame flame = direct_colour_flame();
    auto cpu = fj::make_cpu_backend({2});
    CAPTURE(fj::make_kernel_key(flame, {}).canonical());
    const Run reference = iterate(*cpu, flame, {});
    // After the first launch (on the linked kernel, since the specialized
    // one is not cached), the progress report waits for the background
    // compile, so the second launch finds it ready.
    fj::CudaBackendOptions options = start_linked_options("emulated-start-linked-cache");
    {
        auto cuda = fj::make_cuda_backend(options);
        bool waited = false;
        const auto wait_once = [&](double) {
            if (waited) return;
            fj::cuda_wait_for_compiles(*cuda);
            waited = true;
        };
        const Run run = iterate(*cuda, flame, {}, test_plan().samples, false, &reference, wait_once);
        check_same_hits(run, reference);
        CHECK(run.stats.stand_in_launches == 1);
        CHECK(run.stats.launches > 2);
    }
    // The specialized kernel is in the cache now: a new backend (another
    // process) starts on it.
    auto cuda = fj::make_cuda_backend(options);
    const Run cached = iterate(*cuda, flame, {}, test_plan().samples, false, &reference);
    check_same_hits(cached, reference);
    CHECK(cached.stats.stand_in_launches == 0);
    // A kernel compiled ahead of its frame (the next flame's, an animation's
    // coming structure) is compiled as itself: no stand-in, and no linked
    // kernel in the cache beside it.
    options.cache_dir = fj::test::scratch_dir("emulated-start-linked-ahead-cache");
    auto ahead = fj::make_cuda_backend(options);
    const fj::KernelKey key = fj::make_kernel_key(flame, {});
    ahead->prepare_ahead(key, fj::make_param_layout(key, fj::VariationRegistry::standard()));
    const Run prepared = iterate(*ahead, flame, {}, test_plan().samples, false, &reference);
    check_same_hits(prepared, reference);
    CHECK(prepared.stats.stand_in_launches == 0);
    size_t kernel_files = 0;
    for (const auto& entry : std::filesystem::directory_iterator(options.cache_dir))
        kernel_files += entry.path().extension() == ".fjk";
    CHECK(kernel_files == 1);
}

TEST_CASE("emulated kernels: starting linked, a specialized kernel that fails to compile fails the frame after the stand-in's launch, its source and log kept") {
    require_emulator();
    const fj::Flame flame = direct_colour_flame();
    auto cuda = fj::make_cuda_backend(start_linked_options("emulated-start-linked-failure-cache"));
    // The stand-in NVRTC refuses the specialized kernel's program (its
    // banner, stitcher.cpp) and compiles the linked stand-in's.
    const ScopedEnv refuse("FJ_STAND_IN_REFUSE", "Generated by flamejit for kernel key:");
    // A launch on the stand-in reports progress; the failure comes after it.
    bool launched = false;
    const auto wait = [&](double) {
        launched = true;
        fj::cuda_wait_for_compiles(*cuda);
    };
    bool thrown = false;
    try {
        iterate(*cuda, flame, {}, test_plan().samples, false, nullptr, wait);
    } catch (const fj::KernelCompileError& e) {
        thrown = true;
        CHECK(std::string(e.what()).find("refused by FJ_STAND_IN_REFUSE") != std::string::npos);
        CHECK(fj::test::read_file(e.source_path()).rfind("// Generated by flamejit for kernel key:", 0) == 0);
        CHECK(fj::test::read_file(e.log_path()).find("refused") != std::string::npos);
    }
    CHECK(launched);
    CHECK(thrown);
}

TEST_CASE("emulated kernels: launches of a few rounds each continue the chains of one long launch") {
    require_emulator();
    // The pool's points and streams, and the exchanges' round numbers, carry
    // over from launch to launch: 37 rounds at a time (none past what the
    // samples still need) plot what launches of 315 rounds plot.
    const fj::Flame flame = test_flame(fj::PaletteMode::Linear);
    auto whole = emulated_cuda_backend("emulated-launches-cache");
    auto pieces = emulated_cuda_backend("emulated-launches-cache", 37);
    for (fj::Shuffle shuffle : {fj::Shuffle::Ring, fj::Shuffle::Full, fj::Shuffle::Sorted}) {
        fj::KernelOptions options;
        options.shuffle = shuffle;
        CAPTURE(fj::make_kernel_key(flame, options).canonical());
        const Run reference = iterate(*whole, flame, options);
        const Run run = iterate(*pieces, flame, options);
        check_same_hits(run, reference);
        // Pieces they are: more launches than the long ones took.
        CHECK(run.stats.launches > reference.stats.launches);
    }
}

TEST_CASE("emulated kernels: a frame's time steps and later calls continue its chains as the CPU backend's do") {
    require_emulator();
    // A motion-blurred frame of two passes, two time steps each: one kernel,
    // a parameter block per step. In each call every block plots its
    // stretch of the steps and stops; in the second, every block moves to
    // a step of other parameters, so its points run a fuse first. Later
    // calls add no fuse but where a chain ends or a block moves, and the
    // frame's share of fresh chains comes from all the calls' samples.
    fj::Flame first = test_flame(fj::PaletteMode::Linear), second = first, third = first, fourth = first;
    second.xforms[0].affine.c += 0.05;
    third.xforms[0].affine.c += 0.1;
    third.final_xform.affine.a *= 0.95;
    fourth.xforms[1].affine.f -= 0.1;
    // Uneven steps: the blocks' stretches and the steps' ends do not meet.
    const uint64_t later = kLanes * 3145ull / 10;
    const std::vector<Call> calls = {{{&first, test_plan().samples}, {&second, later}},
                                     {{&third, later}, {&fourth, test_plan().samples / 3}}};
    auto cpu = fj::make_cpu_backend({2});
    auto cuda = emulated_cuda_backend("emulated-steps-cache");
    for (fj::Shuffle shuffle : {fj::Shuffle::Ring, fj::Shuffle::Divergent, fj::Shuffle::Sorted}) {
        fj::KernelOptions options;
        options.shuffle = shuffle;
        CAPTURE(fj::make_kernel_key(first, options).canonical());
        const Run reference = iterate_frame(*cpu, calls, options);
        for (size_t i = 0; i < calls.size(); ++i) {
            CAPTURE(i);
            uint64_t asked = 0;
            for (const Step& step : calls[i]) asked += step.samples;
            // Each block stops within the round that ends its stretch.
            CHECK(reference.call_samples[i] >= asked);
            CHECK(reference.call_samples[i] < asked + kLanes);
        }
        // The block's count of its samples, read by all its lanes, is
        // race-free only if every schedule plots the same.
        for (const std::string schedule : {"lockstep", "run-ahead"}) {
            CAPTURE(schedule);
            const ScopedEnv emulator_schedule("FJ_EMULATOR_SCHEDULE", schedule);
            const Run run = iterate_frame(*cuda, calls, options, false, &reference);
            CHECK(run.call_samples == reference.call_samples);
            check_same_hits(run, reference);
        }
    }
}

TEST_CASE("emulated kernels: the benchmarks' atomic ceiling adds each unit hit once, in every accumulation mode") {
    require_emulator();
    const fj::Flame flame = test_flame(fj::PaletteMode::Step);
    const fj::FramePlan plan = test_plan();
    auto cuda = emulated_cuda_backend("emulated-ceiling-cache");
    for (fj::Accumulation mode : {fj::Accumulation::Atomic, fj::Accumulation::Scalar, fj::Accumulation::Warp,
                                  fj::Accumulation::Shared, fj::Accumulation::Packed}) {
        fj::KernelOptions options;
        options.accumulation = mode;
        fj::KernelKey key = fj::make_kernel_key(flame, options);
        key.atomic_ceiling = true;
        CAPTURE(key.canonical());
        const fj::ParamLayout layout = fj::make_param_layout(key, fj::VariationRegistry::standard());
        const fj::IterationRequest request{.flame = &flame, .key = &key, .layout = &layout, .plan = &plan, .seed = 11};
        cuda->begin_frame(plan);
        // kLanes threads, 100 rounds each, launched twice (a warm-up and the timed launch).
        CHECK(fj::cuda_atomic_ceiling(*cuda, request, kLanes * 100ull) > 0);
        const std::vector<float> accum = fj::cuda_download_accumulator(*cuda);
        double sums[4] = {0, 0, 0, 0};
        for (size_t i = 0; i < accum.size(); ++i) sums[i % 4] += accum[i];
        for (double sum : sums) CHECK(sum == 2.0 * kLanes * 100);
        // With a list of cells (a genome's hit sample), every hit goes to a
        // listed cell, each about as often as it is listed.
        cuda->begin_frame(plan);
        const std::vector<uint32_t> listed = {5, 9, 5, 17};
        CHECK(fj::cuda_atomic_ceiling(*cuda, request, kLanes * 100ull, listed) > 0);
        const std::vector<float> hits = fj::cuda_download_accumulator(*cuda);
        for (size_t cell = 0; cell < hits.size() / 4; ++cell) {
            CAPTURE(cell);
            const double expected = cell == 5 ? 1.0 : cell == 9 || cell == 17 ? 0.5 : 0.0;
            CHECK(hits[4 * cell + 3] == doctest::Approx(expected * kLanes * 100).epsilon(0.01));
        }
    }
}

TEST_CASE("emulated kernels: under xaos the kernel proposes, accepts and plots as the CPU backend does") {
    require_emulator();
    fj::Flame flame = test_flame(fj::PaletteMode::Step);
    flame.xforms[0].chaos = {1, 0.5, 0};
    flame.xforms[2].chaos = {0.2, 1, 1};
    for (fj::Shuffle shuffle : {fj::Shuffle::Ring, fj::Shuffle::Divergent, fj::Shuffle::Sorted}) {
        fj::KernelOptions options;
        options.shuffle = shuffle;
        CAPTURE(fj::make_kernel_key(flame, options).canonical());
        auto cpu = fj::make_cpu_backend({2});
        const Run reference = iterate(*cpu, flame, options);
        // The CPU backend runs its rounds in one go, stretched for the lanes
        // that stay put under warp-uniform proposals; the CUDA backend
        // launches as many at once.
        const bool own = fj::selects_per_thread(shuffle);
        const double lazy = own ? 1.0 : fj::xaos_proposal_mass(flame);
        const float fresh = fj::fresh_chain_fraction(float(kPerLane));
        const auto rounds =
            static_cast<unsigned>(std::ceil(fj::fresh_lane_rounds(float(kPerLane), fresh, FJ_FUSE) * lazy));
        auto cuda = emulated_cuda_backend("emulated-xaos-cache", rounds);
        const Run run = iterate(*cuda, flame, options, test_plan().samples, false, &reference);
        if (own) CHECK(reference.stats.idle_lane_rounds == 0);
        else CHECK(reference.stats.idle_lane_rounds > 0);
        CHECK(run.stats.idle_lane_rounds == reference.stats.idle_lane_rounds);
        check_same_hits(run, reference);
    }
}

TEST_CASE("emulated kernels: a warp intrinsic whose mask names an exited lane fails the launch") {
    require_emulator();
    // Lanes 16..31 return before the shuffle that names all 32: undefined
    // on a GPU, where it may hang or read garbage; the emulator refuses it.
    const std::string source = R"(
extern "C" __global__ void broken(float* out) {
    if (threadIdx.x >= 16) return;
    out[threadIdx.x] = __shfl_sync(0xffffffffu, 1.0f, 0);
}
extern "C" __global__ void fine(float* out) {
    float v = __shfl_sync(0xffffffffu, (float)threadIdx.x, 5);
    __syncthreads();
    if (threadIdx.x < 16) v += __shfl_sync(0x0000ffffu, 1.0f, 3);
    out[blockIdx.x * 32 + threadIdx.x] = v;
}
)";
    fj::CompileRequest request;
    request.source = source;
    request.name = "emulator-check.cu";
    request.entry = "fine";
    const fj::CompiledKernel kernel =
        fj::compile_kernel(request, "emulator-check", fj::test::scratch_dir("emulated-failed"));
    REQUIRE(!kernel.cubin.empty());
    CUdevice device;
    CUcontext context;
    CU_CHECK(cuInit(0));
    CU_CHECK(cuDeviceGet(&device, 0));
    CU_CHECK(cuDevicePrimaryCtxRetain(&context, device));
    CU_CHECK(cuCtxSetCurrent(context));
    CUmodule module;
    CU_CHECK(cuModuleLoadData(&module, kernel.cubin.data()));
    CUdeviceptr out;
    CU_CHECK(cuMemAlloc(&out, 64 * sizeof(float)));
    void* args[] = {&out};
    CUfunction fine, broken;
    CU_CHECK(cuModuleGetFunction(&fine, module, "fine"));
    CU_CHECK(cuModuleGetFunction(&broken, module, "broken"));
    CU_CHECK(cuLaunchKernel(fine, 2, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr));
    std::vector<float> host(64);
    CU_CHECK(cuMemcpyDtoHAsync(host.data(), out, 64 * sizeof(float), nullptr));
    for (int i = 0; i < 64; ++i) CHECK(host[i] == (i % 32 < 16 ? 6.0f : 5.0f));
    CHECK(fj::cuda_driver().cuLaunchKernel(broken, 1, 1, 1, 32, 1, 1, 0, nullptr, args, nullptr) ==
          CUDA_ERROR_LAUNCH_FAILED);
    CU_CHECK(cuMemFree(out));
    CU_CHECK(cuModuleUnload(module));
    CU_CHECK(cuDevicePrimaryCtxRelease(device));
}
