// SPDX-License-Identifier: GPL-3.0-or-later
// The benchmark harnesses: every accumulation mode and the ceiling kernel
// compile for the data-centre archs, and `flamejit bench` runs end to end on
// the CPU backend (a smoke test: timings are not judged here).
#include <algorithm>
#include <map>

#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "analysis/hit_sample.h"
#include "codegen/param_layout.h"
#include "codegen/snippet_source.h"
#include "codegen/stitcher.h"
#include "cuda/compiler.h"
#include "cuda/cubin_code.h"
#include "cuda/kernel_modules.h"
#include "cuda/nvrtc_api.h"
#include "genome/flam3_reader.h"
#include "host_info.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

using fj::test::quoted;

}  // namespace

TEST_CASE("bench: every accumulation mode, the atomic ceiling, the packed flush and time steps compile for sm_80 "
          "and sm_90") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    // The xaos genome exercises the lazy proposal, the final-post one the final xform.
    for (const char* genome : {"xaos", "final-post"}) {
        const auto flames = fj::read_flam3_file(fj::test::source_path(std::string("benchmarks/genomes/") + genome + ".flam3"));
        for (fj::Accumulation acc : {fj::Accumulation::Atomic, fj::Accumulation::Scalar, fj::Accumulation::Warp,
                                     fj::Accumulation::Shared, fj::Accumulation::Packed, fj::Accumulation::None})
            for (const char* arch : {"sm_80", "sm_90"})
                for (fj::Shuffle shuffle : {fj::Shuffle::Ring, fj::Shuffle::Divergent, fj::Shuffle::Sorted}) {
                    CAPTURE(genome);
                    CAPTURE(fj::to_string(acc));
                    CAPTURE(arch);
                    CAPTURE(fj::to_string(shuffle));
                    fj::KernelOptions options;
                    options.accumulation = acc;
                    options.arch = arch;
                    options.shuffle = shuffle;
                    fj::KernelKey key = fj::make_kernel_key(flames.at(0), options);
                    // Benchmarks ask for the ceiling kernel; renders leave it out.
                    key.atomic_ceiling = shuffle == fj::Shuffle::Ring;
                    // Motion-blurred frames' kernels, with every mode too.
                    key.time_steps = shuffle == fj::Shuffle::Divergent;
                    fj::CompileRequest req;
                    req.source = fj::stitch_kernel(key, fj::make_param_layout(key, registry), registry,
                                                   fj::SnippetSource::standard());
                    req.arch = arch;
                    const fj::CompiledKernel k =
                        fj::compile_kernel(req, key.canonical(), fj::test::scratch_dir("bench-compile"));
                    CHECK(k.cubin.size() > 0);
                    CHECK(k.log.find("warning") == std::string::npos);
                    // ptxas reports every entry: the ceiling kernel is in the cubin when asked for.
                    CHECK(k.registers > 0);
                    // The sort's tables and scan fit the 32 registers of full
                    // occupancy in every mode (lazy selection spills in some).
                    if (shuffle == fj::Shuffle::Sorted) CHECK(k.spill_stores == 0);
                    CHECK((fj::parse_ptxas_report(k.log, "fj_atomic_ceiling").registers > 0) == key.atomic_ceiling);
                    // The packed grid's flush kernel is in packed modules, and only there.
                    CHECK((fj::parse_ptxas_report(k.log, "fj_packed_flush").registers > 0) ==
                          (acc == fj::Accumulation::Packed));
                    // The CUBIN's own records (compile_kernel's fallback) agree with
                    // the report, entry by entry.
                    for (const char* entry : {"fj_iterate", "fj_seed", "fj_atomic_ceiling", "fj_packed_flush"}) {
                        CAPTURE(entry);
                        CHECK(fj::cubin_registers(k.cubin, entry) == fj::parse_ptxas_report(k.log, entry).registers);
                    }
                }
    }
}

