// flamejit — motion blur: flam3's temporal filters, and one kernel structure per blurred frame.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <set>
#include <vector>

#include "codegen/param_layout.h"
#include "errors.h"
#include "genome/flam3_reader.h"
#include "image/png_io.h"
#include "pipeline/frame_batch.h"
#include "pipeline/frame_structure.h"
#include "pipeline/prepared_frame.h"
#include "pipeline/temporal_filter.h"
#include "test_support.h"

// libflam3 exports its temporal filter without declaring it in flam3.h.
extern "C" double flam3_create_temporal_filter(int numsteps, int filter_type, double filter_exp, double filter_width,
                                               double** temporal_filter, double** temporal_deltas);

TEST_CASE("motion blur: temporal steps equal flam3_create_temporal_filter for every filter") {
    struct Case {
        fj::TemporalFilter type;
        int flam3_type;
        double exponent;
    };
    // flam3's ids: box 0, gaussian 1, exp 2.
    const Case cases[] = {{fj::TemporalFilter::Box, 0, 0},     {fj::TemporalFilter::Gaussian, 1, 0},
                          {fj::TemporalFilter::Exp, 2, 1.5},   {fj::TemporalFilter::Exp, 2, -2.5},
                          {fj::TemporalFilter::Exp, 2, 0}};
    for (const Case& c : cases)
        for (int steps : {1, 2, 3, 8, 1000})
            for (double width : {1.0, 0.4}) {
                CAPTURE(static_cast<int>(c.type));
                CAPTURE(c.exponent);
                CAPTURE(steps);
                double *weights = nullptr, *deltas = nullptr;
                const double sumfilt = flam3_create_temporal_filter(steps, c.flam3_type, c.exponent, width, &weights, &deltas);
                const fj::TemporalSteps ours = fj::make_temporal_steps(steps, c.type, c.exponent, width);
                REQUIRE(ours.weights.size() == static_cast<size_t>(steps));
                CHECK(ours.mean_weight == doctest::Approx(sumfilt).epsilon(1e-12));
                int bad = 0;
                for (int i = 0; i < steps; ++i)
                    if (std::fabs(ours.weights[i] - weights[i]) > 1e-12 || std::fabs(ours.offsets[i] - deltas[i]) > 1e-12)
                        ++bad;
                CHECK(bad == 0);
                std::free(weights);
                std::free(deltas);
            }
    CHECK_THROWS(fj::make_temporal_steps(0, fj::TemporalFilter::Box, 0, 1));
}

namespace {

const char* kStraddling = R"(<sequence>
  <flame time="0" size="48 32" scale="12" temporal_samples="9" palette_mode="linear">
    <xform weight="1" linear="1" coefs="0.5 0 0 0.5 0.2 0"/>
    <xform weight="1" spherical="1" coefs="0.5 0.1 0 0.5 -0.3 0.1" post="1 0 0 1 0.1 0"/>
    <color index="0" rgb="255 0 0"/><color index="255" rgb="0 0 255"/>
  </flame>
  <flame time="1" size="48 32" scale="14" temporal_samples="9" palette_mode="step">
    <xform weight="1" linear="1" coefs="0.5 0 0 0.5 0.2 0" chaos="1 0.5 1"/>
    <xform weight="1" julian="1" coefs="0.5 0.1 0 0.5 -0.3 0.1"/>
    <xform weight="0.5" swirl="1"/>
    <finalxform linear="1" coefs="0.9 0 0 0.9 0 0"/>
    <color index="0" rgb="0 255 0"/><color index="255" rgb="255 255 0"/>
  </flame>
  <flame time="2" size="48 32" scale="14" temporal_samples="9">
    <xform weight="1" linear="1"/><xform weight="1" spherical="1"/>
    <color index="0" rgb="0 255 0"/><color index="255" rgb="255 255 0"/>
  </flame>
</sequence>)";

}  // namespace

