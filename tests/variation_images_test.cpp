// flamejit — every variation in a whole image against flam3-render: fidelity ratio <= 1.3.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// For each variation, a flam3-genome random genome restricted to it is
// rendered by flam3-render at two seeds and by flamejit's CPU backend; the
// fidelity ratio (image/fidelity.h) must be at most 1.3.
//
// The genomes come from flam3-genome (`use_vars=ID`, fixed `seed`), so
// neither the structure nor the parameters are ours. Two corrections make
// every variation appear: flam3 never writes twintrian (flam3_print skips
// it), so an xform that names no variation gets the tested one at weight 1;
// and flam3-genome cannot make a genome of a pre-variation alone, so those
// are added (weight 0.5) to every xform of a linear genome. A genome says
// nothing about the variation when flam3-genome gave up on it (its test
// renders stayed dark), when flam3's render is nearly black, or when flam3's
// two renders are all but identical (a few saturated pixels: the ratio would
// divide noise by nothing). Then the next seed is tried (at most kSeeds; some
// variations, cell above all, mostly throw points off the picture), and a
// variation with no usable genome fails.
//
// Small images (128×96) at modest quality (200) keep the cost near 150 s of
// CPU time for 99 variations × (1 genome + 3 renders): about a minute and a
// half on two idle cores, run as two worker threads.
#include <doctest/doctest.h>

#include <pugixml.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "codegen/variation_registry.h"
#include "image/fidelity.h"
#include "image/level.h"
#include "image/png_io.h"
#include "test_support.h"

using fj::test::run_command;

namespace {

constexpr double kMaxRatio = 1.3;
constexpr int kSeeds = 12;
constexpr double kMinLit = 0.01;    // share of pixels that must be visibly lit in flam3's render A
constexpr double kMinNoise = 0.01;  // mean |A−B| (8-bit, downsampled) flam3 must show between seeds

const char* kTemplate =
    "<flame size=\"128 96\" quality=\"200\" supersample=\"1\" filter=\"0.5\" estimator_radius=\"9\" "
    "estimator_minimum=\"0\" estimator_curve=\"0.4\" gamma=\"4\" brightness=\"4\" vibrancy=\"1\" "
    "background=\"0 0 0\"/>\n";

using fj::test::quoted;

struct Outcome {
    const fj::VariationInfo* info = nullptr;
    int seed = -1;          // flam3-genome seed of the genome judged
    int xforms = 0;         // of that genome, symmetry and final included
    double lit = 0;         // share of lit pixels in flam3's render A
    fj::FidelityResult fidelity;
    fj::LevelShift level;   // C's mean level against A's and B's (printed, not judged: two references)
    std::string error;      // set when no ratio could be measured
};

// Adds the variation where flam3-genome's output lacks it (see the file comment).
// Returns the number of xforms in the genome.
int complete_genome(const std::string& path, const fj::VariationInfo& info) {
    pugi::xml_document doc;
    if (!doc.load_file(path.c_str())) return -1;
    const auto& registry = fj::VariationRegistry::standard();
    int xforms = 0;
    for (const pugi::xpath_node& n : doc.select_nodes("//xform | //finalxform")) {
        pugi::xml_node xf = n.node();
        ++xforms;
        if (info.pre) {
            // Symmetry xforms (animate="0") stay plain rotations, as flam3 writes them.
            if (std::string(xf.attribute("animate").as_string("1")) != "0")
                xf.append_attribute(info.name.c_str()) = "0.5";
            continue;
        }
        bool names_variation = false;
        for (const pugi::xml_attribute& a : xf.attributes()) names_variation |= registry.by_name(a.name()) != nullptr;
        if (!names_variation) xf.append_attribute(info.name.c_str()) = "1";
    }
    return doc.save_file(path.c_str(), "   ") ? xforms : -1;
}

double lit_share(const fj::PngImage& img) {
    long lit = 0;
    for (int y = 0; y < img.height; ++y)
        for (int x = 0; x < img.width; ++x)
            lit += std::max({img.at8(x, y, 0), img.at8(x, y, 1), img.at8(x, y, 2)}) >= 8.0;
    return static_cast<double>(lit) / (img.width * img.height);
}

Outcome judge(const fj::VariationInfo& info, const std::string& dir) {
    Outcome out;
    out.info = &info;
    // flam3-genome cannot build a genome of a pre-variation alone: start from linear.
    const std::string use_vars = info.pre ? "0" : std::to_string(info.id);
    for (int k = 0; k < kSeeds; ++k) {
        const int seed = 100 + info.id + 1000 * k;
        const std::string tag = dir + "/" + info.name + "-" + std::to_string(seed);
        const std::string genome = tag + ".flam3";
        const auto gen = run_command("env seed=" + std::to_string(seed) + " isaac_seed=g" + std::to_string(seed) +
                                     " noedits=1 template=" + quoted(dir + "/template.flam3") + " use_vars=" +
                                     use_vars + " flam3-genome > " + quoted(genome) + " 2> " + quoted(tag + ".log"));
        const std::string log = fj::test::read_file(tag + ".log");
        if (gen.status != 0) {
            out.error = "flam3-genome failed: " + log;
            continue;
        }
        if (log.find("giving up") != std::string::npos) {
            out.error = "flam3-genome gave up on every seed tried";
            continue;
        }
        out.xforms = complete_genome(genome, info);
        if (out.xforms <= 0) {
            out.error = "cannot read back the genome of flam3-genome";
            continue;
        }
        auto render_flam3 = [&](const char* which) {
            const std::string png = tag + "-" + which + ".png";
            const auto r = run_command("env in=" + quoted(genome) + " out=" + quoted(png) + " isaac_seed=ref" + which +
                                       " nthreads=1 verbose=0 flam3-render");
            return r.status == 0 ? png : std::string();
        };
        const std::string a = render_flam3("A");
        if (a.empty()) {
            out.error = "flam3-render failed";
            continue;
        }
        out.seed = seed;
        out.lit = lit_share(fj::read_png(a));
        if (out.lit < kMinLit) {
            out.error = "flam3's render is nearly black for every seed tried";
            continue;
        }
        const std::string b = render_flam3("B");
        if (b.empty()) {
            out.error = "flam3-render failed";
            return out;
        }
        if (fj::downsampled_mean_abs_difference(fj::read_png(a), fj::read_png(b)) < kMinNoise) {
            out.error = "flam3's two renders are identical for every seed tried";
            continue;
        }
        const std::string c = tag + "-C.png";
        const auto ours = run_command(quoted(fj::test::flamejit_binary()) + " render " + quoted(genome) + " -o " +
                                      quoted(c) + " --backend cpu --threads 1 --seed " + std::to_string(seed));
        if (ours.status != 0) {
            out.error = "flamejit render failed: " + ours.output;
            return out;
        }
        const fj::PngImage pa = fj::read_png(a), pb = fj::read_png(b), pc = fj::read_png(c);
        out.fidelity = fj::fidelity_ratio(pa, pb, pc);
        out.level = fj::level_shift({fj::channel_means(pa), fj::channel_means(pb)}, fj::channel_means(pc));
        out.error.clear();
        return out;
    }
    return out;
}

}  // namespace

