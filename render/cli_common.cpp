// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_common.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <limits>
#include <sstream>
#include <thread>
#include <tuple>

#include "atomic_file.h"
#include "cuda/driver_api.h"
#include "cuda/nvrtc_api.h"
#include "default_genome.h"
#include "errors.h"
#include "genome/cuburn_reader.h"
#include "genome/flam3_reader.h"
#include "genome/flam3_writer.h"
#include "genome/genome_text.h"
#include "image/image_stream.h"

namespace fj::cli {

namespace {

std::string read_standard_input() { return read_genome_text(std::cin, kStdinLabel); }

// A cuburn node is a JSON object; anything else is read as flam3 XML.
bool looks_like_json(const std::string& text) {
    const size_t first = text.find_first_not_of(" \t\r\n");
    return first != std::string::npos && text[first] == '{';
}

}  // namespace

GenomeInput load_genome(const ParsedArgs& args, const std::string& path, bool animation) {
    GenomeInput input;
    ReadOptions read;
    read.drop_unknown_variations = args.has("drop-unknown");
    read.palette_file = args.value("palettes");
    // Read only where a genome names a library palette: a bad name is an error at once all the same.
    if (args.has("palettes") && !std::filesystem::is_regular_file(read.palette_file))
        throw UsageError("--palettes " + read.palette_file + ": no such file (or not a file)");
    // Only the chosen flame has to be renderable (it is checked against the
    // file's flame count below).
    const long long chosen = args.has("flame") ? args.integer("flame", 0) : -1;
    if (chosen >= 0 && chosen <= std::numeric_limits<int>::max()) read.only_flame = static_cast<int>(chosen);
    CuburnReadOptions cuburn;
    cuburn.profile_file = args.value("profile");
    cuburn.loop = animation;
    cuburn.drop_unknown_variations = read.drop_unknown_variations;
    const bool from_stdin = path == "-";
    const std::string text = from_stdin ? read_standard_input() : std::string();
    const bool json = from_stdin ? looks_like_json(text) : std::filesystem::path(path).extension() == ".json";
    if (!json && args.has("profile")) throw UsageError("--profile applies to cuburn .json genomes only");
    if (json && args.has("loop")) throw UsageError("--loop: a cuburn node animates as its own loop already");
    read.loop = args.has("loop");
    if (path.empty()) {
        input.label = "default.flam3";
        input.flames = read_flam3_string(kDefaultGenome, input.label, read, &input.sources);
    } else if (from_stdin) {
        input.label = kStdinLabel;
        if (json) {
            // A node's `base` references resolve from the current folder.
            input.flames = read_cuburn_string(text, input.label, std::filesystem::current_path().string(), cuburn);
            for (size_t i = 0; i < input.flames.size(); ++i) input.sources.push_back({input.label, static_cast<int>(i), ""});
        } else {
            input.flames = read_flam3_string(text, input.label, read, &input.sources);
        }
    } else {
        input.label = path;
        input.flames = json ? read_cuburn_file(input.label, cuburn, &input.sources)
                            : read_flam3_file(input.label, read, &input.sources);
    }
    const int count = static_cast<int>(input.flames.size());
    if (args.has("flame")) {
        const long long i = args.integer("flame", 0);
        if (i < 0 || i >= count)
            throw UsageError("--flame " + std::to_string(i) + ": " + input.label + " has " + std::to_string(count) +
                             " flame(s), numbered from 0");
        input.selected = {static_cast<int>(i)};
    } else {
        for (int i = 0; i < count; ++i) input.selected.push_back(i);
    }
    return input;
}

double loop_from(const ParsedArgs& args) {
    const double period = args.number("loop", 0);
    if (args.has("loop") && !(period > 0)) throw UsageError("--loop must be a positive number of frames");
    return period;
}

GenomeInput load_genomes(const ParsedArgs& args, bool animation) {
    return load_genome(args, args.positional.empty() ? std::string() : args.positional[0], animation);
}

std::optional<FlameTemplate> template_option(const ParsedArgs& args, const char* command) {
    if (!args.has("template")) return std::nullopt;
    FlameTemplate t = read_flam3_template(args.value("template"));
    std::string ignored;
    for (const std::string& name : t.ignored)
        if (name != "version" && name != "name" && name != "time") ignored += (ignored.empty() ? "" : ", ") + name;
    if (!ignored.empty())
        std::fprintf(stderr, "flamejit %s: warning: %s: a template sets output settings only; ignoring %s\n", command,
                     t.file.c_str(), ignored.c_str());
    if (t.flames > 1)
        std::fprintf(stderr, "flamejit %s: warning: %s holds %d flames; the first is the template\n", command,
                     t.file.c_str(), t.flames);
    // Its values on a flame of one xform: one that no genome could be drawn
    // with is the template's error, not each genome's.
    Flame probe = read_flam3_string(R"(<flame size="64 48"><xform weight="1" linear="1"/></flame>)", t.file).at(0);
    apply_template(probe, t);
    input_from(t.file + ": as a template", [&] { check_still(probe, {}); });
    return t;
}

void write_genomes(const ParsedArgs& args, const std::vector<Flame>& flames) {
    const std::string path = args.value("o", args.value("output"));
    if (!path.empty() && path != "-") {
        check_output("-o", path);
        write_flam3_file(path, flames);
        return;
    }
    const std::string text = write_flam3_string(flames);
    if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0)
        throw std::runtime_error("cannot write to standard output");
}