TEST_CASE("motion blur: a frame straddling keyframes packs every time step for one kernel structure") {
    const std::vector<fj::Flame> seq = fj::read_flam3_string(kStraddling, "straddling");
    fj::FrameOptions options;
    for (double t : {0.0, 0.5, 1.0, 1.5, 2.0}) {
        CAPTURE(t);
        const fj::PreparedFrame frame = fj::prepare_animation_frame(seq, t, options);
        REQUIRE(frame.samples.size() == 9);
        // One pass of nine steps: the kernel that moves blocks between them.
        CHECK(frame.key.time_steps);
        // pack_params refuses a flame whose key differs: every block was packed for frame.key.
        for (const auto& s : frame.samples) CHECK(s.params.size() == static_cast<size_t>(frame.layout.total));
        // Equal box weights: each step asks for a ninth of the frame's samples.
        CHECK(frame.samples[4].samples == frame.plan.samples / 9);
        CHECK(frame.samples.front().time == doctest::Approx(t - 0.5));
        CHECK(frame.samples.back().time == doctest::Approx(t + 0.5));
    }
    // Frame 1 straddles the keyframe: steps before it have 2 padded xforms, after it 3 and a final.
    const fj::PreparedFrame middle = fj::prepare_animation_frame(seq, 1.0, options);
    CHECK(middle.key.xforms.size() == 3);
    CHECK(middle.key.has_final);
    CHECK(middle.key.xaos);
    // The frame centre's palette mode: time 1 ends the segment from keyframe 0,
    // whose mode flam3 takes.
    CHECK(middle.key.palette_mode == fj::PaletteMode::Linear);
    // One step per frame: the still's kernel.
    options.temporal_samples = 1;
    CHECK(!fj::prepare_animation_frame(seq, 1.0, options).key.time_steps);
}

TEST_CASE("motion blur: conforming a flame to a larger structure changes no packed value") {
    const std::vector<fj::Flame> seq = fj::read_flam3_string(kStraddling, "straddling");
    const fj::Flame& plain = seq[0];
    const fj::FrameStructure s = fj::union_structure({&seq[0], &seq[1]}, plain.palette_mode);
    const fj::Flame c = fj::conform(plain, s);
    const fj::KernelKey key = fj::make_kernel_key(c, {});
    const fj::ParamLayout layout = fj::make_param_layout(key, fj::VariationRegistry::standard());
    const double camera[6] = {1, 0, 0, 0, 1, 0};
    const std::vector<float> block = fj::pack_params(c, key, layout, camera);
    // The marker post affine of xform 0 (identity in the flame) packs as the identity.
    const float* post = block.data() + layout.xforms[0].base + fj::XformLayout::kPost;
    CHECK(post[0] == 1.0f);
    CHECK(post[1] == 0.0f);
    CHECK(post[4] == 1.0f);
    // The padded xform is never selected: its cumulative weight adds nothing.
    CHECK(block[layout.select + 1] == 1.0f);
    CHECK(block[layout.select + 2] == 1.0f);
    // The added final xform is never applied.
    CHECK(block[layout.final_xform.base + fj::XformLayout::kVisibility] == 0.0f);
    // Added variations weigh nothing: julian (id 32), from keyframe 1's second xform.
    CHECK(key.xforms[1].variations.size() == 2);
    int added = 0;
    for (size_t v = 0; v < key.xforms[1].variations.size(); ++v)
        if (key.xforms[1].variations[v].id != 2) {  // spherical, the flame's own
            ++added;
            CHECK(block[layout.xforms[1].base + layout.xforms[1].weight_offset[v]] == 0.0f);
        }
    CHECK(added == 1);

    // The flame packed for its own structure: every value it has is the
    // conformed block's, where the larger layout puts it.
    const fj::VariationRegistry& registry = fj::VariationRegistry::standard();
    const fj::KernelKey own_key = fj::make_kernel_key(plain, {});
    const fj::ParamLayout own = fj::make_param_layout(own_key, registry);
    const std::vector<float> alone = fj::pack_params(plain, own_key, own, camera);
    REQUIRE(own.xform_count == 2);
    REQUIRE(layout.xform_count == 3);
    int compared = 0, differing = 0;
    const auto same = [&](int at_alone, int at_block) {
        ++compared;
        differing += alone[at_alone] != block[at_block];
    };
    for (int i = 0; i < fj::ParamLayout::kCameraSize; ++i) same(fj::ParamLayout::kCamera + i, fj::ParamLayout::kCamera + i);
    for (int k = 0; k < own.xform_count; ++k) same(own.select + k, layout.select + k);  // the first step's row
    for (int i = 0; i < 256 * 4; ++i) same(own.palette + i, layout.palette + i);
    for (int x = 0; x < own.xform_count; ++x) {
        const fj::XformLayout& a = own.xforms[x];
        const fj::XformLayout& b = layout.xforms[x];
        for (int i = 0; i < fj::XformLayout::kVariations; ++i) same(a.base + i, b.base + i);  // affines, colour
        for (size_t v = 0; v < own_key.xforms[x].variations.size(); ++v) {
            const int id = own_key.xforms[x].variations[v].id;
            const auto& slots = key.xforms[x].variations;
            const auto slot = std::find_if(slots.begin(), slots.end(), [&](const auto& s) { return s.id == id; });
            REQUIRE(slot != slots.end());
            const size_t w = slot - slots.begin();
            same(a.base + a.weight_offset[v], b.base + b.weight_offset[w]);
            for (int p = 0; p < static_cast<int>(registry.by_id(id)->params.size()); ++p)
                same(a.base + a.param_offset[v] + p, b.base + b.param_offset[w] + p);
        }
    }
    // Camera, the first step's row, palette, and per xform its affines and
    // colour and one weight (linear and spherical have no parameters).
    CHECK(compared == fj::ParamLayout::kCameraSize + 2 + 1024 + 2 * (16 + 1));
    CHECK(differing == 0);
}

