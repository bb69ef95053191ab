// SPDX-License-Identifier: GPL-3.0-or-later
// GPU end to end (label "gpu"): random flam3 genomes rendered by the CUDA
// backend against flam3-render, and against the CPU backend. Skips, with the
// reason, where no CUDA device works.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <sstream>
#include <utility>
#include <vector>

#include "codegen/variation_registry.h"
#include "image/fidelity.h"
#include "image/png_io.h"
#include "pipeline/render_state.h"
#include "test_support.h"

using fj::test::run_command;

namespace {
using fj::test::quoted;

// How two images of one size differ, sample by sample (8- or 16-bit units).
struct SampleDifference {
    size_t differing = 0;  // samples not equal
    size_t beyond_one = 0; // samples more than one unit apart
    int worst = 0;
};

SampleDifference sample_difference(const fj::PngImage& a, const fj::PngImage& b) {
    REQUIRE(a.rgba.size() == b.rgba.size());
    SampleDifference d;
    for (size_t i = 0; i < a.rgba.size(); ++i) {
        const int apart = std::abs(int(a.rgba[i]) - int(b.rgba[i]));
        d.differing += apart != 0;
        d.beyond_one += apart > 1;
        d.worst = std::max(d.worst, apart);
    }
    return d;
}

// The bundled genome reduced (a quarter of the size, quality 10) as g.flam3
// and, with gamma 2.5, as toned.flam3, in a scratch folder; render() renders
// one of them on CUDA at seed 6 (the options after, which win, aside).
struct StateGenomes {
    std::string dir;
    explicit StateGenomes(const std::string& name) : dir(fj::test::scratch_dir(name)) {
        const std::string xml = fj::test::reduced_genome(
            fj::test::read_file(fj::test::source_path("genomes/default.flam3")), 0.25, 10);
        fj::test::write_file(dir + "/g.flam3", xml);
        fj::test::write_file(dir + "/toned.flam3", fj::test::set_flame_attribute(xml, "gamma", "2.5"));
    }
    fj::PngImage render(const std::string& genome, const std::string& out, const std::string& more) const {
        const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/" + genome) +
                                   " -o " + quoted(dir + "/" + out) + " --backend cuda --seed 6 " + more);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        return fj::read_png(dir + "/" + out);
    }
};

}  // namespace

TEST_CASE("gpu: CUDA renders of random flam3 genomes match flam3-render and the CPU backend (ratio <= 1.5)") {
    if (!fj::test::cuda_devices_present()) return;
    const std::string dir = fj::test::scratch_dir("gpu-fidelity");
    const std::string ids = fj::test::flam3_genome_variation_ids();
    fj::test::write_file(dir + "/template.flam3",
                         "<flame size=\"320 240\" quality=\"100\" supersample=\"1\" filter=\"0.5\" "
                         "estimator_radius=\"9\" estimator_minimum=\"0\" estimator_curve=\"0.4\"/>\n");
    for (int seed : {11, 12, 13}) {
        CAPTURE(seed);
        const std::string s = std::to_string(seed);
        const std::string g = dir + "/rand" + s + ".flam3";
        REQUIRE(run_command("env seed=" + s + " isaac_seed=gen" + s + " noedits=1 template=" +
                            quoted(dir + "/template.flam3") + " use_vars=" + ids + " flam3-genome > " + quoted(g))
                    .status == 0);
        for (const char* ref : {"A", "B"})
            REQUIRE(run_command("env in=" + quoted(g) + " out=" + quoted(dir + "/" + ref + s + ".png") +
                                " isaac_seed=ref" + ref + " verbose=0 flam3-render")
                        .status == 0);
        for (const char* backend : {"cuda", "cpu"}) {
            const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(g) + " -o " +
                                       quoted(dir + "/" + backend + s + ".png") + " --backend " + backend +
                                       " --seed " + s);
            REQUIRE_MESSAGE(r.status == 0, r.output);
            MESSAGE(r.output);
        }
        const auto A = fj::read_png(dir + "/A" + s + ".png");
        const auto B = fj::read_png(dir + "/B" + s + ".png");
        const auto gpu = fj::read_png(dir + "/cuda" + s + ".png");
        const auto cpu = fj::read_png(dir + "/cpu" + s + ".png");
        const double vs_flam3 = fj::fidelity_ratio(A, B, gpu).ratio;
        // Against the CPU backend: the GPU image should be as close to the CPU
        // one as flam3's two seeds are to each other.
        const double vs_cpu = fj::fidelity_ratio(A, B, cpu).ratio;
        MESSAGE("seed " << seed << ": GPU vs flam3 " << vs_flam3 << ", CPU vs flam3 " << vs_cpu
                        << ", GPU-CPU mean difference " << fj::downsampled_mean_abs_difference(gpu, cpu));
        CHECK(vs_flam3 <= 1.5);
        CHECK(fj::downsampled_mean_abs_difference(gpu, cpu) <= 1.5 * fj::downsampled_mean_abs_difference(A, B));
    }
}

