// flamejit — `flamejit verify`: is an image a render of the genome it carries?
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A render farm takes frames from machines it does not control (other GPUs,
// drivers, renderer versions). Renders of one genome are never equal bit for
// bit across devices, but they are equal in distribution: two more renders of
// the genome the image carries, with seeds of their own, give the fidelity
// ratio of the image against them (image/fidelity.h), about 1 for a render of
// that genome and more for an image of other settings, another genome or
// fewer samples than it claims. A change of tone that per-pixel noise hides
// from the ratio still moves the image's mean level (image/level.h): an
// image whose level is off by more than a tolerance is held against more
// references before it fails.
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>

#include <nlohmann/json.hpp>

#include "cli_args.h"
#include "cli_common.h"
#include "genome/flam3_reader.h"
#include "genome/genome_text.h"
#include "genome/interpolate.h"
#include "genome/sequence.h"
#include "image/fidelity.h"
#include "image/exr_io.h"
#include "image/jpeg_io.h"
#include "image/level.h"
#include "image/png_io.h"
#include "sidecar.h"

namespace fj::cli {
namespace {

constexpr double kDefaultThreshold = 1.25;
// Percent: a mean level within this of the references' passes as it is.
constexpr double kDefaultLevelTolerance = 1.5;

// A printf format: %g takes kDefaultThreshold, then kDefaultLevelTolerance
// and the references of a level test.
const char* kHelp =
    "usage: flamejit verify IMAGE... [--sequence SEQ.flam3] [options]\n"
    "\n"
    "Checks that each IMAGE (PNG, JPEG, binary PPM, or OpenEXR as flamejit writes it) is a render\n"
    "of the genome it carries: the flam3_genome text that flamejit and flam3 write into their\n"
    "images, or its sidecar IMAGE.json (render --sidecar; a PPM has no text). An EXR of\n"
    "render --linear's values is not verified. The genome is rendered twice more, with\n"
    "seeds of its own, at the image's size and quality, and the image's fidelity ratio against\n"
    "the two (as flamejit compare) is printed: a render of that genome reads about 1, on any\n"
    "device and with flam3 too; an image of another genome, other tone values or fewer samples\n"
    "than it claims reads more. A change of tone moves the image's mean level: where it differs\n"
    "from the references' by more than the level tolerance, the genome is rendered again until\n"
    "there are %d references, and the image fails when its level lies outside theirs by Student's\n"
    "t test (one render of the genome in a thousand would fail it).\n"
    "\n"
    "  --threshold R         the largest ratio that passes (default %g)\n"
    "  --level-tolerance P   the mean level (of R, G or B) may differ from the references' by P\n"
    "                        percent without more references (default %g)\n"
    "  --sequence FILE       the image is a frame of this animation (flamejit animate's frames\n"
    "                        say their number, flam3-animate's their genome's time): rendered as\n"
    "                        animate renders that frame, motion blur included (the frame's\n"
    "                        --loop from its text)\n"
    "  --earlyclip           the image was rendered with --earlyclip (its sidecar says so; else\n"
    "                        this says it)\n"
    "  --jpeg-quality Q      a JPEG's compression quality (its sidecar says it; default 75): the\n"
    "                        references are compressed alike\n"
    "  --seed N              the references' seeds: N, N + 1 (and on for the level test)\n"
    "                        (default: fresh ones)\n"
    "  --backend B, --devices LIST, --threads N, --arch sm_XX, --palettes FILE: as render\n"
    "  --json                one JSON object per image: image, ratio, threshold, level (shift,\n"
    "                        t, references, tolerance, pass), pass, seeds (first and last)\n"
    "\n"
    "Images with transparency (alpha below opaque) are compared with transparent renders, images\n"
    "of another colour space (render --color-space; their profile says it) with renders in it.\n"
    "An image that cannot be verified (no genome, not an image) is one line on stderr, and the\n"
    "others are verified. Exit status: 0 every image passes, 3 an image reads above the\n"
    "threshold or fails the level test, 2 an image could not be verified or bad usage, 1\n"
    "internal or device failure.\n";

// What an image says about how it was made: its text (PNG text chunks, JPEG
// comments) and, when it has a sidecar, the settings it records.
struct Provenance {
    std::string genome_xml;
    std::map<std::string, std::string> text;
    std::optional<bool> transparent, earlyclip;
    std::optional<int> jpeg_quality;
    std::optional<ExrImage> exr;  // an EXR read whole: its text, samples and chromaticities
};

Provenance provenance_of(const std::string& image) {
    Provenance p;
    const ImageFormat format = image_format_of(image);
    if (format == ImageFormat::Png) p.text = read_png_text(image);
    if (format == ImageFormat::Jpeg) p.text = read_jpeg_text(image);
    if (format == ImageFormat::Exr) {
        p.exr = read_exr(image);
        p.text = p.exr->text;
    }
    if (p.text.count("flam3_genome")) p.genome_xml = p.text.at("flam3_genome");
    const std::string sidecar = sidecar_path(image);
    if (std::filesystem::exists(sidecar)) {
        nlohmann::json j;
        try {
            j = nlohmann::json::parse(read_genome_file(sidecar));
        } catch (const nlohmann::json::exception& e) {
            throw InputError(sidecar + ": not a sidecar: " + e.what());
        }
        if (j.contains("text") && j["text"].is_object())
            for (const auto& [key, value] : j["text"].items())
                if (value.is_string()) p.text.emplace(key, value.get<std::string>());
        const nlohmann::json settings = j.contains("settings") ? j["settings"] : nlohmann::json::object();
        const auto wrong = [&](const char* key) {
            return InputError(sidecar + ": settings." + key + " has the wrong type");
        };
        for (const char* key : {"transparent", "earlyclip"})
            if (settings.is_object() && settings.contains(key)) {
                if (!settings[key].is_boolean()) throw wrong(key);
                (std::string(key) == "transparent" ? p.transparent : p.earlyclip) = settings[key].get<bool>();
            }
        if (settings.is_object() && settings.contains("jpeg_quality")) {
            if (!settings["jpeg_quality"].is_number_integer()) throw wrong("jpeg_quality");
            p.jpeg_quality = settings["jpeg_quality"].get<int>();
            if (*p.jpeg_quality < 1 || *p.jpeg_quality > 100) throw wrong("jpeg_quality");
        }
        if (p.genome_xml.empty() && j.contains("genome") && j["genome"].is_string()) p.genome_xml = j["genome"];
    }
    if (p.genome_xml.empty())
        throw InputError(image + ": carries no genome (flam3_genome) and has no sidecar " + sidecar +
                         " with one: render it without --no-png-comments, or with --sidecar");
    return p;
}

// An EXR's samples read opaque at 65280 (exr_samples), a 16-bit PNG's at 65535.
bool any_transparent(const PngImage& image, ImageFormat format) {
    const uint16_t opaque = format == ImageFormat::Exr ? 65280 : image.bits == 16 ? 65535 : 255;
    for (size_t i = 3; i < image.rgba.size(); i += 4)
        if (image.rgba[i] != opaque) return true;
    return false;
}

// How the verified image's file holds a render.
struct FileKind {
    ImageFormat format = ImageFormat::Png;
    int bits = 8;             // PNG: 8 or 16; EXR: 16 (half) or 32
    int jpeg_quality = 75;
    bool transparent = false;
    ColorSpace space = ColorSpace::Srgb;
};

// The samples a file like the one verified holds of `image`: a PNG's or a
// PPM's of `bits` (flam3's quantisation), an EXR's values in half or float,
// or what a JPEG of `jpeg_quality` decodes to, so that a JPEG is compared
// with JPEGs, compression and all; in the file's colour space.
PngImage as_in_file(ImageF image, const FileKind& kind) {
    const ImageFormat format = kind.format;
    const int bits = kind.bits;
    if (format == ImageFormat::Jpeg) {
        static int count = 0;
        const std::filesystem::path file = std::filesystem::temp_directory_path() /
                                           ("flamejit-verify-" + std::to_string(getpid()) + "-" +
                                            std::to_string(count++) + ".jpg");
        ImageOptions options;
        options.jpeg_quality = kind.jpeg_quality;
        options.color_space = kind.space;
        write_image(file.string(), image, options, false);
        PngImage decoded;
        try {
            decoded = read_image(file.string());
        } catch (...) {
            std::filesystem::remove(file);
            throw;
        }
        std::filesystem::remove(file);
        return decoded;
    }
    if (kind.space != ColorSpace::Srgb) ColorConversion(kind.space, false).apply(image, png_threads(1));
    if (format == ImageFormat::Exr) {
        std::vector<float> stored(image.rgba.size());
        for (size_t i = 0; i < stored.size(); i += 4)
            for (int c = 0; c < 4; ++c) {
                const float v = exr_value(&image.rgba[i], c, false, kind.transparent);
                stored[i + c] = bits == 16 ? float_of_half(half_of(v)) : v;
            }
        return exr_samples(image.width, image.height, stored);
    }
    PngImage out;
    out.width = image.width;
    out.height = image.height;
    out.bits = bits;
    out.rgba.resize(image.rgba.size());
    for (size_t i = 0; i < image.rgba.size(); ++i)
        out.rgba[i] = i % 4 == 3 ? quantise_alpha(image.rgba[i], bits) : quantise_colour(image.rgba[i], bits);
    return out;
}

// `frame` rendered whole, in strips where it needs them.
ImageF render_frame(Renderer& renderer, const PreparedFrame& frame, uint64_t seed) {
    const StripPlan strips = renderer.plan_strips(frame, 0, 0);
    if (strips.count == 1) return renderer.render(frame, seed).image;
    ImageF image;
    for (int i = 0; i < strips.count; ++i) {
        const ImageF rows = renderer.render_strip(frame, seed, strips, i).image;
        image.width = rows.width;
        image.height += rows.height;
        image.rgba.insert(image.rgba.end(), rows.rgba.begin(), rows.rgba.end());
    }
    return image;
}

double number_in(const std::string& image, const std::string& key, const std::string& text) {
    try {
        size_t end = 0;
        const double v = std::stod(text, &end);
        if (end == text.size() && std::isfinite(v)) return v;
    } catch (const std::exception&) {
    }
    throw InputError(image + ": its " + key + " \"" + text + "\" is not a number");
}

// What every image is verified with: the command's options, the
// references' seeds and, with --sequence, the animation's keyframes.
struct Verifier {
    const ParsedArgs& a;
    RenderOptions base;
    uint64_t seed = 0;
    double threshold = kDefaultThreshold;
    double level_tolerance = kDefaultLevelTolerance / 100;
    ReadOptions read;
    std::string sequence;
    // The sequence read as animate reads it, and as a loop's keyframes
    // (for frames that say they are a loop's).
    std::vector<Flame> keyframes, loop_frames;

    // Prints the image's ratio; whether it passes. Throws InputError for an
    // image that cannot be verified.
    bool check(const std::string& path) const;
};

bool Verifier::check(const std::string& path) const {
    if (!std::filesystem::is_regular_file(path)) throw InputError(path + ": no such image");
    // A file that is not what its name says is bad input, as a genome's would be.
    Provenance made;
    PngImage image;
    try {
        made = provenance_of(path);
        image = made.exr ? exr_samples(*made.exr, path) : read_image(path);
    } catch (const InputError&) {
        throw;
    } catch (const std::runtime_error& e) {
        throw InputError(e.what());
    }
    if (image.width < 2 || image.height < 2)
        throw InputError(path + ": " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                         " is too small to compare (2x2 at least)");
    if (made.text.count("flamejit_fields"))
        throw InputError(path + ": interlaced frames (--fields) are not verified");
    FileKind kind;
    kind.format = image_format_of(path);
    kind.bits = made.exr ? (made.exr->half ? 16 : 32) : image.bits;
    if (!image.icc_profile.empty() && !color_space_of_profile(image.icc_profile, &kind.space))
        throw InputError(path + ": carries a colour profile that render --color-space does not write");
    if (made.exr && !made.exr->chromaticities.empty() &&
        !color_space_of_chromaticities(made.exr->chromaticities, &kind.space))
        throw InputError(path + ": has chromaticities that render --color-space does not write");
    const std::vector<Flame> carried = read_flam3_string(made.genome_xml, path + " (its genome)", read);
    if (carried.size() != 1)
        throw InputError(path + ": its text holds " + std::to_string(carried.size()) + " genomes, not one");
    const Flame& genome = carried[0];
    if (genome.width != image.width || genome.height != image.height)
        throw InputError(path + ": the image is " + std::to_string(image.width) + "x" +
                         std::to_string(image.height) + " and its genome " + std::to_string(genome.width) + "x" +
                         std::to_string(genome.height));

    RenderOptions options = base;
    options.transparent = made.transparent.value_or(any_transparent(image, kind.format));
    options.earlyclip = made.earlyclip.value_or(a.has("earlyclip"));
    if (made.text.count("flamejit_pixel_aspect"))
        options.pixel_aspect = number_in(path, "flamejit_pixel_aspect", made.text.at("flamejit_pixel_aspect"));
    Renderer renderer(options);
    FrameOptions frame_options = renderer.frame_options();
    frame_options.quality = genome.quality;
    PreparedFrame frame;
    if (sequence.empty()) {
        frame = input_from(path, [&] { return prepare_still(genome, frame_options); });
    } else {
        // flamejit's frames say their number (and loop); flam3-animate's
        // genome has the frame's time.
        const double number = made.text.count("flamejit_frame")
                                  ? number_in(path, "flamejit_frame", made.text.at("flamejit_frame"))
                                  : genome.time;
        const double period = made.text.count("flamejit_loop")
                                  ? number_in(path, "flamejit_loop", made.text.at("flamejit_loop"))
                                  : 0;
        std::vector<Flame> keys = period > 0 ? loop_keyframes(loop_frames, period, sequence) : keyframes;
        const double time = period > 0 ? loop_time(number, loop_frames.front().time, period) : number;
        // The frame's size scale (render's --size-scale), from its camera.
        const double scale = genome.scale / interpolate(keys, time).scale;
        if (!(scale > 0 && std::isfinite(scale)))
            throw InputError(path + ": its genome's scale does not follow from " + sequence + "'s at time " +
                             message_number(time));
        for (Flame& key : keys) {
            key.width = genome.width;
            key.height = genome.height;
            key.scale *= scale;
        }
        frame_options.temporal_samples = genome.temporal_samples;
        frame = input_from(path, [&] { return prepare_animation_frame(keys, time, frame_options); });
    }
    kind.jpeg_quality = made.jpeg_quality.value_or(static_cast<int>(a.integer("jpeg-quality", 75)));
    kind.transparent = options.transparent;
    const auto reference = [&](uint64_t s) { return as_in_file(render_frame(renderer, frame, s), kind); };
    const PngImage first = reference(seed), second = reference(seed + 1);
    const FidelityResult fidelity = fidelity_ratio(first, second, image);
    const bool ratio_passes = fidelity.ratio <= threshold;
    // More references only where the level is in doubt.
    std::vector<std::array<double, 3>> levels = {channel_means(first), channel_means(second)};
    const std::array<double, 3> own_level = channel_means(image);
    LevelShift level = level_shift(levels, own_level);
    if (std::fabs(level.shift) > level_tolerance) {
        while (levels.size() < static_cast<size_t>(kLevelReferences))
            levels.push_back(channel_means(reference(seed + levels.size())));
        level = level_shift(levels, own_level);
    }
    const bool level_passes =
        !(std::fabs(level.shift) > level_tolerance && std::fabs(level.t) > level_t_critical(level.references));
    const bool pass = ratio_passes && level_passes;
    const uint64_t last_seed = seed + levels.size() - 1;
    if (a.has("json")) {
        const auto number = [](double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); };
        const nlohmann::json line = {{"image", path},
                                     {"ratio", number(fidelity.ratio)},
                                     {"threshold", threshold},
                                     {"level",
                                      {{"shift", level.shift},
                                       {"t", number(level.t)},
                                       {"references", level.references},
                                       {"tolerance", level_tolerance},
                                       {"pass", level_passes}}},
                                     {"pass", pass},
                                     {"seeds", {seed, last_seed}},
                                     {"backend", renderer.backend_name()}};
        std::printf("%s\n", line.dump().c_str());
    } else {
        std::string verdict = "passes";
        if (!ratio_passes) verdict = "ABOVE the threshold " + message_number(threshold);
        if (!level_passes)
            verdict = (ratio_passes ? "" : verdict + ", ") + "its LEVEL differs from its genome's";
        char t_text[64] = "";
        if (level.references > 2)
            std::snprintf(t_text, sizeof t_text, ", t %.1f over %d renders", level.t, level.references);
        std::printf("%s: fidelity ratio %.3f, mean level %+.2f %%%s, against renders of its genome (seeds %llu..%llu; "
                    "backend %s): %s\n",
                    path.c_str(), fidelity.ratio, 100 * level.shift, t_text, static_cast<unsigned long long>(seed),
                    static_cast<unsigned long long>(last_seed), renderer.backend_name().c_str(), verdict.c_str());
    }
    std::fflush(stdout);
    return pass;
}

int run(const Args& args) {
    const ParsedArgs a = parse_args(
        args,
        {"threshold", "level-tolerance", "sequence", "seed", "jpeg-quality", "backend", "devices", "threads", "arch",
         "palettes"},
        {"help", "h", "earlyclip", "json"});
    if (a.has("help") || a.has("h")) {
        std::printf(kHelp, kLevelReferences, kDefaultThreshold, kDefaultLevelTolerance);
        return 0;
    }
    if (a.positional.empty()) throw UsageError("verify takes one or more images");
    Verifier v{a};
    v.threshold = a.number("threshold", kDefaultThreshold);
    if (!(v.threshold > 0)) throw UsageError("--threshold must be positive");
    v.level_tolerance = a.number("level-tolerance", kDefaultLevelTolerance) / 100;
    if (!(v.level_tolerance >= 0)) throw UsageError("--level-tolerance must be 0 or more (percent)");
    const long long jpeg_quality = a.integer("jpeg-quality", 75);
    if (jpeg_quality < 1 || jpeg_quality > 100) throw UsageError("--jpeg-quality must be in 1..100");
    backend_options_from(a, v.base);
    v.base.threads = static_cast<int>(a.integer("threads", 0));
    if (v.base.threads < 0 || v.base.threads > 4096) throw UsageError("--threads must be in 0..4096");
    v.base.kernel = kernel_options_from(a);
    v.seed = seed_from(a, std::random_device{}());
    v.read.palette_file = a.value("palettes");
    v.sequence = a.value("sequence");
    if (!v.sequence.empty()) {
        // Read once as a loop's keyframes; an open sequence's are those with
        // flam3's fix-ups at its ends.
        ReadOptions as_loop = v.read;
        as_loop.loop = true;
        v.loop_frames = read_flam3_file(v.sequence, as_loop);
        check_sequence(v.loop_frames, v.sequence);
        v.keyframes = v.loop_frames;
        apply_sequence_fixups(v.keyframes);
    }
    // An image that cannot be verified is one line; the rest are verified.
    int unverified = 0;
    bool all_pass = true;
    for (const std::string& path : a.positional) {
        try {
            all_pass = v.check(path) && all_pass;
        } catch (const InputError& e) {
            std::fprintf(stderr, "flamejit verify: %s\n", e.what());
            ++unverified;
        } catch (const GenomeError& e) {
            std::fprintf(stderr, "flamejit verify: %s\n", e.what());
            ++unverified;
        }
    }
    return unverified > 0 ? 2 : all_pass ? 0 : 3;
}

}  // namespace

int cmd_verify(const Args& args) { return run_guarded("verify", [&] { return run(args); }); }

}  // namespace fj::cli
