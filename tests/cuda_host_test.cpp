// flamejit — the CUDA backend's host side on a stand-in driver, without a GPU.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The process loads tests/stand_in_driver.cpp as its CUDA driver
// (FLAMEJIT_LIBCUDA_PATH, set before the driver is first loaded): one device,
// host memory, kernels that do nothing. What runs is flamejit's own code:
// the context made on a thread of its own, prepare compiling meanwhile with
// the real NVRTC, module loading, the launch loop and its stall guard, and
// how failures reach the caller. Results of kernels are the job of the GPU
// suites and, on the host, of the emulated ones (emulated_kernels_test).
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/variation_registry.h"
#include "cuda/cuda_backend.h"
#include "cuda/driver_api.h"
#include "cuda/kernel_cache.h"
#include "cuda/kernel_modules.h"
#include "cuda/nvrtc_api.h"
#include "errors.h"
#include "pipeline/compile_ahead.h"
#include "pipeline/renderer.h"
#include "test_support.h"

using fj::test::ScopedEnv;

namespace {

// Before any test runs, so before the driver is loaded (once per process).
// $FJ_STAND_IN_DRIVER, where set (a bundle's env.sh), else the build's.
const bool kStandIn = [] {
    setenv("FLAMEJIT_LIBCUDA_PATH", fj::test::path_from_env("FJ_STAND_IN_DRIVER", FJ_STAND_IN_DRIVER).c_str(), 1);
    return true;
}();

// A Renderer, and flamejit run as a command, open the kernel cache in
// FLAMEJIT_CACHE_DIR, else in the user's own cache folder: a scratch one
// for the scope keeps the user's untouched.
ScopedEnv scratch_cache_dir() { return ScopedEnv("FLAMEJIT_CACHE_DIR", fj::test::scratch_dir("stand-in-cache")); }

// The stand-in driver's record of module loads and launches
// (FJ_STAND_IN_LOG), kept for one scope.
class DriverLog {
public:
    DriverLog() : path_(fj::test::scratch_dir("stand-in-driver-log") + "/driver.log"), env_("FJ_STAND_IN_LOG", path_) {}
    // Where the record stands now, to read what came after it.
    size_t mark() const { return lines().size(); }
    int loads() const {
        int n = 0;
        for (const std::string& line : lines()) n += line.rfind("load ", 0) == 0;
        return n;
    }
    // The modules of the launches since `from` (numbered in the process's
    // order of loading).
    std::set<int> launched_modules(size_t from) const {
        const std::vector<std::string> all = lines();
        std::set<int> modules;
        for (size_t i = from; i < all.size(); ++i)
            if (all[i].rfind("launch ", 0) == 0) modules.insert(std::atoi(all[i].c_str() + 7));
        return modules;
    }

private:
    std::vector<std::string> lines() const {
        std::vector<std::string> out;
        std::ifstream in(path_);
        for (std::string line; std::getline(in, line);) out.push_back(line);
        return out;
    }
    std::string path_;
    ScopedEnv env_;
};

struct Frame {
    fj::Flame flame;
    fj::KernelKey key;
    fj::ParamLayout layout;
    std::vector<float> params;
    fj::FramePlan plan;

    explicit Frame(const fj::KernelOptions& options = {}, bool density_count = false) {
        fj::Xform xf;
        xf.weight = 1;
        xf.variations.push_back({0, 1.0, {}});
        flame.xforms.push_back(xf);
        key = fj::make_kernel_key(flame, options);
        key.density_count = density_count;
        layout = fj::make_param_layout(key, fj::VariationRegistry::standard());
        plan.width = plan.height = plan.hist_width = plan.hist_height = 32;
        const double world_to_cell[6] = {8, 0, 16, 0, 8, 16};
        for (int i = 0; i < 6; ++i) plan.world_to_cell[i] = world_to_cell[i];
        plan.samples = 1000;
        params = fj::pack_params(flame, key, layout, plan.world_to_cell);
    }

    fj::IterationRequest request() const {
        fj::IterationRequest r;
        r.flame = &flame;
        r.key = &key;
        r.layout = &layout;
        r.plan = &plan;
        r.steps = {{&params, plan.samples}};
        r.seed = 3;
        return r;
    }
};

}  // namespace