TEST_CASE("gpu: an image rendered in strips has the pixels of one piece") {
    if (!fj::test::cuda_devices_present()) return;
    const std::string dir = fj::test::scratch_dir("gpu-strips");
    const std::string genome = dir + "/g.flam3";
    // The bundled genome (density estimation, rotation) small, supersampled.
    std::string xml = fj::test::reduced_genome(fj::test::read_file(fj::test::source_path("genomes/default.flam3")),
                                               0.25, 20);
    fj::test::write_file(genome, fj::test::set_flame_attribute(xml, "supersample", "2"));
    for (const char* strips : {"1", "3"}) {
        const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                   quoted(dir + "/s" + strips + ".png") + " --backend cuda --seed 4 --strips " + strips);
        REQUIRE_MESSAGE(r.status == 0, r.output);
    }
    const auto one = fj::read_png(dir + "/s1.png");
    // Every strip plots the whole frame's hits (exact integer sums); only
    // the density estimator's float atomics may add in another order, which
    // can move a sample by one unit.
    const SampleDifference d = sample_difference(one, fj::read_png(dir + "/s3.png"));
    MESSAGE("strips against one piece: " << d.differing << " of " << one.rgba.size()
                                         << " samples differ, by at most " << d.worst);
    CHECK(d.worst <= 1);
    CHECK(d.differing <= one.rgba.size() / 1000);
}

namespace {
// Kernel files (not failed compiles) in a kernel cache folder.
size_t kernel_files(const std::string& dir) {
    size_t n = 0;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) n += entry.path().extension() == ".fjk";
    return n;
}
}  // namespace

TEST_CASE("gpu: --kernel linked and auto render the specialized kernel's image; without nvJitLink auto waits for that kernel") {
    if (!fj::test::cuda_devices_present()) return;
    const std::string dir = fj::test::scratch_dir("gpu-auto");
    const std::string genome = dir + "/g.flam3";
    fj::test::write_file(genome, fj::test::reduced_genome(
                                     fj::test::read_file(fj::test::source_path("genomes/default.flam3")), 0.25, 20));
    // Each render with a kernel cache of its own, so that each compiles.
    const auto render = [&](const std::string& name, const std::string& seed, const std::string& kernel,
                            const std::string& environment = "") {
        const std::string cache = dir + "/cache-" + name;
        const auto r = run_command("FLAMEJIT_CACHE_DIR=" + quoted(cache) + " " + environment + " " +
                                   quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                   quoted(dir + "/" + name + ".png") + " --backend cuda --seed " + seed +
                                   " --kernel " + kernel);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        return std::make_pair(fj::read_png(dir + "/" + name + ".png"), kernel_files(cache));
    };
    const auto [specialized, specialized_files] = render("specialized", "4", "specialized");
    const auto [other_seed, other_files] = render("other-seed", "5", "specialized");
    const auto [linked, linked_files] = render("linked", "4", "linked");
    const auto [automatic, automatic_files] = render("auto", "4", "auto");
    const auto [unlinked, unlinked_files] =
        render("unlinked", "4", "auto", "FLAMEJIT_NVJITLINK_PATH=" + quoted(dir + "/none.so"));
    CHECK(specialized_files == 1);
    CHECK(linked_files == 1);
    // The linked stand-in and the specialized kernel, which the process
    // waited for before it ended.
    CHECK(automatic_files == 2);
    CHECK(unlinked_files == 1);
    // The kernels plot the same hits on the emulator; on a GPU, where the
    // called xforms may round otherwise (and one rounding apart, the chains
    // go their own ways), the frames must be about as close to the
    // specialized kernel's as another seed's is, with the margin of the
    // fidelity case above.
    const double seeds_apart = fj::downsampled_mean_abs_difference(specialized, other_seed);
    MESSAGE("mean differences from the specialized kernel's frame: another seed " << seeds_apart << ", linked "
            << fj::downsampled_mean_abs_difference(specialized, linked) << ", auto "
            << fj::downsampled_mean_abs_difference(specialized, automatic));
    CHECK(fj::downsampled_mean_abs_difference(specialized, linked) <= 1.5 * seeds_apart);
    CHECK(fj::downsampled_mean_abs_difference(specialized, automatic) <= 1.5 * seeds_apart);
    // Without a stand-in, the specialized kernel alone: only float atomics'
    // order may move a sample by one unit.
    const SampleDifference d = sample_difference(specialized, unlinked);
    CHECK(d.worst <= 1);
    CHECK(d.differing <= specialized.rgba.size() / 1000);
}