std::pair<int, int> parse_size(const std::string& text, int min_side, int max_side) {
    int w = 0, h = 0;
    char x = 0, extra = 0;
    if (std::sscanf(text.c_str(), "%d%c%d%c", &w, &x, &h, &extra) != 3 || x != 'x' || w < min_side ||
        h < min_side || w > max_side || h > max_side)
        throw UsageError("--size must be WxH with both in " + std::to_string(min_side) + ".." +
                         std::to_string(max_side) + ", got '" + text + "'");
    return {w, h};
}

ScaleOptions scale_options_from(const ParsedArgs& args) {
    ScaleOptions s;
    if (args.has("size")) std::tie(s.width, s.height) = parse_size(args.value("size"), 1, kMaxImageSide);
    s.size = args.number("size-scale", 1);
    s.quality = args.number("quality-scale", 1);
    if (!(s.size > 0) || !std::isfinite(s.size)) throw UsageError("--size-scale must be a positive number");
    if (!(s.quality > 0) || !std::isfinite(s.quality)) throw UsageError("--quality-scale must be a positive number");
    s.pixel_aspect = args.number("pixel-aspect", 1);
    if (!(s.pixel_aspect >= kMinPixelAspect && s.pixel_aspect <= kMaxPixelAspect))
        throw UsageError("--pixel-aspect must be in " + message_number(kMinPixelAspect) + ".." +
                         message_number(kMaxPixelAspect));
    return s;
}

void scale_flames(GenomeInput& input, const ScaleOptions& s) {
    for (int i : input.selected) {
        Flame& f = input.flames[i];
        if (s.width > 0) set_image_size(f, s.width, s.height);
        // As flam3-render: the sizes are truncated, the scale is not.
        const double w = std::floor(f.width * s.size), h = std::floor(f.height * s.size);
        if (w < 1 || h < 1 || w > kMaxImageSide || h > kMaxImageSide)
            in_flame(input, i, [&] {
                throw InputError("--size-scale " + message_number(s.size) + " makes it " + message_number(w) + "x" +
                                 message_number(h) +
                                 " pixels; width and height must be in 1.." + std::to_string(kMaxImageSide));
            });
        f.width = static_cast<int>(w);
        f.height = static_cast<int>(h);
        f.scale *= s.size;
        f.quality *= s.quality;
    }
}

uint64_t seed_from(const ParsedArgs& args, uint64_t fallback) {
    if (!args.has("seed")) return fallback;
    const long long seed = args.integer("seed", 0);
    if (seed < 0) throw UsageError("--seed must be 0 or more");
    return static_cast<uint64_t>(seed);
}

const char* shuffle_asked(const KernelOptions& options) {
    return options.sort_idle_frames ? "auto" : to_string(options.shuffle);
}

