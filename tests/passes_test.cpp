// flamejit — flam3's passes and its count channel: prepared frames, the CPU backend's counts, the post-pass.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The references are flam3 3.1.1's formulas (reference/flam3-behaviour.md
// §3.4, §3.7, §3.8, §3.12), worked out here independently of the code: k1
// and k2 with passes and the temporal filter's mean weight, what a hit adds
// to the count and alpha channels, and how passes add after log scaling.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "cpu/cpu_backend.h"
#include "genome/flam3_reader.h"
#include "pipeline/frame_plan.h"
#include "pipeline/prepared_frame.h"
#include "post/post_cpu.h"
#include "post/post_plan.h"
#include "test_support.h"

namespace {

using fj::test::quoted;

// A still whose <flame> attributes and colour alpha the cases choose.
fj::Flame still(const std::string& attributes, int alpha, const std::string& second_xform = "") {
    const std::string a = std::to_string(alpha);
    const std::string xml = "<flame size=\"64 48\" scale=\"20\" quality=\"4\" " + attributes +
                            "><xform weight=\"1\" linear=\"1\" color=\"0\" coefs=\"0.5 0 0 0.5 0.3 0\"/>"
                            "<xform weight=\"1\" spherical=\"1\" color=\"1\"/>" + second_xform +
                            "<color index=\"0\" rgb=\"255 128 0\" a=\"" + a + "\"/>"
                            "<color index=\"255\" rgb=\"0 64 255\" a=\"" + a + "\"/></flame>";
    return fj::read_flam3_string(xml, "passes test").at(0);
}

float packed_alpha(const fj::PreparedFrame& f, size_t sample, int entry) {
    return f.samples[sample].params[f.layout.palette + 4 * entry + 3];
}

}  // namespace

TEST_CASE("passes: a still of 3 passes has flam3's k1, k2, sample split and temporal weights") {
    // flam3-render renders one temporal sample per pass, with the temporal
    // filter over the passes: gaussian weights for n = 3 steps are
    // exp(-2x²) at x = 1.5·|i − 1.5|/1.5, i.e. x = 1.5, 0.5, 0.5, over the largest.
    const fj::Flame flame = still("passes=\"3\" temporal_filter_type=\"gaussian\" brightness=\"3\" estimator_radius=\"5\"", 255);
    const fj::PreparedFrame f = fj::prepare_still(flame, {});
    REQUIRE(f.passes.size() == 3);
    REQUIRE(f.samples.size() == 3);
    // A step per pass: the still's kernel, one iterate call per pass.
    CHECK_FALSE(f.key.time_steps);
    const double w0 = std::exp(-2 * 1.5 * 1.5) / std::exp(-2 * 0.5 * 0.5);
    const double sumfilt = (w0 + 1 + 1) / 3;
    const double area = 64.0 * 48 / (20.0 * 20);
    for (int p = 0; p < 3; ++p) {
        CAPTURE(p);
        CHECK(f.passes[p].first == static_cast<size_t>(p));
        CHECK(f.passes[p].count == 1);
        CHECK(f.passes[p].k1 == doctest::Approx(3 * 255.0 * 268 / 256 / 3));
        CHECK(f.passes[p].k2 == doctest::Approx(1.0 * 3 / (area * 255 * 4 * sumfilt)));
        CHECK(f.samples[p].samples == f.plan.samples / 3);
        CHECK(f.passes[p].estimator_radius == 5);
    }
    CHECK(f.samples[0].weight == doctest::Approx(w0));
    CHECK(f.samples[1].weight == doctest::Approx(1));
    // The weight scales the colours a step deposits (alpha included)...
    CHECK(packed_alpha(f, 0, 0) == doctest::Approx(255 * w0));
    CHECK(packed_alpha(f, 1, 0) == doctest::Approx(255));
    // ...but not flam3's counts, so with DE on the frame keeps a count channel.
    CHECK(f.key.density_count);
    CHECK(f.key.canonical().find("count=1") != std::string::npos);

    // One pass is flam3's plain k1 and k2.
    const fj::PreparedFrame one = fj::prepare_still(still("brightness=\"3\"", 255), {});
    REQUIRE(one.passes.size() == 1);
    CHECK(one.passes[0].k1 == doctest::Approx(3 * 255.0 * 268 / 256));
    CHECK(one.passes[0].k2 == doctest::Approx(1.0 / (area * 255 * 4)));
    CHECK(one.samples[0].samples == one.plan.samples);
}

