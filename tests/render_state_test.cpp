// SPDX-License-Identifier: GPL-3.0-or-later
// Render state (pipeline/render_state.h) on the CPU backend: a saved
// histogram tone-maps again to the first render's image with new tone
// values, resumes to a higher quality with fresh streams as close to a direct
// render as two direct renders are to each other, sums parts rendered apart
// into the whole, and refuses other frames, parts that share samples and
// damaged files.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "errors.h"
#include "genome/flam3_reader.h"
#include "image/fidelity.h"
#include "image/png_io.h"
#include "pipeline/renderer.h"
#include "test_support.h"

namespace {

fj::Flame state_flame() {
    fj::Flame f = fj::read_flam3_file(fj::test::source_path("genomes/default.flam3")).at(0);
    f.scale *= 160.0 / f.width;
    f.width = 160;
    f.height = 120;
    f.quality = 10;
    return f;
}

fj::Renderer cpu_renderer() {
    fj::RenderOptions options;
    options.backend = fj::BackendChoice::Cpu;
    options.threads = 2;
    return fj::Renderer(options);
}

// The image as its 8-bit PNG reads back, for the fidelity measures.
fj::PngImage as_png(const fj::ImageF& image, const std::string& path) {
    fj::write_png(path, image);
    return fj::read_png(path);
}

}  // namespace

TEST_CASE("render state: a saved histogram tone-maps again to the image a direct render gives") {
    fj::Renderer renderer = cpu_renderer();
    fj::Flame flame = state_flame();
    fj::RenderState saved;
    const fj::PreparedFrame frame = fj::prepare_still(flame, renderer.frame_options());
    const fj::RenderResult first = renderer.render(frame, 3, nullptr, &saved);
    CHECK(saved.runs == 1);
    CHECK(saved.plotted == first.stats.samples);
    CHECK(first.histogram_samples == first.stats.samples);
    CHECK(saved.rgba.size() == size_t(4) * frame.plan.hist_width * frame.plan.hist_height);

    // New tone values: the post-pass alone reads them.
    flame.gamma = 2.2;
    flame.brightness = 7;
    flame.vibrancy = 0.4;
    flame.background[2] = 0.3;
    const fj::PreparedFrame toned = fj::prepare_still(flame, renderer.frame_options());
    const fj::RenderResult again = renderer.render(toned, 99, &saved, nullptr);
    CHECK(again.stats.samples == 0);  // nothing iterated
    CHECK(again.histogram_samples == saved.plotted);
    const fj::RenderResult direct = renderer.render(toned, 3);
    REQUIRE(again.image.rgba.size() == direct.image.rgba.size());
    CHECK(std::memcmp(again.image.rgba.data(), direct.image.rgba.data(), direct.image.rgba.size() * sizeof(float)) == 0);
}

TEST_CASE("render state: resumed to a higher quality, as close to a direct render as two direct renders are") {
    const std::string dir = fj::test::scratch_dir("render-state");
    fj::Renderer renderer = cpu_renderer();
    fj::Flame flame = state_flame();
    fj::RenderState low, high;
    renderer.render(fj::prepare_still(flame, renderer.frame_options()), 5, nullptr, &low);
    flame.quality = 40;
    const fj::PreparedFrame frame = fj::prepare_still(flame, renderer.frame_options());
    const fj::RenderResult resumed = renderer.render(frame, 5, &low, &high);
    CHECK(low.requested == 10ull * 160 * 120);
    CHECK(high.requested == 40ull * 160 * 120);
    CHECK(resumed.stats.samples == doctest::Approx(30.0 * 160 * 120).epsilon(0.02));
    CHECK(resumed.histogram_samples == low.plotted + resumed.stats.samples);
    CHECK(high.plotted == resumed.histogram_samples);
    CHECK(high.runs == 2);
    // The resumed run drew streams of its own: its hits are not the first
    // run's again.
    size_t differing = 0;
    for (size_t i = 0; i < low.rgba.size(); ++i) differing += high.rgba[i] != 4 * low.rgba[i];
    CHECK(differing > low.rgba.size() / 100);

    const fj::PngImage a = as_png(renderer.render(frame, 11).image, dir + "/a.png");
    const fj::PngImage b = as_png(renderer.render(frame, 12).image, dir + "/b.png");
    const fj::PngImage c = as_png(resumed.image, dir + "/c.png");
    const double seeds_apart = fj::downsampled_mean_abs_difference(a, b);
    const double resumed_apart = fj::downsampled_mean_abs_difference(a, c);
    MESSAGE("direct renders differ by " << seeds_apart << ", resumed and direct by " << resumed_apart);
    CHECK(resumed_apart <= 1.25 * seeds_apart);
}