KernelOptions kernel_options_from(const ParsedArgs& args) {
    KernelOptions k;
    // auto: the ring, made sorted per frame where the backend gains by it
    // (KernelOptions::sort_idle_frames, Renderer::frame_options).
    const std::string shuffle = args.value("shuffle", "auto");
    k.sort_idle_frames = shuffle == "auto";
    if (!k.sort_idle_frames && !parse_shuffle(shuffle, &k.shuffle))
        throw UsageError("--shuffle must be auto, ring, none, full, divergent or sorted");
    const long long block = args.integer("block", 256);
    if (block < 128 || block > 1024 || block % 32 != 0)
        throw UsageError("--block must be a multiple of 32 in 128..1024");
    k.block_size = static_cast<int>(block);
    k.arch = args.value("arch", "");
    if (!k.arch.empty() && (k.arch.rfind("sm_", 0) != 0 || k.arch.size() < 5 ||
                            k.arch.find_first_not_of("0123456789a", 3) != std::string::npos))
        throw UsageError("--arch must look like sm_90");
    if (!k.arch.empty()) {
        // Where NVRTC loads, the archs it compiles for (without it, no compile takes --arch).
        const std::vector<int> archs = nvrtc_supported_archs();
        const int number = std::atoi(k.arch.c_str() + 3);
        if (!archs.empty() && std::find(archs.begin(), archs.end(), number) == archs.end()) {
            std::string known;
            for (int arch : archs) known += (known.empty() ? "sm_" : ", sm_") + std::to_string(arch);
            throw UsageError("--arch " + k.arch + ": NVRTC " + nvrtc_version() + " compiles for " + known + " only");
        }
    }
    // `none` (no accumulation) exists for the throughput benchmark only.
    if (!parse_accumulation(args.value("accumulate", "atomic"), &k.accumulation) || k.accumulation == Accumulation::None)
        throw UsageError("--accumulate must be atomic, scalar, warp, shared or packed");
    const std::string form = args.value("kernel", "specialized");
    // auto: the specialized kernel, its linked form standing in while it compiles.
    k.start_linked = form == "auto";
    if (!k.start_linked && !parse_kernel_form(form, &k.form))
        throw UsageError("--kernel must be specialized, linked, switch or auto");
    if (args.has("linked-registers")) {
        if (k.form != KernelForm::Linked && !k.start_linked)
            throw UsageError("--linked-registers is for --kernel linked or auto");
        const long long registers = args.integer("linked-registers", kLinkedRegisters);
        if (registers > 128 || !valid_linked_registers(static_cast<int>(registers), k.block_size))
            throw UsageError("--linked-registers must be a multiple of 8 in 32..128, at most 65536 / --block");
        k.linked_registers = static_cast<int>(registers);
    }
    return k;
}

int blocks_per_sm_from(const ParsedArgs& args) {
    const long long n = args.integer("blocks-per-sm", 0);
    if (n < 0 || n > 64) throw UsageError("--blocks-per-sm must be in 1..64 (0: chosen per frame)");
    return static_cast<int>(n);
}

void backend_options_from(const ParsedArgs& args, RenderOptions& options) {
    if (!parse_backend_choice(args.value("backend", "auto"), &options.backend))
        throw UsageError("--backend must be auto, cuda or cpu");
    if (!args.has("devices")) return;
    const std::string text = args.value("devices");
    std::vector<int> devices;
    std::stringstream in(text);
    std::string item;
    // getline drops an empty last item ("0,"): a trailing comma is refused here.
    if (text.back() == ',') throw UsageError("--devices \"" + text + "\": expected device numbers such as 0,1,2");
    while (std::getline(in, item, ',')) {
        char* end = nullptr;
        const long d = std::strtol(item.c_str(), &end, 10);
        if (item.empty() || *end != '\0' || d < 0 || d > 1023)
            throw UsageError("--devices \"" + text + "\": expected device numbers such as 0,1,2");
        for (int seen : devices)
            if (seen == d) throw UsageError("--devices \"" + text + "\": device " + item + " is listed twice");
        devices.push_back(static_cast<int>(d));
    }
    if (devices.empty()) throw UsageError("--devices needs at least one device number");
    if (options.backend == BackendChoice::Cpu) throw UsageError("--devices needs the CUDA backend, not --backend cpu");
    options.devices = devices;
    options.backend = BackendChoice::Cuda;
}