TEST_CASE("batch: frame ranges, shards that partition them, output patterns, complete PNGs") {
    CHECK(fj::parse_frame_range("3:9:2").frames() == std::vector<long long>{3, 5, 7, 9});
    CHECK(fj::parse_frame_range("-2:1").frames() == std::vector<long long>{-2, -1, 0, 1});
    CHECK_THROWS_AS(fj::parse_frame_range("5:2"), fj::InputError);
    CHECK_THROWS_AS(fj::parse_frame_range("1:5:0"), fj::InputError);
    CHECK_THROWS_AS(fj::parse_frame_range("1-5"), fj::InputError);
    // Ranges at the ends of a long long, without overflow; at most 10^8 frames.
    const long long most = std::numeric_limits<long long>::max(), least = std::numeric_limits<long long>::min();
    CHECK(fj::parse_frame_range("0:9223372036854775807:9223372036854775807").frames() == std::vector<long long>{0, most});
    CHECK(fj::parse_frame_range("9223372036854775806:9223372036854775807:5").frames() ==
          std::vector<long long>{most - 1});
    CHECK(fj::frame_range(least, least + 2, 1, "x").frames() == std::vector<long long>{least, least + 1, least + 2});
    CHECK_THROWS_WITH(fj::parse_frame_range("-9223372036854775808:9223372036854775807"),
                      doctest::Contains("more than 10^8 frames"));
    CHECK_NOTHROW(fj::parse_frame_range("1:100000000"));
    CHECK_THROWS_AS(fj::parse_frame_range("0:100000000"), fj::InputError);
    CHECK_THROWS_AS(fj::parse_shard("3/3"), fj::InputError);
    CHECK_THROWS_AS(fj::parse_shard("0/0"), fj::InputError);
    for (int total : {1, 5, 17, 100})
        for (int n : {1, 2, 3, 7, 40}) {
            std::vector<long long> frames;
            for (int i = 0; i < total; ++i) frames.push_back(10 + 3 * i);
            std::multiset<long long> seen;
            for (int i = 0; i < n; ++i)
                for (long long f : fj::shard_frames(frames, {i, n})) seen.insert(f);
            CAPTURE(total);
            CAPTURE(n);
            CHECK(seen == std::multiset<long long>(frames.begin(), frames.end()));
        }
    CHECK(fj::format_output("out/f%05d.png", 42) == "out/f00042.png");
    CHECK(fj::format_output("a%%b%d.png", 7) == "a%b7.png");
    CHECK_THROWS_AS(fj::check_output_pattern("frame.png"), fj::InputError);
    CHECK_THROWS_AS(fj::check_output_pattern("f%d_%d.png"), fj::InputError);
    CHECK_THROWS_AS(fj::check_output_pattern("f%s.png"), fj::InputError);

    const std::string dir = fj::test::scratch_dir("pngcomplete");
    fj::ImageF image;
    image.width = 40;
    image.height = 30;
    image.rgba.assign(40 * 30 * 4, 100.0f);
    fj::write_png(dir + "/a.png", image);
    CHECK(fj::image_complete(dir + "/a.png", 40, 30));
    CHECK_FALSE(fj::image_complete(dir + "/a.png", 41, 30));
    CHECK_FALSE(fj::image_complete(dir + "/absent.png", 40, 30));
    const std::string bytes = fj::test::read_file(dir + "/a.png");
    fj::test::write_file(dir + "/cut.png", bytes.substr(0, bytes.size() - 20));
    CHECK_FALSE(fj::image_complete(dir + "/cut.png", 40, 30));
}