TEST_CASE("count channel: kept exactly when a palette alpha or temporal weight is not 1 and DE is on") {
    // Box weights are all 1: 2 passes of an opaque palette need no counts.
    CHECK_FALSE(fj::prepare_still(still("passes=\"2\" estimator_radius=\"9\"", 255), {}).key.density_count);
    CHECK(fj::prepare_still(still("estimator_radius=\"9\"", 128), {}).key.density_count);
    // Without DE (radius 0, or a bank of one kernel) nothing reads counts.
    CHECK_FALSE(fj::prepare_still(still("estimator_radius=\"0\"", 128), {}).key.density_count);
    CHECK_FALSE(fj::prepare_still(still("estimator_radius=\"2\" estimator_minimum=\"2\"", 128), {}).key.density_count);
    // Opacity alone changes both channels alike (visibility·255 each).
    CHECK_FALSE(fj::prepare_still(still("estimator_radius=\"9\"", 255, "<xform weight=\"1\" linear=\"1\" opacity=\"0.5\"/>"), {})
                    .key.density_count);
}

TEST_CASE("count channel: flamejit compile reports the key render uses, count flag included") {
    const std::string dir = fj::test::scratch_dir("compile-count");
    const std::string genome = dir + "/alpha.flam3";
    fj::test::write_file(genome, "<flame size=\"64 48\" estimator_radius=\"9\"><xform weight=\"1\" linear=\"1\"/>"
                                 "<color index=\"0\" rgb=\"255 128 0\" a=\"128\"/></flame>");
    const auto r = fj::test::run_command(quoted(fj::test::flamejit_binary()) + " compile " +
                                         quoted(genome) + " --arch sm_90");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(r.output.find("count=1") != std::string::npos);
}

TEST_CASE("passes: an animation frame splits its steps into passes with their own estimator, curve and brightness") {
    // Two keyframes 10 apart whose estimator and brightness move linearly;
    // 2 passes of 3 temporal samples over a filter width of 1 around time 5.
    const std::string body = "<xform weight=\"1\" linear=\"1\" coefs=\"0.5 0 0 0.5 0.3 0\"/><xform weight=\"1\" spherical=\"1\"/>"
                             "<color index=\"0\" rgb=\"255 128 0\"/><color index=\"255\" rgb=\"0 64 255\"/>";
    const std::string xml =
        "<s><flame time=\"0\" size=\"64 48\" scale=\"20\" quality=\"6\" passes=\"2\" temporal_samples=\"3\" "
        "estimator_radius=\"9\" estimator_curve=\"0.4\" brightness=\"2\">" + body + "</flame>"
        "<flame time=\"10\" size=\"64 48\" scale=\"20\" quality=\"6\" passes=\"2\" temporal_samples=\"3\" "
        "estimator_radius=\"4\" estimator_curve=\"0.9\" brightness=\"7\">" + body + "</flame></s>";
    const std::vector<fj::Flame> seq = fj::read_flam3_string(xml, "animated passes");
    const fj::PreparedFrame f = fj::prepare_animation_frame(seq, 5.0, {});
    REQUIRE(f.samples.size() == 6);
    REQUIRE(f.passes.size() == 2);
    auto at = [](double t, double v0, double v1) { return v0 + (v1 - v0) * t / 10; };
    // Step i is at 5 + (i/5 − 0.5): pass 0 holds steps 0–2, pass 1 steps 3–5.
    const double t_first[2] = {4.5, 5.1}, t_last[2] = {4.9, 5.5};
    for (int p = 0; p < 2; ++p) {
        CAPTURE(p);
        CHECK(f.passes[p].first == static_cast<size_t>(3 * p));
        CHECK(f.passes[p].count == 3);
        CHECK(f.samples[3 * p].time == doctest::Approx(t_first[p]));
        CHECK(f.passes[p].estimator_radius == doctest::Approx(at(t_first[p], 9, 4)));
        CHECK(f.passes[p].estimator_curve == doctest::Approx(at(t_first[p], 0.4, 0.9)));
        CHECK(f.passes[p].select_curve == doctest::Approx(at(t_last[p], 0.4, 0.9)));
        CHECK(f.passes[p].k1 == doctest::Approx(at(t_last[p], 2, 7) * 255 * 268 / 256 / 2));
        CHECK(f.samples[3 * p].samples == f.plan.samples / 6);
    }
}