TEST_CASE("cuda host: the stand-in driver is the one loaded") {
    REQUIRE(kStandIn);
    std::string why;
    REQUIRE_MESSAGE(fj::cuda_device_available(&why), why);
    const fj::CudaSystemInfo info = fj::describe_devices();
    REQUIRE(info.devices.size() == 1);
    CHECK(info.devices[0].name == "flamejit stand-in device");
}

TEST_CASE("cuda host: the first kernel compiles while the device's context is being made") {
    if (!fj::test::nvrtc_present()) return;
    // The stand-in makes the context only once the cache holds a kernel: a
    // backend that waited for its context before compiling would never get
    // one (the stand-in gives up after 60 s with CUDA_ERROR_TIMEOUT).
    const std::string cache = fj::test::scratch_dir("stand-in-cache");
    const ScopedEnv mode("FJ_STAND_IN_CONTEXT", "wait:" + cache);
    const DriverLog driver;
    fj::CudaBackendOptions options;
    options.cache_dir = cache;
    options.launch_rounds = 4;
    auto backend = fj::make_cuda_backend(options);
    const Frame frame;
    backend->prepare(frame.key, frame.layout);
    backend->begin_frame(frame.plan);
    const fj::IterationStats stats = backend->iterate(frame.request());
    CHECK(driver.loads() == 1);
    const std::set<int> first_modules = driver.launched_modules(0);
    CHECK(first_modules.size() == 1);
    const size_t second_frame = driver.mark();
    // Stand-in kernels plot nothing: the launch loop ends on its stall guard.
    CHECK(stats.samples == 0);
    CHECK(stats.registers > 0);
    // The stand-in's occupancy is 4 blocks per SM on 2 SMs; a frame of 1000
    // samples gets the fewest, 512 threads per SM.
    CHECK(stats.blocks_per_sm == 2);
    CHECK(stats.threads == 2u * 2u * 256u);
    // A second frame of the same structure runs the kernel already loaded.
    backend->prepare(frame.key, frame.layout);
    backend->begin_frame(frame.plan);
    CHECK(backend->iterate(frame.request()).threads == stats.threads);
    CHECK(driver.loads() == 1);
    CHECK(driver.launched_modules(second_frame) == first_modules);
}

TEST_CASE("cuda host: a frame's grid gives each lane some 3000 samples, within 512 threads per SM and the occupancy") {
    if (!fj::test::nvrtc_present()) return;
    const std::string cache = fj::test::scratch_dir("stand-in-cache");
    const auto blocks_per_sm = [&](uint64_t samples, int fixed) {
        fj::CudaBackendOptions options;
        options.cache_dir = cache;
        options.launch_rounds = 700;  // two launches to the stall guard
        options.max_blocks_per_sm = fixed;
        auto backend = fj::make_cuda_backend(options);
        Frame frame;
        frame.plan.samples = samples;
        backend->begin_frame(frame.plan);
        const fj::IterationStats stats = backend->iterate(frame.request());
        CHECK(stats.threads == static_cast<uint64_t>(stats.blocks_per_sm) * 2u * 256u);
        return stats.blocks_per_sm;
    };
    // 2 SMs, 256 threads a block, at most 4 resident (the stand-in).
    CHECK(blocks_per_sm(1000, 0) == 2);
    CHECK(blocks_per_sm(2ull * 3000 * 768, 0) == 3);
    CHECK(blocks_per_sm(2ull * 3000 * 1024, 0) == 4);
    CHECK(blocks_per_sm(1ull << 40, 0) == 4);
    // --blocks-per-sm: that many, whatever the samples.
    CHECK(blocks_per_sm(1000, 3) == 3);
    CHECK(blocks_per_sm(1ull << 40, 1) == 1);
}