TEST_CASE("render state: another frame, several passes, and damaged files are refused") {
    const std::string dir = fj::test::scratch_dir("render-state-bad");
    fj::Renderer renderer = cpu_renderer();
    fj::Flame flame = state_flame();
    fj::RenderState saved;
    renderer.render(fj::prepare_still(flame, renderer.frame_options()), 5, nullptr, &saved);

    fj::Flame moved = flame;
    moved.xforms[1].affine.e += 0.01;
    CHECK_THROWS_WITH_AS(renderer.render(fj::prepare_still(moved, renderer.frame_options()), 5, &saved, nullptr),
                         doctest::Contains("the render state holds another frame"), fj::InputError);
    fj::Flame larger = flame;
    larger.width += 2;
    CHECK_THROWS_AS(renderer.render(fj::prepare_still(larger, renderer.frame_options()), 5, &saved, nullptr),
                    fj::InputError);
    fj::Flame passes = flame;
    passes.passes = 2;
    fj::RenderState unused;
    CHECK_THROWS_WITH_AS(renderer.render(fj::prepare_still(passes, renderer.frame_options()), 5, nullptr, &unused),
                         doctest::Contains("one pass"), fj::InputError);

    // The file round trip, then the same file damaged in its data, length,
    // kind and header.
    const std::string path = dir + "/s.fjstate";
    fj::write_render_state(path, saved);
    const fj::RenderState read = fj::read_render_state(path);
    CHECK(read.identity == saved.identity);
    CHECK(read.requested == saved.requested);
    CHECK(read.plotted == saved.plotted);
    CHECK(read.bad_values == saved.bad_values);
    CHECK(read.runs == saved.runs);
    CHECK(read.streams == std::vector<uint64_t>{5});
    CHECK(read.rgba == saved.rgba);
    CHECK(read.counts == saved.counts);
    const std::string bytes = fj::test::read_file(path);
    auto damaged = [&](const std::string& text, const char* expect) {
        fj::test::write_file(dir + "/bad.fjstate", text);
        CHECK_THROWS_WITH_AS(fj::read_render_state(dir + "/bad.fjstate"), doctest::Contains(expect), fj::InputError);
    };
    std::string flipped = bytes;
    flipped[flipped.size() - 3] ^= 0x40;
    damaged(flipped, "checksum does not match");
    damaged(bytes.substr(0, bytes.size() - 8), "cut short");
    // The header alone: the file's length is checked against it, the data's checksum is not.
    const fj::RenderState header = fj::read_render_state(path, false);
    CHECK(header.plotted == saved.plotted);
    CHECK(header.rgba.empty());
    fj::test::write_file(dir + "/bad.fjstate", flipped);
    CHECK_NOTHROW(fj::read_render_state(dir + "/bad.fjstate", false));
    fj::test::write_file(dir + "/bad.fjstate", bytes.substr(0, bytes.size() - 8));
    CHECK_THROWS_WITH_AS(fj::read_render_state(dir + "/bad.fjstate", false), doctest::Contains("cut short"),
                         fj::InputError);
    damaged("P\x89NG" + bytes.substr(4), "not a flamejit render state");
    // A count in the header changed: to another count, or to no count.
    const auto header_with = [&](const std::string& from, const std::string& to) {
        std::string text = bytes;
        const size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        return text.replace(at, from.size(), to);
    };
    const std::string plotted = "\"plotted\":" + std::to_string(saved.plotted);
    damaged(header_with(plotted, "\"plotted\":" + std::to_string(saved.plotted + 1)), "checksum does not match");
    damaged(header_with(plotted, "\"plotted\":-1"), "header is damaged");
    damaged(header_with(plotted, "\"plotted\":1e300"), "header is damaged");
    damaged(header_with("flamejit-render-state 3", "flamejit-render-state 1"), "earlier flamejit");
    // The runs' seeds are counted in the checksum, and no more of them than runs.
    const std::string streams = "\"streams\":[5]";
    damaged(header_with(streams, "\"streams\":[6]"), "checksum does not match");
    damaged(header_with(streams, "\"streams\":[5,6]"), "header is damaged");
    damaged(header_with(streams, "\"streams\":[-5]"), "header is damaged");
    CHECK_THROWS_WITH_AS(fj::read_render_state(dir + "/absent.fjstate"), doctest::Contains("cannot open"),
                         fj::InputError);
}