TEST_CASE("count channel: the CPU backend adds visibility·255 per hit to counts, blind to palette alpha") {
    // Palette alpha 128/255 and one xform at opacity 0.5: a hit of the
    // opaque xforms adds 255 to the count and 128 to alpha; one of the third
    // (visibility 0.5^3.3219 ≈ 0.1) adds floor(0.1·255) = 25 and floor(0.1·128) = 12.
    const fj::Flame flame = still("estimator_radius=\"9\"", 128, "<xform weight=\"1\" linear=\"1\" opacity=\"0.5\" coefs=\"0.5 0 0 0.5 -0.3 0\"/>");
    const fj::PreparedFrame f = fj::prepare_still(flame, {});
    REQUIRE(f.key.density_count);
    auto backend = fj::make_cpu_backend({2});
    backend->begin_frame(f.plan);
    fj::IterationRequest req;
    req.flame = &f.post_flame;
    req.key = &f.key;
    req.layout = &f.layout;
    req.plan = &f.plan;
    req.steps = {{&f.samples[0].params, 200000}};
    req.seed = 3;
    const fj::IterationStats stats = backend->iterate(req);
    const std::span<const float> accum = fj::cpu_accumulator(*backend);
    const std::span<const float> counts = fj::cpu_counts(*backend);
    REQUIRE(counts.size() * 4 == accum.size());
    const double visibility = std::pow(0.5, 3.3219);
    const int dim_count = static_cast<int>(visibility * 255), dim_alpha = static_cast<int>(visibility * 128);
    REQUIRE(dim_count == 25);
    REQUIRE(dim_alpha == 12);
    double total = 0;
    long long bad_cells = 0, mixed_cells = 0;
    for (size_t n = 0; n < counts.size(); ++n) {
        const long long c = std::llround(counts[n]), a = std::llround(accum[4 * n + 3]);
        total += counts[n];
        // c = 255·bright + 25·dim and a = 128·bright + 12·dim for whole
        // numbers of hits: solve for them and check both are whole and ≥ 0.
        const long long det = 255 * 12 - 25 * 128;  // −140
        const long long bright_x = c * 12 - 25 * a, dim_x = 255 * a - 128 * c;
        if (bright_x % det || dim_x % det || bright_x / det < 0 || dim_x / det < 0) ++bad_cells;
        if (bright_x / det > 0 && dim_x / det > 0) ++mixed_cells;
    }
    CHECK(bad_cells == 0);
    CHECK(mixed_cells > 0);
    // Every plotted sample inside the histogram counted; most land there.
    CHECK(total <= 255.0 * static_cast<double>(stats.samples));
    CHECK(total > 0.5 * 255.0 * static_cast<double>(stats.samples));

    // A frame whose key does not ask keeps no counts.
    const fj::PreparedFrame opaque = fj::prepare_still(still("estimator_radius=\"9\"", 255), {});
    backend->begin_frame(opaque.plan);
    req.key = &opaque.key;
    req.layout = &opaque.layout;
    req.steps = {{&opaque.samples[0].params, 1000}};
    backend->iterate(req);
    CHECK(fj::cpu_counts(*backend).empty());
}