uint64_t parse_byte_size(const std::string& option, const std::string& text) {
    uint64_t value = 0;
    const char* end = text.data() + text.size();
    const auto [stop, error] = std::from_chars(text.data(), end, value);
    const std::string unit(stop, end);
    int shift = -1;
    if (unit.empty()) shift = 0;
    else if (unit == "K" || unit == "k") shift = 10;
    else if (unit == "M" || unit == "m") shift = 20;
    else if (unit == "G" || unit == "g") shift = 30;
    else if (unit == "T" || unit == "t") shift = 40;
    if (error != std::errc() || stop == text.data() || shift < 0 || value > (UINT64_MAX >> shift))
        throw UsageError("--" + option + " \"" + text + "\": expected a size such as 500000, 200M or 1G");
    return value << shift;
}

StripOptions strip_options_from(const ParsedArgs& args) {
    StripOptions s;
    const std::string strips = args.value("strips", "auto");
    if (strips != "auto") {
        const long long n = args.integer("strips", 0);
        if (n < 1 || n > kMaxImageSide) throw UsageError("--strips must be auto or 1.." + std::to_string(kMaxImageSide));
        s.strips = static_cast<int>(n);
    }
    if (args.has("memory-budget")) {
        s.budget = static_cast<double>(parse_byte_size("memory-budget", args.value("memory-budget")));
        if (!(s.budget > 0)) throw UsageError("--memory-budget must be more than 0");
    }
    return s;
}

namespace {

// One output's format, checked alone (output_formats_from).
OutputFormat output_format(const ParsedArgs& args, const std::string& output, const std::vector<std::string>& listed) {
    if (output == "-") throw UsageError("-o -: images go to files (.png, .exr, .jpg or .ppm), not to standard output");
    OutputFormat f;
    f.format = image_format_of(output);
    const std::string extension = image_extension(output);
    if (f.format == ImageFormat::Png && !extension.empty() && extension != ".png")
        throw UsageError("-o " + output + ": images are PNG (.png), OpenEXR (.exr), JPEG (.jpg, .jpeg) or PPM (.ppm), not " +
                         extension);
    if (args.has("format") && std::none_of(listed.begin(), listed.end(), [&](const std::string& e) {
            return image_format_of("image" + e) == f.format;
        }))
        throw UsageError("--format " + args.value("format") + " and -o " + output + " name different formats");
    const bool exr = f.format == ImageFormat::Exr, png = f.format == ImageFormat::Png;
    const std::string name = f.format == ImageFormat::Jpeg ? "JPEG" : "PPM";
    f.bits = static_cast<int>(args.integer("bits", exr ? 16 : 8));
    if (exr && f.bits != 16 && f.bits != 32) throw UsageError("--bits must be 16 or 32 for EXR output");
    if (png && f.bits != 8 && f.bits != 16) throw UsageError("--bits must be 8 or 16 for PNG output");
    if (!exr && !png && f.bits != 8) throw UsageError("--bits: " + name + " images have 8 bits per sample");
    if (args.has("jpeg-quality") && f.format == ImageFormat::Jpeg) {
        f.jpeg_quality = static_cast<int>(args.integer("jpeg-quality", 0));
        if (f.jpeg_quality < 1 || f.jpeg_quality > 100) throw UsageError("--jpeg-quality must be in 1..100");
    }
    if (args.has("transparent") && !has_alpha(f.format))
        throw UsageError("--transparent keeps alpha, which " + name + " images do not have: write .png or .exr");
    const std::string space = args.value("color-space", "srgb");
    if (!parse_color_space(space, &f.color_space))
        throw UsageError("--color-space must be srgb, display-p3, adobe-rgb or rec2020, not \"" + space + "\"");
    if (f.color_space != ColorSpace::Srgb && f.format == ImageFormat::Ppm)
        throw UsageError("--color-space " + space + ": a PPM carries no colour profile; write .png, .jpg or .exr");
    f.linear = args.has("linear");
    if (f.linear && !exr) throw UsageError("--linear writes EXR images: name the output .exr");
    if (f.linear && args.has("earlyclip")) throw UsageError("--linear and --earlyclip exclude each other");
    return f;
}

}  // namespace