TEST_CASE("render state: parts rendered apart, each with a seed of its own, sum to the whole image") {
    const std::string dir = fj::test::scratch_dir("render-state-parts");
    fj::Renderer renderer = cpu_renderer();
    fj::Flame flame = state_flame();
    const fj::PreparedFrame part = fj::prepare_still(flame, renderer.frame_options());
    fj::RenderState a, b, again;
    renderer.render(part, 5, nullptr, &a);
    renderer.render(part, 6, nullptr, &b);
    renderer.render(part, 5, nullptr, &again);  // a's seed again: a's samples
    fj::write_render_state(dir + "/a.fjstate", a);
    fj::write_render_state(dir + "/b.fjstate", b);
    fj::write_render_state(dir + "/again.fjstate", again);

    const fj::RenderState sum = fj::read_render_states({dir + "/a.fjstate", dir + "/b.fjstate"});
    CHECK(sum.requested == a.requested + b.requested);
    CHECK(sum.plotted == a.plotted + b.plotted);
    CHECK(sum.bad_values == a.bad_values + b.bad_values);
    CHECK(sum.runs == 2);
    CHECK(sum.streams == std::vector<uint64_t>{5, 6});
    size_t unequal = 0;
    for (size_t i = 0; i < sum.rgba.size(); ++i) unequal += sum.rgba[i] != a.rgba[i] + b.rgba[i];
    CHECK(unequal == 0);

    // The sum at the parts' total quality iterates nothing, and its image is
    // as close to a direct render of that quality as two direct renders are;
    // the sum tone-mapped as if it held one part's samples is not.
    flame.quality = 20;
    const fj::PreparedFrame whole = fj::prepare_still(flame, renderer.frame_options());
    const fj::RenderResult summed = renderer.render(whole, 7, &sum, nullptr);
    CHECK(summed.stats.samples == 0);
    CHECK(summed.histogram_samples == a.plotted + b.plotted);
    const fj::PngImage x = as_png(renderer.render(whole, 11).image, dir + "/x.png");
    const fj::PngImage y = as_png(renderer.render(whole, 12).image, dir + "/y.png");
    const double seeds_apart = fj::downsampled_mean_abs_difference(x, y);
    const double summed_apart = fj::downsampled_mean_abs_difference(x, as_png(summed.image, dir + "/sum.png"));
    fj::RenderState miscounted = sum;
    miscounted.plotted = a.plotted;
    miscounted.requested = a.requested;
    const double miscounted_apart =
        fj::downsampled_mean_abs_difference(x, as_png(renderer.render(whole, 7, &miscounted, nullptr).image, dir + "/m.png"));
    MESSAGE("direct renders differ by " << seeds_apart << ", the sum and direct by " << summed_apart
                                        << ", the sum counted as one part and direct by " << miscounted_apart);
    CHECK(summed_apart <= 1.15 * seeds_apart);
    CHECK(miscounted_apart > 1.5 * seeds_apart);

    // Parts that share a run's streams would count its samples twice.
    CHECK_THROWS_WITH_AS(fj::read_render_states({dir + "/a.fjstate", dir + "/b.fjstate", dir + "/again.fjstate"}),
                         doctest::Contains(("again.fjstate: shares a run's samples with " + dir + "/a.fjstate").c_str()),
                         fj::InputError);
    // So do a state and one resumed from it.
    fj::RenderState resumed;
    renderer.render(whole, 8, &a, &resumed);
    CHECK(resumed.streams.size() == 2);
    fj::write_render_state(dir + "/resumed.fjstate", resumed);
    CHECK_THROWS_WITH_AS(fj::read_render_states({dir + "/resumed.fjstate", dir + "/a.fjstate"}),
                         doctest::Contains("shares a run's samples"), fj::InputError);
    // Another frame's part.
    fj::Flame moved = state_flame();
    moved.xforms[1].affine.e += 0.01;
    fj::RenderState other;
    renderer.render(fj::prepare_still(moved, renderer.frame_options()), 9, nullptr, &other);
    fj::write_render_state(dir + "/other.fjstate", other);
    CHECK_THROWS_WITH_AS(fj::read_render_states({dir + "/a.fjstate", dir + "/other.fjstate"}),
                         doctest::Contains("holds another frame than"), fj::InputError);

    // A state of format 2, which recorded no seeds, resumes alone but is not
    // summed with others.
    fj::RenderState unrecorded = a;
    unrecorded.streams.clear();
    fj::write_render_state(dir + "/f2.fjstate", unrecorded);
    std::string text = fj::test::read_file(dir + "/f2.fjstate");
    for (const auto& [from, to] : {std::pair<std::string, std::string>{"flamejit-render-state 3", "flamejit-render-state 2"},
                                   {",\"streams\":[]", ""}}) {
        const size_t at = text.find(from);
        REQUIRE(at != std::string::npos);
        text.replace(at, from.size(), to);
    }
    fj::test::write_file(dir + "/f2.fjstate", text);
    const fj::RenderState old = fj::read_render_state(dir + "/f2.fjstate");
    CHECK(old.runs == 1);
    CHECK(old.streams.empty());
    CHECK(old.rgba == a.rgba);
    CHECK_THROWS_WITH_AS(fj::read_render_states({dir + "/b.fjstate", dir + "/f2.fjstate"}),
                         doctest::Contains("format 2"), fj::InputError);
}