TEST_CASE("post cpu: density estimation picks kernels by the count channel when there is one") {
    fj::Flame f;
    f.width = 40;
    f.height = 30;
    f.scale = 10;
    f.quality = 1;
    f.supersample = 1;
    f.estimator_radius = 6;
    const fj::FramePlan plan = fj::plan_frame(f);
    const fj::PostPlan post = fj::make_post_plan(f, plan);
    REQUIRE(post.density.kernel_count > 10);
    const size_t cells = size_t(plan.hist_width) * plan.hist_height;
    const size_t centre = size_t(plan.de_offset + 15) * plan.hist_width + plan.de_offset + 20;
    // Ten hits of palette alpha 0.1: alpha 10·25 = 250, counts 10·255.
    std::vector<float> faint(4 * cells, 0.0f), counts(cells, 0.0f), opaque(4 * cells, 0.0f);
    for (int i = 0; i < 4; ++i) faint[4 * centre + i] = 250;
    counts[centre] = 2550;
    for (int i = 0; i < 4; ++i) opaque[4 * centre + i] = 2550;
    auto footprint = [&](const fj::ImageF& img) {
        int n = 0;
        for (size_t p = 0; p < img.rgba.size(); p += 4) n += img.rgba[p + 3] > 0;
        return n;
    };
    const int by_counts = footprint(fj::post_process_cpu(post, fj::HistogramView{faint.data(), counts.data()}, nullptr, 2));
    const int by_alpha = footprint(fj::post_process_cpu(post, faint.data(), 2));
    const int ten_hits = footprint(fj::post_process_cpu(post, opaque.data(), 2));
    // flam3 counts ten hits (kernel 9) whatever their alpha; from alpha the
    // cell would look like one hit and take the widest kernel.
    CHECK(by_counts == ten_hits);
    CHECK(by_alpha > by_counts);
}

TEST_CASE("post cpu: passes are log-scaled separately and summed before tone mapping") {
    fj::Flame f;
    f.width = 4;
    f.height = 3;
    f.scale = 2;
    f.quality = 5;
    f.filter_shape = fj::FilterShape::Box;  // one tap of weight 1
    f.filter_radius = 0.5;
    f.estimator_radius = 0;
    f.gamma = 2.5;
    const fj::FramePlan plan = fj::plan_frame(f);
    fj::PostPlan post = fj::make_post_plan(f, plan);
    post.k1 = 50;
    post.k2 = 0.002;
    const size_t cell = 1 * 4 + 2;
    std::vector<float> first(4 * 12, 0.0f), second(4 * 12, 0.0f), sum(4 * 12, 0.0f);
    first[4 * cell + 3] = first[4 * cell] = 255 * 3;
    second[4 * cell + 3] = second[4 * cell] = 255 * 40;
    fj::scale_pass_cpu(post, {first.data(), nullptr}, sum.data(), 2);
    const fj::ImageF img = fj::post_process_cpu(post, {second.data(), nullptr}, sum.data(), 2);
    // flam3: each pass adds k1·ln(1 + k2·a) to the accumulated alpha.
    const double scaled = 50 * (std::log1p(0.002 * 255 * 3) + std::log1p(0.002 * 255 * 40));
    CHECK(img.rgba[4 * cell + 3] == doctest::Approx(std::min(1.0, std::pow(scaled / 255, 1 / 2.5))).epsilon(1e-5));
    REQUIRE(scaled / 255 < 1);  // below alpha's clamp, so the comparison below means something
    // One pass of the summed hits is dimmer than two passes: ln(1 + x + y) <
    // ln(1 + x) + ln(1 + y), so passes are not more quality.
    std::vector<float> both(4 * 12, 0.0f);
    both[4 * cell + 3] = both[4 * cell] = 255 * 43;
    const fj::ImageF merged = fj::post_process_cpu(post, both.data(), 2);
    CHECK(merged.rgba[4 * cell + 3] < img.rgba[4 * cell + 3]);
}