TEST_CASE("cuda host: every accumulation mode and shuffle takes its host path") {
    if (!fj::test::nvrtc_present()) return;
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("stand-in-cache");
    auto backend = fj::make_cuda_backend(options);
    struct Case {
        fj::Accumulation accumulation;
        fj::Shuffle shuffle;
        bool density_count;
    };
    const Case cases[] = {{fj::Accumulation::Atomic, fj::Shuffle::Ring, false},
                          {fj::Accumulation::Scalar, fj::Shuffle::Full, true},
                          {fj::Accumulation::Warp, fj::Shuffle::None, false},
                          {fj::Accumulation::Shared, fj::Shuffle::Divergent, false},
                          {fj::Accumulation::Packed, fj::Shuffle::Ring, true},
                          {fj::Accumulation::Atomic, fj::Shuffle::Sorted, false}};
    for (const Case& c : cases) {
        fj::KernelOptions kernel;
        kernel.accumulation = c.accumulation;
        kernel.shuffle = c.shuffle;
        const Frame frame(kernel, c.density_count);
        CAPTURE(frame.key.canonical());
        backend->begin_frame(frame.plan);
        // Launches sized as they run (no fixed rounds), until the stall guard.
        const fj::IterationStats stats = backend->iterate(frame.request());
        CHECK(stats.samples == 0);
        CHECK(stats.threads == 2u * 2u * 256u);
        // The shared cache takes what 4 resident blocks leave of the SM's
        // 228 KiB, less 1 KiB reserved per block: 55 KiB, room for 2816
        // slots of 20 bytes, so 2048 (a power of two).
        CHECK(stats.cache_slots == (c.accumulation == fj::Accumulation::Shared ? 2048u : 0u));
        // The accumulator comes back whole (packed: after its flush).
        const std::vector<float> accum = fj::cuda_download_accumulator(*backend);
        CHECK(accum.size() == 4u * 32u * 32u);
        CHECK(std::count(accum.begin(), accum.end(), 0.0f) == static_cast<long>(accum.size()));
    }
}

TEST_CASE("cuda host: a kernel prepared on another thread while a frame renders is the one then used") {
    if (!fj::test::nvrtc_present()) return;
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("stand-in-cache");
    options.launch_rounds = 4;
    const DriverLog driver;
    auto backend = fj::make_cuda_backend(options);
    const Frame first;
    fj::KernelOptions other;
    other.accumulation = fj::Accumulation::Warp;
    const Frame second(other);
    REQUIRE(first.key.canonical() != second.key.canonical());
    std::thread preparing([&] { backend->prepare(second.key, second.layout); });
    backend->begin_frame(first.plan);
    const fj::IterationStats one = backend->iterate(first.request());
    preparing.join();
    // prepare compiles; the rendering thread loads a kernel where a frame
    // first needs it: the second frame loads and launches another module
    // than the first's.
    CHECK(driver.loads() == 1);
    const std::set<int> first_modules = driver.launched_modules(0);
    const size_t second_frame = driver.mark();
    backend->begin_frame(second.plan);
    const fj::IterationStats two = backend->iterate(second.request());
    CHECK(driver.loads() == 2);
    const std::set<int> second_modules = driver.launched_modules(second_frame);
    CHECK(first_modules.size() == 1);
    CHECK(second_modules.size() == 1);
    CHECK(first_modules != second_modules);
    CHECK(one.threads == two.threads);
    // Both kernels are in the cache folder: each compiled once.
    CHECK(fj::KernelCache(options.cache_dir, 0).disk_usage().files == 2);
}

TEST_CASE("cuda host: backends given one kernel cache compile into it") {
    if (!fj::test::nvrtc_present()) return;
    // A folder that cannot be made: the cache holds kernels in memory only,
    // so what find sees there, a backend put in that very object.
    const std::string dir = fj::test::scratch_dir("stand-in-shared-cache");
    fj::test::write_file(dir + "/not-a-folder", "x");
    auto cache = std::make_shared<fj::KernelCache>(dir + "/not-a-folder/cache");
    REQUIRE_FALSE(cache->disk_enabled());
    fj::CudaBackendOptions options;
    options.kernel_cache = cache;
    options.launch_rounds = 4;
    auto first = fj::make_cuda_backend(options);
    auto second = fj::make_cuda_backend(options);
    const Frame frame;  // for sm_90, the stand-in device's arch
    const fj::CompileRequest request = fj::kernel_request(frame.key, frame.layout);
    CHECK_FALSE(cache->find(request).has_value());
    first->prepare(frame.key, frame.layout);
    CHECK(cache->find(request).has_value());
    // The other runs the frame with it.
    second->begin_frame(frame.plan);
    CHECK(second->iterate(frame.request()).registers > 0);
}