TEST_CASE("variation images: each variation's flam3-genome genome renders with fidelity ratio <= 1.3") {
    if (run_command("command -v flam3-genome && command -v flam3-render").status != 0) {
        FAIL("flam3-genome / flam3-render not installed (Debian flam3-utils): tools/test.sh installs them");
        return;
    }
    // flam3-genome makes genomes of flam3's variations only.
    std::vector<fj::VariationInfo> all;
    for (const fj::VariationInfo& v : fj::VariationRegistry::standard().all())
        if (v.from_flam3()) all.push_back(v);
    REQUIRE(all.size() == 99);
    const std::string dir = fj::test::scratch_dir("variation-images");
    fj::test::write_file(dir + "/template.flam3", kTemplate);

    // Two workers, each running its processes one at a time (nthreads=1, --threads 1).
    const auto start = std::chrono::steady_clock::now();
    std::vector<Outcome> outcomes(all.size());
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i; (i = next++) < all.size();) {
            try {
                outcomes[i] = judge(all[i], dir);
            } catch (const std::exception& e) {  // unreadable or mismatched images
                outcomes[i].info = &all[i];
                outcomes[i].error = e.what();
            }
        }
    };
    std::thread second(worker);
    worker();
    second.join();
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

    std::printf("%3s  %-14s %5s %6s %6s %7s   %7s %7s %7s %7s %6s   %s\n", "id", "name", "seed", "xforms", "lit", "|A-B|",
                "R", "R1", "R2", "level%", "A-B %", "verdict");
    int failed = 0;
    for (const Outcome& o : outcomes) {
        const bool ok = o.error.empty() && o.fidelity.ratio <= kMaxRatio;
        failed += !ok;
        std::printf("%3d  %-14s %5d %6d %5.1f%% %7.3f   %7.3f %7.3f %7.3f %+7.2f %6.2f   %s\n", o.info->id,
                    o.info->name.c_str(), o.seed, o.xforms, 100 * o.lit, o.fidelity.error_ab, o.fidelity.ratio,
                    o.fidelity.ratio_a, o.fidelity.ratio_b, 100 * o.level.shift, 100 * o.level.spread,
                    !o.error.empty() ? o.error.c_str() : ok ? "ok" : "RATIO ABOVE 1.3");
    }
    std::printf("%zu variations in %.1f s, %d failed\n", outcomes.size(), seconds, failed);
    for (const Outcome& o : outcomes) {
        CAPTURE(o.info->name);
        CHECK_MESSAGE(o.error.empty(), o.error);
        if (o.error.empty())
            CHECK_MESSAGE(o.fidelity.ratio <= kMaxRatio, o.info->name << " (genome seed " << o.seed << "): ratio "
                                                                       << o.fidelity.ratio);
    }
}