TEST_CASE("gpu: a render state saved on CUDA tone-maps again to a direct render's image and resumes") {
    if (!fj::test::cuda_devices_present()) return;
    const StateGenomes genomes("gpu-state");
    const std::string& dir = genomes.dir;
    genomes.render("g.flam3", "first.png", "--save-state " + quoted(dir + "/s.fjstate"));
    const auto again = genomes.render("toned.flam3", "again.png", "--resume-state " + quoted(dir + "/s.fjstate"));
    const auto direct = genomes.render("toned.flam3", "direct.png", "");
    // The same hits (exact sums) tone-mapped alike; only the density
    // estimator's float atomics may add in another order.
    CHECK(sample_difference(again, direct).beyond_one == 0);
    // Resumed to four times the quality: as close to a direct render as
    // another seed's is.
    const auto resumed =
        genomes.render("g.flam3", "resumed.png", "--quality 40 --resume-state " + quoted(dir + "/s.fjstate"));
    const auto a = genomes.render("g.flam3", "a.png", "--quality 40");
    const auto b = genomes.render("g.flam3", "b.png", "--quality 40 --seed 7");
    const double seeds = fj::downsampled_mean_abs_difference(a, b), resumed_apart = fj::downsampled_mean_abs_difference(a, resumed);
    MESSAGE("direct renders differ by " << seeds << ", resumed and direct by " << resumed_apart);
    CHECK(resumed_apart <= 1.25 * seeds);
}

TEST_CASE("gpu: a CUDA part and a CPU part of one image sum to the whole; CUDA strips keep their states") {
    if (!fj::test::cuda_devices_present()) return;
    const StateGenomes genomes("gpu-state-parts");
    const std::string& dir = genomes.dir;
    // Hits add the same amounts on either backend, so their states sum (the
    // parts' seeds are neither direct render's).
    genomes.render("g.flam3", "cuda.png", "--seed 3 --save-state " + quoted(dir + "/cuda.fjstate"));
    genomes.render("g.flam3", "cpu.png", "--backend cpu --seed 4 --save-state " + quoted(dir + "/cpu.fjstate"));
    const auto summed = genomes.render("g.flam3", "summed.png",
                                       "--quality 20 --resume-state " + quoted(dir + "/cuda.fjstate") +
                                           " --resume-state " + quoted(dir + "/cpu.fjstate"));
    const auto a = genomes.render("g.flam3", "a.png", "--quality 20");
    const auto b = genomes.render("g.flam3", "b.png", "--quality 20 --seed 8");
    const double seeds = fj::downsampled_mean_abs_difference(a, b), summed_apart = fj::downsampled_mean_abs_difference(a, summed);
    MESSAGE("direct renders differ by " << seeds << ", the summed parts and direct by " << summed_apart);
    CHECK(summed_apart <= 1.25 * seeds);

    // In strips: their states tone-map again to a direct render in strips.
    genomes.render("g.flam3", "strips.png", "--strips 3 --save-state " + quoted(dir + "/strips"));
    const auto again = genomes.render("toned.flam3", "again.png", "--resume-state " + quoted(dir + "/strips"));
    const auto direct = genomes.render("toned.flam3", "direct.png", "--strips 3");
    CHECK(sample_difference(again, direct).beyond_one == 0);
}