TEST_CASE("cuda host: a batch of stills compiles its kernels ahead, each key once, passing over a flame that fails") {
    if (!fj::test::nvrtc_present()) return;
    const std::string cache = fj::test::scratch_dir("stand-in-cache");
    {
        const ScopedEnv cache_dir("FLAMEJIT_CACHE_DIR", cache);
        fj::RenderOptions options;
        fj::Renderer renderer(options);
        REQUIRE(renderer.backend_name() == "cuda");
        const Frame frame;
        fj::Flame broken = frame.flame;
        broken.xforms.clear();  // no xform: render() would refuse it; compiling ahead passes it over
        fj::Flame two = frame.flame;
        two.xforms.push_back(two.xforms[0]);  // another structure
        const std::vector<const fj::Flame*> stills = {&frame.flame, &broken, &frame.flame, &two, &two};
        fj::CompileAhead ahead(renderer, stills, renderer.frame_options(), 3);
        ahead.wait();
        CHECK(ahead.kernels() == 2);
        CHECK(renderer.kernels_compiled() == 2);
        // Another renderer (another process, as far as the cache goes) finds them.
        fj::Renderer second(options);
        fj::CompileAhead again(second, stills, second.frame_options(), 3);
        again.wait();
        CHECK(again.kernels() == 2);
        CHECK(second.kernels_compiled() == 0);
        // A renderer on the CPU compiles nothing.
        options.backend = fj::BackendChoice::Cpu;
        fj::Renderer cpu(options);
        fj::CompileAhead none(cpu, stills, cpu.frame_options(), 2);
        none.wait();
        CHECK(none.kernels() == 0);
    }
    CHECK(fj::KernelCache(cache, 0).disk_usage().files == 2);
}

TEST_CASE("cuda host: a context that cannot be made fails every call that needs it, with the driver's reason") {
    if (!fj::test::nvrtc_present()) return;
    const ScopedEnv mode("FJ_STAND_IN_CONTEXT", "fail");
    fj::CudaBackendOptions options;
    options.cache_dir = fj::test::scratch_dir("stand-in-cache");
    auto backend = fj::make_cuda_backend(options);
    const Frame frame;
    // Compiling needs no context.
    CHECK_NOTHROW(backend->prepare(frame.key, frame.layout));
    std::string first;
    try {
        backend->begin_frame(frame.plan);
    } catch (const fj::CudaError& e) {
        first = e.what();
        CHECK(e.result() == CUDA_ERROR_OUT_OF_MEMORY);
    }
    CHECK(first.find("cuDevicePrimaryCtxRetain") != std::string::npos);
    CHECK(first.find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos);
    // Later calls get the same reason, not a null context.
    std::string second;
    try {
        backend->begin_frame(frame.plan);
    } catch (const std::runtime_error& e) {
        second = e.what();
    }
    CHECK(second == first);
    CHECK_THROWS_AS(backend->iterate(frame.request()), std::runtime_error);
    backend.reset();  // nothing to release, nothing to wait for
}

TEST_CASE("cuda host: a device number that does not exist is an input error") {
    fj::CudaBackendOptions options;
    options.device = 1;
    CHECK_THROWS_AS(fj::make_cuda_backend(options), fj::InputError);
}

TEST_CASE("cuda host: auto picks the CUDA backend when a device and NVRTC are there") {
    if (!fj::test::nvrtc_present()) return;
    const ScopedEnv cache_dir = scratch_cache_dir();
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Auto;
    const fj::Renderer renderer(options);
    CHECK(renderer.backend_name() == "cuda");
    CHECK(renderer.fallback_reason().empty());
}

