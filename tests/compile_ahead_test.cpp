// SPDX-License-Identifier: GPL-3.0-or-later
// Compiling an animation's kernels ahead (pipeline/compile_ahead.h): the
// frame signatures that pick which frames to compile, checked against the
// kernel keys of the frames themselves. (The compiles themselves:
// gpu_backend_test, on a device or the emulator.)
#include <doctest/doctest.h>

#include <map>
#include <set>
#include <string>
#include <vector>

#include "codegen/param_layout.h"
#include "genome/flam3_reader.h"
#include "genome/interpolate.h"
#include "pipeline/compile_ahead.h"
#include "pipeline/prepared_frame.h"
#include "test_support.h"

namespace {

// genomes/three-structures.flam3: one linear xform at time 0; spherical
// and julia at 4; swirl under a final xform at 8. Interpolation pads each
// interval to the union of its ends: two structures, and a third for
// motion-blurred frames that straddle the keyframe at 4.
std::vector<fj::Flame> three_structures() {
    return fj::read_flam3_file(fj::test::source_path("genomes/three-structures.flam3"));
}

std::vector<double> frame_times() {
    std::vector<double> t;
    for (int n = -1; n <= 9; ++n) t.push_back(n);
    for (double x : {0.5, 3.75, 4.25, 7.999}) t.push_back(x);
    return t;
}

}  // namespace

TEST_CASE("compile ahead: frames of one signature have one kernel key, with and without motion blur") {
    const std::vector<fj::Flame> keys = three_structures();
    for (int temporal : {1, 8}) {
        CAPTURE(temporal);
        fj::FrameOptions options;
        options.temporal_samples = temporal;
        std::map<std::vector<int>, std::string> key_of;
        std::set<std::string> structures;
        for (double t : frame_times()) {
            CAPTURE(t);
            const std::vector<int> signature = fj::structure_signature(keys, t, options);
            REQUIRE(!signature.empty());
            const std::string key = fj::prepare_animation_frame(keys, t, options).key.canonical();
            structures.insert(key);
            const auto [it, fresh] = key_of.emplace(signature, key);
            CHECK(it->second == key);  // never two structures under one signature
        }
        // The two intervals, and with motion blur the frames that straddle
        // the keyframe between them; one signature more per interval for
        // the frames whose centres lie on either side of a straddled keyframe.
        CHECK(structures.size() == (temporal == 1 ? 2u : 3u));
        CHECK(key_of.size() == (temporal == 1 ? 2u : 4u));
    }
    // A frame exactly on a keyframe takes the interval that ends there; one
    // just after it the next; outside, the first and last.
    fj::FrameOptions still;
    still.temporal_samples = 1;
    CHECK(fj::structure_signature(keys, 4, still) == std::vector<int>{0, 0});
    CHECK(fj::structure_signature(keys, 4.25, still) == std::vector<int>{1, 1});
    CHECK(fj::structure_signature(keys, -1, still) == std::vector<int>{0, 0});
    CHECK(fj::structure_signature(keys, 9, still) == std::vector<int>{1, 1});
    // Out-of-range temporal samples: no signature (the render reports them).
    fj::FrameOptions too_many;
    too_many.temporal_samples = fj::kMaxTimeSamples + 1;
    CHECK(fj::structure_signature(keys, 2, too_many).empty());
}

TEST_CASE("compile ahead: a rare xform spreads over the lanes in the keyframe segments it is in, whatever the weights between") {
    // Keyframe 0 draws its second xform with probability about 1/200, the
    // others with 1/2 (codegen/param_layout.h, kSpreadBelow). The weights
    // in between pass 1/16 early in segment 0, but the segment's frames keep
    // one key: the lazy selection, which segment 1's frames do without.
    const char* xml = R"(<sequence>
  <flame time="0" size="40 30" scale="10" quality="2" temporal_samples="1">
    <xform weight="1" linear="1" coefs="0.5 0 0 0.5 0.2 0"/>
    <xform weight="0.005" linear="1" coefs="0.5 0 0 0.5 -0.2 0"/>
  </flame>
  <flame time="4" size="40 30" scale="10" quality="2" temporal_samples="1">
    <xform weight="1" linear="1" coefs="0.5 0 0 0.5 0.2 0.1"/>
    <xform weight="1" linear="1" coefs="0.5 0 0 0.5 -0.2 0.1"/>
  </flame>
  <flame time="8" size="40 30" scale="10" quality="2" temporal_samples="1">
    <xform weight="1" linear="1" coefs="0.5 0 0 0.5 0.2 0"/>
    <xform weight="2" linear="1" coefs="0.5 0 0 0.5 -0.2 0"/>
  </flame>
</sequence>)";
    const std::vector<fj::Flame> keys = fj::read_flam3_string(xml, "rare.flam3");
    REQUIRE(keys.size() == 3);
    for (int temporal : {1, 8}) {
        CAPTURE(temporal);
        fj::FrameOptions options;
        options.temporal_samples = temporal;
        std::map<std::vector<int>, std::string> key_of;
        for (double t : frame_times()) {
            CAPTURE(t);
            const fj::PreparedFrame frame = fj::prepare_animation_frame(keys, t, options);
            const std::vector<int> signature = fj::structure_signature(keys, t, options);
            // Lazy wherever a time step falls in segment 0.
            CHECK(frame.key.xaos == (signature[1] == 0));
            const auto [it, fresh] = key_of.emplace(signature, frame.key.canonical());
            CHECK(it->second == frame.key.canonical());
        }
    }
    fj::FrameOptions still;
    still.temporal_samples = 1;
    CHECK(fj::prepare_animation_frame(keys, 0, still).key.xaos);
    CHECK(fj::prepare_animation_frame(keys, 3.75, still).key.xaos);
    CHECK_FALSE(fj::prepare_animation_frame(keys, 4.25, still).key.xaos);
    CHECK_FALSE(fj::has_rare_xform(fj::interpolate(keys, 2)));  // the reason it is decided per segment
    // Draws per thread (divergent, sorted) come in no bursts: no lazy
    // selection, for a still or a frame of segment 0.
    CHECK(fj::prepare_still(keys[0], still).key.xaos);
    for (fj::Shuffle shuffle : {fj::Shuffle::Divergent, fj::Shuffle::Sorted}) {
        CAPTURE(fj::to_string(shuffle));
        still.kernel.shuffle = shuffle;
        CHECK_FALSE(fj::prepare_animation_frame(keys, 0, still).key.xaos);
        CHECK_FALSE(fj::prepare_still(keys[0], still).key.xaos);
    }
}