TEST_CASE("gpu: an image rendered on several devices is one device's image of as many samples") {
    if (!fj::test::cuda_devices_present(2)) return;
    const std::string dir = fj::test::scratch_dir("gpu-devices");
    // Two passes: each device's hits of a pass reach the image once. At this
    // quality, a device's first pass counted again in the second put the
    // images twice as far apart as two seeds' (on the emulator), and a
    // device left out further still.
    const std::string xml = fj::test::reduced_genome(fj::test::read_file(fj::test::source_path("genomes/default.flam3")),
                                                     0.25, 80);
    fj::test::write_file(dir + "/g.flam3", fj::test::set_flame_attribute(xml, "passes", "2"));
    auto render = [&](const std::string& out, const std::string& more) {
        const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/g.flam3") + " -o " +
                                   quoted(dir + "/" + out) + " --backend cuda " + more);
        REQUIRE_MESSAGE(r.status == 0, r.output);
        return fj::read_png(dir + "/" + out);
    };
    // A genome whose every point stays in the frame (a rotation): the summed
    // histogram holds 255 of alpha for every sample both devices plotted.
    fj::test::write_file(dir + "/bounded.flam3",
                         R"(<flame size="64 64" scale="16" quality="200"><xform weight="1" color="0.5" linear="1" )"
                         R"(coefs="0.540302 0.841471 -0.841471 0.540302 0 0"/><color index="0" rgb="255 0 0"/>)"
                         R"(<color index="255" rgb="0 0 255"/></flame>)");
    const auto r = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(dir + "/bounded.flam3") + " -o " +
                               quoted(dir + "/bounded.png") + " --backend cuda --seed 3 --devices 0,1 --save-state " +
                               quoted(dir + "/bounded.fjstate"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const fj::RenderState state = fj::read_render_state(dir + "/bounded.fjstate");
    CHECK(state.plotted >= 64u * 64u * 200u);
    double alpha_total = 0;
    for (size_t i = 3; i < state.rgba.size(); i += 4) alpha_total += state.rgba[i];
    CHECK(alpha_total == doctest::Approx(255.0 * static_cast<double>(state.plotted)).epsilon(1e-6));

    const auto both = render("both.png", "--seed 8 --devices 0,1");
    // Each share's stream follows from its place in the list, not the device.
    CHECK(sample_difference(both, render("swapped.png", "--seed 8 --devices 1,0")).beyond_one == 0);
    const auto a = render("a.png", "--seed 9"), b = render("b.png", "--seed 10");
    const double seeds = fj::downsampled_mean_abs_difference(a, b), apart = fj::downsampled_mean_abs_difference(a, both);
    MESSAGE("one device at two seeds differs by " << seeds << ", two devices and one by " << apart);
    CHECK(apart <= 1.25 * seeds);
}