TEST_CASE("cuda host: a driver of an earlier CUDA major version than the build's is no CUDA backend, saying why") {
    const int major = CUDA_VERSION / 1000;
    const std::string old = std::to_string((major - 1) * 1000 + 40);  // a driver for CUDA (major - 1).4
    const ScopedEnv old_driver("FJ_STAND_IN_DRIVER_VERSION", old);
    const ScopedEnv cache_dir = scratch_cache_dir();
    std::string why_not;
    CHECK_FALSE(fj::cuda_device_available(&why_not));
    CHECK_MESSAGE(why_not.find("the NVIDIA driver supports CUDA " + std::to_string(major - 1) + ".4") != std::string::npos,
                  why_not);
    CHECK_MESSAGE(why_not.find("needs a driver for CUDA " + std::to_string(major) + " or later") != std::string::npos,
                  why_not);
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Auto;
    std::string fell_back;
    options.on_cpu_fallback = [&](const std::string& why) { fell_back = why; };
    CHECK(fj::Renderer(options).backend_name() == "cpu");
    CHECK(fell_back == why_not);
    options.backend = fj::BackendChoice::Cuda;
    CHECK_THROWS_WITH(fj::Renderer{options}, doctest::Contains("needs a driver for CUDA"));
    // The command line: auto renders on the CPU with one line on why; cuda
    // fails with it; info says it.
    using fj::test::quoted;
    const std::string dir = fj::test::scratch_dir("stand-in-old-driver");
    const std::string render = quoted(fj::test::flamejit_binary()) + " render --size-scale 0.05 --quality 1 -o ";
    const auto automatic = fj::test::run_command(render + quoted(dir + "/auto.png"));
    CHECK_MESSAGE(automatic.status == 0, automatic.output);
    CHECK(automatic.output.find("flamejit: using the CPU backend (the NVIDIA driver supports CUDA") != std::string::npos);
    CHECK(fj::test::file_exists(dir + "/auto.png"));
    const auto cuda = fj::test::run_command(render + quoted(dir + "/cuda.png") + " --backend cuda");
    CHECK(cuda.status == 1);
    CHECK(std::count(cuda.output.begin(), cuda.output.end(), '\n') == 1);
    CHECK_MESSAGE(cuda.output.find("needs a driver for CUDA") != std::string::npos, cuda.output);
    CHECK_FALSE(fj::test::file_exists(dir + "/cuda.png"));
    const auto info = fj::test::run_command(quoted(fj::test::flamejit_binary()) + " info --json");
    CHECK_MESSAGE(info.status == 0, info.output);
    if (info.status == 0) {
        const nlohmann::json j = nlohmann::json::parse(info.output);
        CHECK(j.at("backends").at("cuda").at("available") == false);
        CHECK(j.at("backends").at("cuda").at("reason").get<std::string>() == why_not);
    }

    // An earlier minor version of the same major runs (minor version
    // compatibility).
    const ScopedEnv same_major("FJ_STAND_IN_DRIVER_VERSION", std::to_string(major * 1000));
    CHECK(fj::cuda_device_available(nullptr));
}

TEST_CASE("cuda host: --shuffle auto keeps the ring on the CUDA backend and sorts on the CPU's, also after a fallback") {
    if (!fj::test::nvrtc_present()) return;
    const ScopedEnv cache_dir = scratch_cache_dir();
    fj::RenderOptions options;
    options.kernel.sort_idle_frames = true;  // what --shuffle auto sets
    fj::Renderer cuda(options);
    REQUIRE(cuda.backend_name() == "cuda");
    CHECK_FALSE(cuda.frame_options().kernel.sort_idle_frames);
    {
        const ScopedEnv mode("FJ_STAND_IN_CONTEXT", "fail");
        fj::Flame flame = Frame().flame;
        flame.width = flame.height = 32;
        flame.quality = 2;
        fj::Renderer falls(options);
        REQUIRE(falls.render(flame).backend == "cpu");
        CHECK(falls.frame_options().kernel.sort_idle_frames);
    }
    options.backend = fj::BackendChoice::Cpu;
    CHECK(fj::Renderer(options).frame_options().kernel.sort_idle_frames);
}