TEST_CASE("bench: linked kernels with the atomic ceiling, the packed flush or time steps compile and link for sm_80 "
          "and sm_90") {
    if (!fj::test::nvrtc_present()) return;
    const auto& registry = fj::VariationRegistry::standard();
    const auto flames = fj::read_flam3_file(fj::test::source_path("benchmarks/genomes/final-post.flam3"));
    for (const std::string arch : {"sm_80", "sm_90"})
        for (bool steps : {false, true}) {
            CAPTURE(arch);
            CAPTURE(steps);
            fj::KernelOptions options;
            options.form = fj::KernelForm::Linked;
            options.arch = arch;
            options.accumulation = steps ? fj::Accumulation::Atomic : fj::Accumulation::Packed;
            fj::KernelKey key = fj::make_kernel_key(flames.at(0), options);
            key.atomic_ceiling = !steps;
            key.time_steps = steps;
            const fj::CompiledKernel k = fj::compile_kernel(fj::kernel_request(key, fj::make_param_layout(key, registry)),
                                                            key.canonical(), fj::test::scratch_dir("bench-linked"));
            CHECK(k.log.find("warning") == std::string::npos);
            // Every entry the module should hold, in the linked CUBIN.
            CHECK(fj::cubin_registers(k.cubin, "fj_seed") > 0);
            CHECK((fj::cubin_registers(k.cubin, "fj_atomic_ceiling") > 0) == !steps);
            CHECK((fj::cubin_registers(k.cubin, "fj_packed_flush") > 0) == !steps);
            // fj_iterate within its bound: a full SM's threads, or (time
            // steps) one block's.
            CHECK(k.registers > 0);
            CHECK(k.registers <= (steps ? fj::linked_xform_registers(key) : 32));
        }
}