TEST_CASE("gpu: animate compiles the kernels of coming structures while frames render, or not with --compile-threads 0") {
    if (!fj::test::cuda_devices_present()) return;
    const std::string dir = fj::test::scratch_dir("gpu-compile-ahead");
    for (int threads : {2, 0}) {
        CAPTURE(threads);
        // Motion blur: the frames around time 4 straddle two intervals, a
        // third structure.
        const auto r = run_command(quoted(fj::test::flamejit_binary()) + " animate " +
                                   quoted(fj::test::source_path("genomes/three-structures.flam3")) +
                                   " --frames 0:8 --temporal-samples 4 --backend cuda --seed 2 --compile-threads " +
                                   std::to_string(threads) + " -o " + quoted(dir + "/t" + std::to_string(threads) + "_%02d.png"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        for (int n = 0; n <= 8; ++n)
            CHECK(fj::read_png(dir + "/t" + std::to_string(threads) + "_0" + std::to_string(n) + ".png").width == 40);
        CHECK(r.output.find("3 kernel structure(s)") != std::string::npos);
        // A compile thread counts a structure once it has the kernel, built
        // by itself or by the render that reached it first (which the
        // first frame's often is), so the count is not always three.
        if (threads == 0) CHECK(r.output.find("(0 compiled ahead)") != std::string::npos);
        else CHECK(r.output.find("(0 compiled ahead)") == std::string::npos);
    }
}

TEST_CASE("gpu: every variation renders on CUDA with its parameters at extremes too") {
    // Every variation, its parameters drawn from values a genome may give
    // (0 to ±3.4e38), in genomes of eight xforms of up to six variations
    // each (those that read or drop the sum before them alone, so that no
    // file's order differs from flamejit's): each renders, whatever its
    // points become. On the emulator the kernel runs under the undefined-
    // behaviour sanitizer.
    if (!fj::test::cuda_devices_present()) return;
    const std::string dir = fj::test::scratch_dir("gpu-extremes");
    const std::vector<float>& extremes = fj::test::extreme_parameter_values();
    const auto render = [&](const std::string& genome) {
        return run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                           quoted(dir + "/g.png") + " --backend cuda --seed 7");
    };
    std::mt19937 gen(4849);
    std::vector<std::vector<const fj::VariationInfo*>> xforms;
    std::vector<const fj::VariationInfo*> group;
    for (const fj::VariationInfo& info : fj::VariationRegistry::standard().all()) {
        if (info.reads_sum || info.discards_sum)
            xforms.push_back({&info});
        else
            group.push_back(&info);
        if (group.size() == 6) xforms.push_back(std::exchange(group, {}));
    }
    if (!group.empty()) xforms.push_back(group);
    int genomes = 0;
    for (size_t first = 0; first < xforms.size(); first += 8, ++genomes) {
        std::ostringstream xml;
        xml << "<flame size=\"32 32\" scale=\"8\" quality=\"40\">\n";
        for (size_t k = first; k < std::min(first + 8, xforms.size()); ++k) {
            xml << "<xform weight=\"1\" color=\"" << (k % 8) / 8.0 << "\" coefs=\"0.6 0.1 -0.1 0.6 0.2 -0.1\"";
            for (const fj::VariationInfo* v : xforms[k]) {
                xml << ' ' << v->name << "=\"0.5\"";
                for (const fj::ParamInfo& p : v->params)
                    xml << ' ' << p.name << "=\"" << extremes[gen() % extremes.size()] << '"';
            }
            xml << "/>\n";
        }
        xml << "<palette count=\"2\" format=\"RGB\">FF8000 0080FF</palette></flame>\n";
        const std::string genome = dir + "/g" + std::to_string(genomes) + ".flam3";
        fj::test::write_file(genome, xml.str());
        const auto r = render(genome);
        CHECK_MESSAGE(r.status == 0, genome << ": " << r.output);
    }
    CHECK(genomes >= 7);
    // And the case the sanitizer caught this way: pixel_flow's blocks 10^30
    // to a unit, every point's block index beyond int (INT_MIN) and shifted
    // by a hash of its seed, down for some of these ten (an int overflow
    // until the add wrapped as x86's does).
    std::ostringstream xml;
    xml << "<flame size=\"32 32\" scale=\"8\" quality=\"40\">\n";
    for (const char* seed : {"1", "2", "3", "5", "7", "11", "13", "42", "0.5", "-3"})
        xml << "<xform weight=\"1\" color=\"0\" linear=\"0.5\" pixel_flow=\"1\" pixel_flow_width=\"1e30\" "
            << "pixel_flow_seed=\"" << seed << "\" coefs=\"0.6 0.1 -0.1 0.6 0.2 0.1\"/>\n";
    xml << "<palette count=\"2\" format=\"RGB\">FF8000 0080FF</palette></flame>\n";
    fj::test::write_file(dir + "/pixel_flow.flam3", xml.str());
    const auto r = render(dir + "/pixel_flow.flam3");
    CHECK_MESSAGE(r.status == 0, r.output);
}