TEST_CASE("cuda host: auto renders on the CPU when the device fails before its first frame; cuda fails") {
    if (!fj::test::nvrtc_present()) return;
    const ScopedEnv mode("FJ_STAND_IN_CONTEXT", "fail");
    const ScopedEnv cache_dir = scratch_cache_dir();
    fj::Flame flame = Frame().flame;
    flame.width = flame.height = 32;
    flame.quality = 2;
    std::vector<std::string> reasons;
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Auto;
    options.on_cpu_fallback = [&](const std::string& why) { reasons.push_back(why); };
    fj::Renderer renderer(options);
    CHECK(renderer.backend_name() == "cuda");  // the context is made later
    const fj::PreparedFrame frame = fj::prepare_still(flame, renderer.frame_options());
    CHECK(renderer.plan_strips(frame, 0, 0).count == 1);  // asks the device for its memory
    const fj::RenderResult result = renderer.render(frame, 4);
    CHECK(result.backend == "cpu");
    CHECK(result.stats.samples >= 32u * 32u * 2u);
    REQUIRE(reasons.size() == 1);
    CHECK(reasons[0].find("CUDA_ERROR_OUT_OF_MEMORY") != std::string::npos);
    CHECK(renderer.fallback_reason() == reasons[0]);
    // The same when the frame itself is the first to need the device.
    fj::Renderer direct(options);
    CHECK(direct.render(frame, 4).backend == "cpu");
    CHECK(reasons.size() == 2);

    options.backend = fj::BackendChoice::Cuda;
    fj::Renderer cuda(options);
    CHECK_THROWS_AS(cuda.render(frame, 4), fj::CudaError);
    CHECK(reasons.size() == 2);
    // The command line says what to try.
    const auto r = fj::test::run_command(fj::test::quoted(fj::test::flamejit_binary()) +
                                         " render --backend cuda --size-scale 0.05 --quality 1 -o " +
                                         fj::test::quoted(fj::test::scratch_dir("stand-in-oom") + "/x.png"));
    CHECK(r.status == 1);
    CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    CHECK_MESSAGE(r.output.find("--backend cpu") != std::string::npos, r.output);
}

TEST_CASE("cuda host: info --json lists the devices the driver shows, or why CUDA cannot be used") {
    using fj::test::quoted;
    const ScopedEnv cache_dir = scratch_cache_dir();
    const std::string info = quoted(fj::test::flamejit_binary()) + " info --json";
    const auto two = fj::test::run_command("env FJ_STAND_IN_DEVICES=2 " + info);
    REQUIRE_MESSAGE(two.status == 0, two.output);
    const nlohmann::json j = nlohmann::json::parse(two.output);
    CHECK(j.at("backends").at("cuda").at("available") == true);
    CHECK(j.at("backends").at("cpu").at("threads").get<unsigned>() >= 1);
    REQUIRE(j.at("devices").size() == 2);
    for (int d = 0; d < 2; ++d) {
        CHECK(j["devices"][d].at("index") == d);
        CHECK(j["devices"][d].at("name") == "flamejit stand-in device");
        CHECK(j["devices"][d].at("sm").get<std::string>().rfind("sm_", 0) == 0);
        CHECK(j["devices"][d].at("memory_bytes").get<unsigned long long>() > 0);
    }
    CHECK(j.at("variations").get<size_t>() == fj::VariationRegistry::standard().all().size());
    CHECK(j.at("kernel_cache").contains("folder"));

    const auto none = fj::test::run_command("env FLAMEJIT_LIBCUDA_PATH=/nonexistent/libcuda.so.1 " + info);
    REQUIRE_MESSAGE(none.status == 0, none.output);
    const nlohmann::json n = nlohmann::json::parse(none.output);
    CHECK(n.at("backends").at("cuda").at("available") == false);
    CHECK(n.at("backends").at("cuda").at("reason").get<std::string>().find("/nonexistent") != std::string::npos);
    CHECK(n.at("devices").empty());

    // nvJitLink (linked kernels): where it was found, or why not.
    const auto linker = fj::test::run_command("env FLAMEJIT_NVJITLINK_PATH=/nonexistent/libnvJitLink.so " + info);
    REQUIRE_MESSAGE(linker.status == 0, linker.output);
    const nlohmann::json l = nlohmann::json::parse(linker.output);
    CHECK(l.at("nvjitlink").at("available") == false);
    CHECK(l.at("nvjitlink").at("reason").get<std::string>().find("/nonexistent") != std::string::npos);
    if (j.at("nvjitlink").at("available") == true)
        CHECK_FALSE(j.at("nvjitlink").at("library").get<std::string>().empty());
}