TEST_CASE("bench throughput: runs on the CPU backend and writes every field of its JSON") {
    const std::string dir = fj::test::scratch_dir("bench-throughput");
    const auto r = run_command(quoted(fj::test::flamejit_binary()) + " bench throughput " +
                               quoted(fj::test::source_path("benchmarks/genomes/linear3.flam3")) + " " +
                               quoted(fj::test::source_path("benchmarks/genomes/xaos.flam3")) +
                               " --backend cpu --threads 2 --size 64x36 --quality 5 --kernel auto --json " +
                               quoted(dir + "/t.json"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const auto j = nlohmann::json::parse(fj::test::read_file(dir + "/t.json"));
    // Every field bench_header and the command write, as a reader takes it.
    for (const char* k : {"device", "cpu", "commit", "date", "command", "flamejit_version", "shuffle", "accumulate"})
        CHECK_MESSAGE((j.contains(k) && j.at(k).is_string()), std::string(k));
    for (const char* k : {"block", "linked_registers"})
        CHECK_MESSAGE((j.contains(k) && j.at(k).is_number_integer()), std::string(k));
    CHECK(j.contains("driver"));
    CHECK(j.at("driver").is_null());  // no NVIDIA driver on the CPU
    CHECK(j.at("backend") == "cpu");
    CHECK(j.at("size") == nlohmann::json::array({64, 36}));
    CHECK(j.at("quality") == 5);
    CHECK(j.at("kernel") == "auto");
    REQUIRE(j.at("genomes").size() == 2);
    for (const auto& g : j.at("genomes")) {
        CHECK(g.at("backend") == "cpu");
        CHECK(g.at("atomic_ceiling_per_s").get<double>() > 0);
        CHECK(g.at("compute_ceiling_per_s").get<double>() > 0);
        // Null where the genome gives no hit sample.
        const auto& hits = g.at("atomic_ceiling_hits_per_s");
        CHECK((hits.is_null() || hits.get<double>() > 0));
        CHECK((g.at("limited_by") == "atomics" || g.at("limited_by") == "compute"));
        CHECK(g.at("iterations_per_s").get<double>() > 0);
        CHECK(g.at("ceiling_iterations_per_s").get<double>() > 0);
        CHECK(g.at("ratio_to_ceiling").get<double>() > 0);
        CHECK(g.at("samples").get<double>() >= 64 * 36 * 5);
        // The frame (compile excluded) holds its parts.
        const double compile = g.at("compile_s"), iterate = g.at("iterate_s"), post = g.at("post_s"),
                     png = g.at("png_s"), frame = g.at("frame_s");
        CHECK(compile >= 0);
        CHECK(post > 0);
        CHECK(png > 0);
        CHECK(iterate + post + png <= frame);
        // Kernel launches and compiles are the CUDA backend's.
        CHECK(g.at("kernels_compiled") == 0);
        CHECK(g.at("launches") == 0);
        CHECK(g.at("stand_in_launches") == 0);
        // So are the launch shape, the packed accumulator and the shared cache.
        for (const char* k : {"registers", "blocks_per_sm", "threads", "packed_carries", "cache_slots"})
            CHECK_MESSAGE(g.at(k) == 0, std::string(k));
        // flam3's time and the speed-up over it come with --flam3 only.
        CHECK(g.at("flam3_render_s").is_null());
        CHECK(g.at("speedup_vs_flam3").is_null());
    }
    CHECK(j.at("genomes")[0].at("name") == "linear3");
    CHECK(j.at("genomes")[1].at("name") == "xaos");
    // --shuffle auto: the ring, sorted on the CPU where the lazy selection
    // would idle many lanes (xaos.flam3: 47.6 %).
    CHECK(j.at("shuffle") == "auto");
    CHECK(j.at("genomes")[0].at("shuffle") == "ring");
    CHECK(j.at("genomes")[1].at("shuffle") == "sorted");
}

TEST_CASE("hit_sample draws cells as often as they were hit, in random order") {
    // Alpha 0, 3, 1, 0 and 0.5 (the other channels do not count).
    const std::vector<float> rgba = {9, 9, 9, 0, 0, 0, 0, 3, 5, 5, 5, 1, 1, 1, 1, 0, 0, 0, 0, 0.5f};
    const std::vector<uint32_t> sample = fj::hit_sample(rgba, 9000);
    REQUIRE(sample.size() == 9000);
    std::map<uint32_t, int> seen;
    for (uint32_t cell : sample) ++seen[cell];
    CHECK(seen.size() == 3);
    CHECK(seen[1] == 6000);
    CHECK(seen[2] == 2000);
    CHECK(seen[4] == 1000);
    CHECK_FALSE(std::is_sorted(sample.begin(), sample.end()));
    CHECK(fj::hit_sample(std::vector<float>(16, 0.0f), 100).empty());
    CHECK(fj::hit_sample(rgba, 0).empty());
}

TEST_CASE("results files name the NVIDIA driver as its kernel module gives it") {
    const std::string dir = fj::test::scratch_dir("nvidia-version");
    const std::string path = dir + "/version";
    fj::test::write_file(path, "NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  "
                               "(builder@host)  Thu Oct 30 2025\nGCC version:  gcc version 13.3.0\n");
    CHECK(fj::nvidia_driver_version(path) == "580.159.04");
    fj::test::write_file(path, "NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n");
    CHECK(fj::nvidia_driver_version(path) == "535.104.05");
    fj::test::write_file(path, "");
    CHECK(fj::nvidia_driver_version(path).empty());
    CHECK(fj::nvidia_driver_version(dir + "/absent").empty());
}

TEST_CASE("bench shuffle: the simulation JSON has the documented shape, and a render comparison runs") {
    const std::string dir = fj::test::scratch_dir("bench-shuffle");
    const auto sim = run_command(quoted(fj::test::flamejit_binary()) + " bench shuffle --simulate --block 256 --json " +
                                 quoted(dir + "/s.json"));
    REQUIRE_MESSAGE(sim.status == 0, sim.output);
    const auto j = nlohmann::json::parse(fj::test::read_file(dir + "/s.json"));
    REQUIRE(j.at("simulation").size() >= 4);
    for (const auto& row : j.at("simulation")) {
        for (const char* k : {"strategy", "block", "warp", "transforms", "p_identical", "distinct_trajectories"})
            CHECK_MESSAGE(row.contains(k), std::string(k));
        for (const char* l : {"1", "2", "4", "8"}) CHECK(row.at("p_identical").contains(l));
    }
    const auto renders = run_command(quoted(fj::test::flamejit_binary()) + " bench shuffle " +
                                     quoted(fj::test::source_path("benchmarks/genomes/spherical4.flam3")) +
                                     " --backend cpu --threads 2 --size 64x36 --qualities 2,4 --reference-quality 20 --json " +
                                     quoted(dir + "/r.json") + " --plot " + quoted(dir + "/r.svg"));
    REQUIRE_MESSAGE(renders.status == 0, renders.output);
    const auto rj = nlohmann::json::parse(fj::test::read_file(dir + "/r.json"));
    CHECK(rj.at("renders").size() == 8);  // 4 strategies × 2 qualities
    CHECK(fj::test::read_file(dir + "/r.svg").find("<polyline") != std::string::npos);
    CHECK(run_command(quoted(fj::test::flamejit_binary()) + " bench shuffle --strategies ring,bogus").status == 2);
}
