// flamejit — pieces the subcommands share: genome loading, kernel options,
// and the mapping of failures to exit statuses.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cli_args.h"
#include "codegen/kernel_key.h"
#include "errors.h"
#include "genome/flame.h"
#include "genome/flame_template.h"
#include "image/image_stream.h"
#include "pipeline/renderer.h"

namespace fj::cli {

// What messages and default output names call a genome read from standard input ("-").
inline constexpr const char* kStdinLabel = "stdin";

struct GenomeInput {
    std::string label;              // the file name, "default.flam3" for the bundled genome, or kStdinLabel
    std::vector<Flame> flames;
    std::vector<FlameSource> sources;
    std::vector<int> selected;      // indices to process (--flame, else all)
};

// Reads the genome file `path` ("" for the bundled genome, "-" for standard
// input) honouring --flame, --palettes, --drop-unknown and --loop (the
// flames as a loop's keyframes, genome/sequence.h). A .json file (on
// standard input, text that starts with '{') is a cuburn node, read with
// --profile: as one still, or for an animation as the keyframes of its loop.
GenomeInput load_genome(const ParsedArgs& args, const std::string& path, bool animation = false);
// The same for the first positional argument, or the bundled genome without one.
GenomeInput load_genomes(const ParsedArgs& args, bool animation = false);
// --loop P (animate, convert --time): the period of a loop of the keyframes
// (genome/sequence.h loop_keyframes) in frames, or 0 without it.
double loop_from(const ParsedArgs& args);
// --template FILE (genome/flame_template.h), read once, or nothing without
// it. Says on stderr, in one line, which of its attributes a template does
// not set.
std::optional<FlameTemplate> template_option(const ParsedArgs& args, const char* command);
inline constexpr const char* kTemplateHelp =
    "  --template FILE       a flam3 template (as flam3-genome's template=): the size, quality,\n"
    "                        supersample, filter, passes, temporal samples, background, zoom,\n"
    "                        DE, gamma_threshold, highlight_power, palette_mode, interpolation\n"
    "                        and temporal filter settings its <flame> gives replace the genome's;\n"
    "                        a new size keeps the genome's vertical framing\n";
// Writes `flames` as flam3 XML to the file -o names (temporary name, then
// renamed), or to standard output without -o or with "-o -".
void write_genomes(const ParsedArgs& args, const std::vector<Flame>& flames);
// --size's "WxH" → (W, H), each in min_side..max_side; throws UsageError.
std::pair<int, int> parse_size(const std::string& text, int min_side, int max_side);
// --size WxH (0 × 0 without it); --size-scale and --quality-scale:
// flam3-render's and flam3-animate's ss and qs; --pixel-aspect, their
// pixel_aspect (0.01..100, RenderOptions).
struct ScaleOptions {
    int width = 0, height = 0;
    double size = 1, quality = 1, pixel_aspect = 1;
};
ScaleOptions scale_options_from(const ParsedArgs& args);
// Every selected flame made s.width × s.height where given (set_image_size:
// its vertical framing kept), then its width and height times s.size
// (truncated, as flam3), its scale times s.size (the same picture, more
// pixels) and its quality times s.quality. Throws InputError naming the flame
// when a side leaves 1..kMaxImageSide.
void scale_flames(GenomeInput& input, const ScaleOptions& s);
// Their help lines.
inline constexpr const char* kScaleHelp =
    "  --size WxH            the image's width and height in pixels, in place of the genome's\n"
    "                        (and a template's): the picture keeps its height, so a wider\n"
    "                        image shows more at the sides; --size-scale applies after it\n"
    "  --size-scale F        width, height and scale times F: the same picture with F times\n"
    "                        the pixels on each side (as flam3's ss)\n"
    "  --quality-scale F     quality (the genome's, or --quality) times F (as flam3's qs)\n"
    "  --pixel-aspect A      the width of the display's pixels over their height, e.g. 0.9 (as\n"
    "                        flam3's pixel_aspect): the picture drawn wider in pixels (1/A) and\n"
    "                        its spatial filter narrower across rows, so that it looks right there\n";
// --shuffle, --block, --arch.
KernelOptions kernel_options_from(const ParsedArgs& args);
// --shuffle as asked: auto (KernelOptions::sort_idle_frames), or the strategy named.
const char* shuffle_asked(const KernelOptions& options);
// --seed N (0 or more), else `fallback`.
uint64_t seed_from(const ParsedArgs& args, uint64_t fallback);
// --blocks-per-sm N (0 when absent): the CUDA launch's cap on resident
// blocks per SM.
int blocks_per_sm_from(const ParsedArgs& args);
// --backend and --devices into `options`: --devices LIST (device numbers
// such as 0,1,2, each once) asks for the CUDA backend, and is a usage error
// with --backend cpu.
void backend_options_from(const ParsedArgs& args, RenderOptions& options);
// "200M" -> 200 MiB (K, M, G, T; a plain number is bytes); UsageError naming --`option` otherwise.
uint64_t parse_byte_size(const std::string& option, const std::string& text);
// --strips and --memory-budget: frames larger than memory (pipeline/strips.h).
struct StripOptions {
    int strips = 0;       // 0: as few as fit the budget
    double budget = 0;    // bytes; 0: 90 % of the backend's free memory
};
StripOptions strip_options_from(const ParsedArgs& args);
inline constexpr const char* kStripHelp =
    "  --strips N|auto       render the image in N strips of rows, each iterating the whole\n"
    "                        frame into a histogram of its rows only (the pixels are those of\n"
    "                        one piece); auto (default): one piece when the frame fits the\n"
    "                        memory budget, else as few strips as fit\n"
    "  --memory-budget SIZE  memory a strip may take where the histogram lives (GPU memory\n"
    "                        for CUDA, RAM for the CPU), e.g. 6G (default: 90 % of what is free)\n";
// The image files a command writes, by the output's extension
// (image/image_stream.h): PNG (.png, or none), OpenEXR (.exr), JPEG (.jpg,
// .jpeg) or PPM (.ppm). --bits: PNG 8 or 16 (default 8), EXR 16 for half or
// 32 for float (default 16), JPEG and PPM 8 only; --jpeg-quality (JPEG only,
// 1..100, default flam3's 75); --linear (EXR only, not with --earlyclip);
// --transparent (not for JPEG or PPM, which have no alpha). Another
// extension, or "-" (standard output), is a usage error.
struct OutputFormat {
    ImageFormat format = ImageFormat::Png;
    int bits = 8;
    int jpeg_quality = 75;
    bool linear = false;
    ColorSpace color_space = ColorSpace::Srgb;  // --color-space
};
// The formats of one image's files (-o given several times, a --format
// list): each checked as above, --format naming each one's format, and
// --jpeg-quality for one of them at least.
std::vector<OutputFormat> output_formats_from(const ParsedArgs& args, const std::vector<std::string>& outputs);
// -o (also --output) as given, each time it is given.
std::vector<std::string> output_options(const ParsedArgs& args);
// --format F[,F...] (png, exr, jpg or jpeg, ppm: flam3's format=, and
// OpenEXR): the extensions of the images a command names itself (the
// default output name, the images of a folder, animate's default pattern),
// one file of each format for every image; {".png"} without it. An -o that
// names a file of a format not listed is a usage error (output_formats_from).
std::vector<std::string> image_extensions_from(const ParsedArgs& args);
inline constexpr const char* kFormatHelp =
    "  --format F[,F...]     png (default), exr, jpg or ppm: the images' format where their names\n"
    "                        are made here (the default name, a folder's images), as flam3's\n"
    "                        format=; else -o's extension says it. Several (png,exr), or -o given\n"
    "                        again: each image is written in each, from one render\n"
    "  --bits N              PNG samples of 8 (default) or 16 bits; for an output ending in .exr\n"
    "                        (OpenEXR, RGBA premultiplied), 16 (half, default) or 32 (float);\n"
    "                        .jpg (JPEG) and .ppm (binary PPM) are RGB of 8 bits, as flam3's\n"
    "  --jpeg-quality Q      JPEG compression quality, 1..100 (default 75, as flam3)\n"
    "  --color-space S       srgb (default: as flam3, no profile), display-p3, adobe-rgb or\n"
    "                        rec2020: the image converted from sRGB to S, its file tagged with\n"
    "                        S's ICC profile (EXR: its chromaticities), so that colour-managed\n"
    "                        viewers show the same picture; not for PPM\n"
    "  --linear              EXR only: the filtered log-density values before gamma, vibrancy,\n"
    "                        background and clipping, for compositing\n";
// A quarter of the cores, 1 to 4: the default of threads that help the
// render (compiling ahead, animate's image writers).
int quarter_of_cores();
// --compile-threads N (CUDA: threads that compile the kernels of the images
// or frames to come while one renders, pipeline/compile_ahead.h): 0..64,
// default a quarter of the cores, 1 to 4.
int compile_threads_from(const ParsedArgs& args);
// Threads that compress one PNG (ImageOptions::threads) when `writers`
// images are written at once: the cores shared between them, at least one.
int png_threads(int writers);
// GENOME's file name with `extension` (image_extension_from), in the
// current folder.
std::string default_output(const std::string& genome_label, const std::string& extension);
// Refuses an output file that cannot be written (atomic_file.h's
// unwritable_reason: no such folder, a folder or a device there) with a
// UsageError naming `option` (-o, --save-state, ...), before any work.
void check_output(const std::string& option, const std::string& path);
// body(), with an InputError it throws prefixed by `where` and ": ": the
// pipeline's messages name the value, not where it came from.
template <typename Body>
auto input_from(const std::string& where, const Body& body) {
    try {
        return body();
    } catch (const InputError& e) {
        throw InputError(where + ": " + e.what());
    }
}
// The same, naming the file and flame `index` of `input`.
template <typename Body>
auto in_flame(const GenomeInput& input, int index, const Body& body) {
    const std::string& name = input.flames[index].name;
    return input_from(input.label + ": flame " + std::to_string(index) + (name.empty() ? "" : " \"" + name + "\""),
                      body);
}
// Prints one warning line (and returns true) when `frame`'s zoom puts its
// single-precision points on a grid a histogram cell wide or wider
// (point_grid_cells), naming `what` (the image).
bool warn_point_grid(const char* command, const std::string& what, const PreparedFrame& frame);
// Runs a command body; prints one line for any failure and returns 2 for
// usage and input errors, 1 for everything else.
int run_guarded(const char* command, const std::function<int()>& body);

}  // namespace fj::cli