TEST_CASE("render state: an image in strips keeps a state per strip, each resumed as its strip of the whole") {
    const std::string dir = fj::test::scratch_dir("render-state-strips");
    fj::Renderer renderer = cpu_renderer();
    fj::Flame flame = state_flame();
    const fj::PreparedFrame frame = fj::prepare_still(flame, renderer.frame_options());
    const fj::StripPlan strips = renderer.plan_strips(frame, 3, 0);
    REQUIRE(strips.count == 3);
    // The image of strips whose states are saved, or resumed from `from`.
    const auto striped = [&](const fj::PreparedFrame& f, uint64_t seed, std::vector<fj::RenderState>* from,
                             std::vector<fj::RenderState>* to) {
        fj::ImageF image;
        if (to) to->resize(strips.count);
        for (int i = 0; i < strips.count; ++i) {
            const fj::RenderResult strip = renderer.render_strip(f, seed, strips, i, from ? &(*from)[i] : nullptr,
                                                                 to ? &(*to)[i] : nullptr);
            image.width = strip.image.width;
            image.height += strip.image.height;
            image.rgba.insert(image.rgba.end(), strip.image.rgba.begin(), strip.image.rgba.end());
        }
        return image;
    };
    std::vector<fj::RenderState> saved;
    striped(frame, 3, nullptr, &saved);
    // Each strip's state is its own: another strip's is refused.
    CHECK(saved[0].identity != saved[1].identity);
    CHECK(saved[0].plotted == saved[2].plotted);
    CHECK_THROWS_WITH_AS(renderer.render_strip(frame, 3, strips, 1, &saved[0], nullptr),
                         doctest::Contains("holds another frame"), fj::InputError);
    // Nor is the whole frame's a strip's.
    fj::RenderState whole;
    renderer.render(frame, 3, nullptr, &whole);
    CHECK(whole.identity != saved[0].identity);

    // New tone values: the states tone-map to the direct striped render, bit for bit.
    flame.gamma = 2.2;
    flame.brightness = 7;
    const fj::PreparedFrame toned = fj::prepare_still(flame, renderer.frame_options());
    const fj::ImageF again = striped(toned, 99, &saved, nullptr);
    const fj::ImageF direct = striped(toned, 3, nullptr, nullptr);
    REQUIRE(again.rgba.size() == direct.rgba.size());
    CHECK(std::memcmp(again.rgba.data(), direct.rgba.data(), direct.rgba.size() * sizeof(float)) == 0);

    // Resumed to four times the quality: as close to a direct render as two
    // direct renders are.
    flame.quality = 40;
    const fj::PreparedFrame higher = fj::prepare_still(flame, renderer.frame_options());
    const fj::PngImage resumed = as_png(striped(higher, 5, &saved, nullptr), dir + "/resumed.png");
    const fj::PngImage a = as_png(renderer.render(higher, 11).image, dir + "/a.png");
    const fj::PngImage b = as_png(renderer.render(higher, 12).image, dir + "/b.png");
    const double seeds_apart = fj::downsampled_mean_abs_difference(a, b);
    const double resumed_apart = fj::downsampled_mean_abs_difference(a, resumed);
    MESSAGE("direct renders differ by " << seeds_apart << ", resumed strips and direct by " << resumed_apart);
    CHECK(resumed_apart <= 1.25 * seeds_apart);
}