std::vector<OutputFormat> output_formats_from(const ParsedArgs& args, const std::vector<std::string>& outputs) {
    const std::vector<std::string> listed = image_extensions_from(args);
    std::vector<OutputFormat> formats;
    for (const std::string& output : outputs) formats.push_back(output_format(args, output, listed));
    if (args.has("jpeg-quality") && std::none_of(formats.begin(), formats.end(), [](const OutputFormat& f) {
            return f.format == ImageFormat::Jpeg;
        }))
        throw UsageError("--jpeg-quality is for JPEG output: name the output .jpg");
    return formats;
}

std::vector<std::string> output_options(const ParsedArgs& args) {
    std::vector<std::string> outputs = args.all("o");
    for (const std::string& o : args.all("output")) outputs.push_back(o);
    return outputs;
}

std::vector<std::string> image_extensions_from(const ParsedArgs& args) {
    std::vector<std::string> extensions;
    const std::string list = args.value("format", "png");
    for (size_t begin = 0; begin <= list.size();) {
        const size_t end = std::min(list.find(',', begin), list.size());
        const std::string format = list.substr(begin, end - begin);
        std::string extension;
        if (format == "png" || format == "exr" || format == "jpg" || format == "ppm")
            extension = "." + format;
        else if (format == "jpeg")
            extension = ".jpg";
        else
            throw UsageError("--format must be png, exr, jpg or ppm (or several of them, as png,exr), not \"" + format +
                             "\"");
        if (std::find(extensions.begin(), extensions.end(), extension) != extensions.end())
            throw UsageError("--format " + list + " names " + format + " twice");
        extensions.push_back(extension);
        begin = end + 1;
    }
    return extensions;
}

int quarter_of_cores() { return std::clamp(static_cast<int>(std::thread::hardware_concurrency()) / 4, 1, 4); }

int compile_threads_from(const ParsedArgs& args) {
    const long long n = args.integer("compile-threads", quarter_of_cores());
    if (n < 0 || n > 64) throw UsageError("--compile-threads must be in 0..64");
    return static_cast<int>(n);
}

int png_threads(int writers) {
    return std::max(1, static_cast<int>(std::thread::hardware_concurrency()) / std::max(1, writers));
}

std::string default_output(const std::string& genome_label, const std::string& extension) {
    return std::filesystem::path(genome_label).stem().string() + extension;
}

void check_output(const std::string& option, const std::string& path) {
    const std::string why = unwritable_reason(path);
    if (!why.empty()) throw UsageError(option + ": cannot write " + path + ": " + why);
}

bool warn_point_grid(const char* command, const std::string& what, const PreparedFrame& frame) {
    const double grid = point_grid_cells(frame.post_flame, frame.plan);
    if (grid < 1) return false;
    const Flame& f = frame.post_flame;
    std::fprintf(stderr,
                 "flamejit %s: warning: %s: at %.3g pixels per unit around (%.9g, %.9g), single-precision points "
                 "lie on a grid %.3g histogram cells wide, which the image shows (flamejit iterates in float, "
                 "flam3 in double)\n",
                 command, what.c_str(), std::max(frame.plan.ppux, frame.plan.ppuy), f.center_x, f.center_y, grid);
    return true;
}

int run_guarded(const char* command, const std::function<int()>& body) {
    try {
        return body();
    } catch (const UsageError& e) {
        std::fprintf(stderr, "flamejit %s: %s (see flamejit %s --help)\n", command, e.what(), command);
        return 2;
    } catch (const InputError& e) {
        std::fprintf(stderr, "flamejit %s: %s\n", command, e.what());
        return 2;
    } catch (const GenomeError& e) {
        std::fprintf(stderr, "flamejit %s: %s\n", command, e.what());
        return 2;
    } catch (const CudaError& e) {
        // The driver's words, and for a full GPU what would fit.
        std::fprintf(stderr, "flamejit %s: %s%s\n", command, e.what(),
                     e.result() == CUDA_ERROR_OUT_OF_MEMORY
                         ? "; the GPU's memory is full: a smaller --memory-budget renders in more strips, "
                           "--backend cpu in host memory"
                         : "");
        return 1;
    } catch (const std::bad_alloc&) {
        std::fprintf(stderr, "flamejit %s: out of memory\n", command);
        return 1;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "flamejit %s: %s\n", command, e.what());
        return 1;
    }
}

}  // namespace fj::cli