TEST_CASE("render state: on the CPU backend, strips are planned with room for a strip's states beside it") {
    fj::Renderer renderer = cpu_renderer();
    const fj::PreparedFrame frame = fj::prepare_still(state_flame(), renderer.frame_options());
    const fj::StripPlan whole = renderer.plan_strips(frame, 0, 1e12);
    REQUIRE(whole.count == 1);
    // A budget the frame fits in alone, but not with a resumed and a saved
    // state of 16 bytes a cell each.
    const double budget = whole.bytes + 16.0 * whole.cells;
    CHECK(renderer.plan_strips(frame, 0, budget).count == 1);
    const fj::StripPlan with_states = renderer.plan_strips(frame, 0, budget, 2);
    CHECK(with_states.count > 1);
    CHECK(with_states.bytes <= budget);
    CHECK(with_states.bytes >= renderer.plan_strips(frame, with_states.count, budget).bytes + 32.0 * with_states.cells);
}

TEST_CASE("render state: a folder of strips' states is strip-1-of-N to strip-N-of-N, and readied for another N") {
    const std::string dir = fj::test::scratch_dir("render-state-folder");
    CHECK(fj::strip_state_path(dir, 0, 3) == dir + "/strip-1-of-3.fjstate");
    CHECK_THROWS_WITH_AS(fj::strip_state_count(dir), doctest::Contains("holds no render state"), fj::InputError);
    for (int i = 0; i < 3; ++i) fj::test::write_file(fj::strip_state_path(dir, i, 3), "x");
    fj::test::write_file(dir + "/notes.txt", "x");
    CHECK(fj::strip_state_count(dir) == 3);
    fj::test::write_file(fj::strip_state_path(dir, 0, 2), "x");  // another count beside them
    CHECK_THROWS_WITH_AS(fj::strip_state_count(dir), doctest::Contains("of one N"), fj::InputError);
    fj::prepare_strip_state_folder(dir, 3);  // the other count's go; the rest stay
    CHECK(fj::strip_state_count(dir) == 3);
    CHECK(fj::test::file_exists(dir + "/notes.txt"));
    std::remove(fj::strip_state_path(dir, 1, 3).c_str());  // one missing
    CHECK_THROWS_WITH_AS(fj::strip_state_count(dir), doctest::Contains("of one N"), fj::InputError);
    fj::prepare_strip_state_folder(dir + "/new", 2);
    CHECK(std::filesystem::is_directory(dir + "/new"));
}
