// flamejit — `flamejit render`: genome files to PNG images.
// SPDX-License-Identifier: GPL-3.0-or-later

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <set>

#include "cli_args.h"
#include "cli_common.h"
#include "console.h"
#include "errors.h"
#include "genome/flam3_reader.h"
#include "image_files.h"
#include "image_writer.h"
#include "pipeline/compile_ahead.h"
#include "pipeline/frame_batch.h"
#include "pipeline/frame_structure.h"
#include "pipeline/renderer.h"
#include "sidecar.h"
#include "strip_render.h"

namespace fj::cli {
namespace {

// A printf format: the %s take kScaleHelp, kTemplateHelp, kStripHelp, kFormatHelp and kSidecarHelp.
const char* kHelp =
    "usage: flamejit render [GENOME...] [-o OUT.png | -o FOLDER]... [options]\n"
    "\n"
    "Renders every <flame> of GENOME (flam3 XML, or a cuburn .json node; - reads standard\n"
    "input; default: the bundled genome) to a PNG (OpenEXR, JPEG or PPM for an output named\n"
    ".exr, .jpg or .ppm).\n"
    "With several flames and no --flame, OUT gets each flame's index: OUT.00000.png, ...\n"
    "With several GENOMEs, in one process (one device set-up, each kernel compiled once), each\n"
    "is named after its file (stdin.png for standard input) in FOLDER (default: the current\n"
    "one); every genome is read and checked before the first image is written.\n"
    "\n"
    "  -o OUT.png            output file (default: GENOME's name with .png, here); an existing\n"
    "                        folder (or a name ending in /: one to exist) takes the images under\n"
    "                        their genomes' names, as with several GENOMEs; also --output. Given\n"
    "                        again (-o g.png -o g.exr), each image is written to each, from one\n"
    "                        render\n"
    "  --names               name each image after its flame's name attribute, NAME.png in -o's\n"
    "                        folder (or here), as flam3's name_enable=1; a flame without a name,\n"
    "                        or whose name another flame of its file has, keeps the name above\n"
    "  --resume              skip images that exist and read whole at the flame's size\n"
    "                        (a batch run again after an interruption)\n"
    "  --compile-threads N   CUDA: threads that compile the kernels of the images to come while\n"
    "                        one renders (default: a quarter of the cores, 1 to 4; 0: each\n"
    "                        kernel is compiled when its image comes)\n"
    "  --backend B           auto (default: CUDA when it works, else CPU), cuda, cpu\n"
    "  --devices LIST        CUDA devices to render on, e.g. 0,1,2,3 (default 0): each image's\n"
    "                        samples are split evenly between them, iterated at once, and their\n"
    "                        histograms summed on the first, which makes the image\n"
    "  --quality Q           samples per output pixel, overriding the genome's\n"
    "                        (samples = Q · W · H · 4^zoom, as flam3)\n"
    "  --seed N              random seed (default: a fresh one, printed)\n"
    "  --progress P          bar (the default on a terminal), json (a line a second on stderr:\n"
    "                        image, stage (iterating, then post-pass), fraction, elapsed_s,\n"
    "                        eta_s; then image, done, samples, seconds, backend), none (the\n"
    "                        default otherwise)\n"
    "  --threads N           CPU backend threads (default: all cores)\n"
    "  --flame I             render only flame I (0-based) of the file (one GENOME only); the\n"
    "                        file's other flames may use variations flamejit lacks\n"
    "  --arch sm_XX          NVRTC target (default: the device's)\n"
    "  --emit-cu FILE        also write the generated kernel source to FILE (one GENOME only;\n"
    "                        with several of its flames, FILE.I for flame I)\n"
    "  --shuffle S           how points move between warps (README, \"Iteration semantics\"):\n"
    "                        auto (default), ring, none, full, divergent, sorted; auto is the\n"
    "                        ring, except on the CPU backend for a frame whose lazy selection\n"
    "                        (xaos, rare xforms) would leave a third of its lanes idle or\n"
    "                        more: sorted\n"
    "  --block N             threads per block, a multiple of 32 in 128..1024 (default 256)\n"
    "  --blocks-per-sm N     N resident blocks per SM, at most what the occupancy allows\n"
    "                        (default: chosen per frame, from 512 threads per SM up to the\n"
    "                        occupancy, so that each point plots some 3000 samples):\n"
    "                        for compute-sanitizer runs and launch experiments\n"
    "  --accumulate A        how hits reach the histogram on the GPU (the CPU backend adds\n"
    "                        them directly whatever A is): atomic (default: float4 atomics on\n"
    "                        sm_90), scalar, warp (warp-aggregated), shared (per-block cache in\n"
    "                        shared memory), all exact; packed (one 64-bit atomic per hit into\n"
    "                        16-bit integer fields): LOSSY when 128 or more hits reach one cell\n"
    "                        within an atomic round trip after its word passes 2^15 (counted,\n"
    "                        and render warns)\n"
    "  --kernel K            specialized (default: the kernel generated for the flame's\n"
    "                        structure), linked (the same code, each xform compiled as a\n"
    "                        program of its own, in parallel, then linked: a shorter cold\n"
    "                        compile, a call per xform), switch (the reference it is measured\n"
    "                        against: every variation behind a switch, xforms read as data;\n"
    "                        CUDA backend only) or auto (specialized; where it is not in the\n"
    "                        kernel cache, the frame starts on the linked kernel while it\n"
    "                        compiles, and the process waits for that compile before it ends,\n"
    "                        so the next finds it cached); the same image from each\n"
    "  --linked-registers N  registers per thread of a linked kernel (--kernel linked, or auto's\n"
    "                        stand-in): 32 (default, every thread an SM holds; each xform's call\n"
    "                        saves and restores registers) up to 128, a multiple of 8\n"
    "%s"
    "%s"
    "%s"
    "  --save-state FILE     also write the histogram, before the post-pass, to FILE: to resume\n"
    "                        at a higher quality, or to tone-map again, with --resume-state;\n"
    "                        an image in strips keeps a state per strip in FILE as a folder\n"
    "  --resume-state FILE   start from FILE's histogram (saved from this genome; what only the\n"
    "                        post-pass reads, such as gamma, brightness, vibrancy, background,\n"
    "                        may differ) and iterate only the samples --quality asks beyond its\n"
    "                        own (none: tone-map only); one image (a folder: in its strips).\n"
    "                        Given again, the states are summed: parts of one image rendered\n"
    "                        apart (other machines), each with a seed of its own, make the whole\n"
    "  --progressive N       write the image N times as its quality doubles up to --quality's,\n"
    "                        each stage iterating only what it adds (and the state each time,\n"
    "                        with --save-state): watch it converge, stop when it looks done\n"
    "%s"
    "  --transparent         alpha from density, background not blended (as flam3's transparency=1)\n"
    "  --earlyclip           tone-map before the spatial filter, 100-step fuse (as flam3's earlyclip=1)\n"
    "  --palettes FILE       flam3 palette library (default: $flam3_palettes or flam3's)\n"
    "  --drop-unknown        render without what flamejit does not know or render (unknown\n"
    "                        variations, Fractorium's 3D camera, a log_base other than e),\n"
    "                        with a warning for each\n"
    "  --profile FILE        cuburn output profile for a .json genome (size, samples per pixel)\n"
    "  --no-png-comments     write no text (by default the image carries the rendered genome as\n"
    "                        flam3 XML in flam3_genome, and the sample count, error rate, seed: PNG\n"
    "                        text chunks, JPEG comments, EXR attributes); enable_png_comments=0\n"
    "                        (enable_jpeg_comments=0 for JPEG) in the environment does the same, as\n"
    "                        for flam3;\n"
    "                        nick, url and id in the environment go to flam3_nickname, flam3_url\n"
    "                        and flam3_id, as flam3 writes them\n"
    "%s"
    "\n"
    "Exit status: 0 success, 2 bad input or usage, 1 internal or device failure.\n";

// OUT.png → OUT.00003.png for flame 3 of a multi-flame render.
std::string indexed_output(const std::string& out, int index) {
    std::filesystem::path p(out);
    char suffix[16];
    std::snprintf(suffix, sizeof suffix, ".%05d", index);
    return (p.parent_path() / (p.stem().string() + suffix + p.extension().string())).string();
}

// One image to make: flame `index` of `input`, written to `paths` (one
// file per output and format).
struct Job {
    const GenomeInput* input;
    int index;
    std::vector<std::string> paths;
};

// A flame's name as a file name (--names): path separators and control
// characters as "_"; empty for a name that gives none ("", ".", "..", or
// one too long for a file name with its extension).
std::string file_name_of(const std::string& flame_name) {
    std::string name = flame_name;
    for (char& ch : name)
        if (ch == '/' || ch == '\\' || static_cast<unsigned char>(ch) < 32) ch = '_';
    return name == "." || name == ".." || name.size() > 240 ? "" : name;
}

// Output names: -o OUT.png for one genome (indexed when it has several
// flames), else each genome's name in the folder -o names (an existing one,
// or a name ending in /; without -o the current one), with each of
// `extensions` (--format). With `names` (--names: -o a folder, or none)
// each image is named after its flame instead, as flam3's name_enable=1,
// where the name is the only one of its file. Each -o (given several times)
// adds its files to every image. Two images bound for one file are refused
// before anything renders.
std::vector<Job> plan_outputs(const std::vector<GenomeInput>& inputs, std::vector<std::string> outs,
                              const std::vector<std::string>& extensions, bool names) {
    // Each image with its flame's name as a file name (--names), where the
    // name is its file's only one.
    std::vector<Job> jobs;
    std::vector<std::string> own_names;
    for (const GenomeInput& input : inputs) {
        std::map<std::string, int> named;  // how many of the file's flames give each name
        if (names)
            for (int index : input.selected) ++named[file_name_of(input.flames[index].name)];
        for (int index : input.selected) {
            jobs.push_back({&input, index, {}});
            const std::string name = names ? file_name_of(input.flames[index].name) : "";
            own_names.push_back(!name.empty() && named[name] == 1 ? name : "");
        }
    }
    if (outs.empty()) outs.push_back("");
    std::set<std::string> taken;
    for (const std::string& out : outs) {
        const bool into_folder =
            inputs.size() > 1 || (!out.empty() && (out.back() == '/' || std::filesystem::is_directory(out)));
        const std::filesystem::path folder = out.empty() ? "." : out;
        if (into_folder && !std::filesystem::is_directory(folder))
            throw UsageError("-o " + out + ": the images go into a folder, and there is none of that name");
        if (names && !out.empty() && !into_folder)
            throw UsageError("--names names the images after their flames: -o takes the folder they go into, not " + out);
        // A file names its own format; a folder takes every format listed.
        const std::vector<std::string> formats = into_folder || out.empty() ? extensions : std::vector<std::string>{""};
        for (const std::string& extension : formats)
            for (size_t n = 0; n < jobs.size(); ++n) {
                const GenomeInput& input = *jobs[n].input;
                const std::string base = into_folder ? (folder / default_output(input.label, extension)).string()
                                                     : (out.empty() ? default_output(input.label, extension) : out);
                const std::string path = !own_names[n].empty()       ? (folder / (own_names[n] + extension)).string()
                                         : input.selected.size() > 1 ? indexed_output(base, jobs[n].index)
                                                                     : base;
                if (!taken.insert(std::filesystem::path(path).lexically_normal().string()).second)
                    throw UsageError("two images would be written to " + path +
                                     (outs.size() > 1 ? " (-o names it twice)"
                                                      : " (genome files of the same name: render them into "
                                                        "separate folders)"));
                check_output("-o", path);
                jobs[n].paths.push_back(path);
            }
    }
    return jobs;
}

int run(const Args& args) {
    const ParsedArgs a = parse_args(
        args, {"o", "output", "backend", "quality", "seed", "threads", "flame", "arch", "emit-cu", "shuffle", "block", "accumulate", "kernel", "linked-registers", "bits", "jpeg-quality", "color-space", "format", "palettes", "devices", "blocks-per-sm", "profile", "template", "size", "size-scale", "quality-scale", "pixel-aspect", "progress", "strips", "memory-budget", "save-state", "resume-state", "progressive",
               "compile-threads"},
        {"help", "h", "transparent", "earlyclip", "drop-unknown", "no-png-comments", "resume", "linear", "sidecar",
         "names"});
    if (a.has("help") || a.has("h")) {
        std::printf(kHelp, kScaleHelp, kTemplateHelp, kStripHelp, kFormatHelp, kSidecarHelp);
        return 0;
    }
    const ScaleOptions scales = scale_options_from(a);
    const StripOptions strip_options = strip_options_from(a);

    RenderOptions options;
    backend_options_from(a, options);
    options.quality = a.number("quality", 0);
    if (a.has("quality") && !(options.quality > 0)) throw UsageError("--quality must be positive");
    options.quality *= scales.quality;
    options.pixel_aspect = scales.pixel_aspect;
    options.threads = static_cast<int>(a.integer("threads", 0));
    if (options.threads < 0 || options.threads > 4096) throw UsageError("--threads must be in 0..4096");
    options.seed = seed_from(a, std::random_device{}());
    options.kernel = kernel_options_from(a);
    options.max_blocks_per_sm = blocks_per_sm_from(a);
    options.transparent = a.has("transparent");
    options.earlyclip = a.has("earlyclip");
    const Progress::Mode progress_as = progress_mode(a);

    const std::vector<std::string> paths = a.positional.empty() ? std::vector<std::string>{""} : a.positional;
    if (paths.size() > 1 && a.has("flame")) throw UsageError("--flame picks a flame of one genome file, not of " +
                                                    std::to_string(paths.size()));
    if (std::count(paths.begin(), paths.end(), "-") > 1) throw UsageError("standard input (-) can be read only once");
    const std::optional<FlameTemplate> templ = template_option(a, "render");
    std::vector<GenomeInput> inputs;
    for (const std::string& path : paths) {
        inputs.push_back(load_genome(a, path));
        if (templ)
            for (int i : inputs.back().selected) apply_template(inputs.back().flames[i], *templ);
        scale_flames(inputs.back(), scales);
    }
    // --emit-cu FILE: each image's kernel source, FILE.I for flame I where a
    // file's several flames make several images (as compile names them).
    const std::string emit_cu = a.value("emit-cu");
    if (!emit_cu.empty() && inputs.size() > 1)
        throw UsageError("--emit-cu takes the kernels of one genome file, not of " + std::to_string(inputs.size()));
    const std::vector<Job> jobs =
        plan_outputs(inputs, output_options(a), image_extensions_from(a), a.has("names"));
    const auto emit_path = [&](const Job& job) {
        return emit_cu.empty() || jobs.size() == 1 ? emit_cu : emit_cu + "." + std::to_string(job.index);
    };
    for (const Job& job : jobs) {
        if (!emit_cu.empty()) check_output("--emit-cu", emit_path(job));
        if (a.has("sidecar"))
            for (const std::string& path : job.paths) check_output("--sidecar", sidecar_path(path));
    }
    const std::string save_state = a.value("save-state");
    const std::vector<std::string> resume_states = a.all("resume-state");
    const bool resumes = !resume_states.empty();
    const bool with_state = !save_state.empty() || resumes;
    if (with_state && jobs.size() != 1)
        throw UsageError("--save-state and --resume-state take one image, not " + std::to_string(jobs.size()));
    const int stages = static_cast<int>(a.integer("progressive", 1));
    if (stages < 1 || stages > 20) throw UsageError("--progressive must be in 1..20");
    // Every job has the same formats, in the same order.
    const std::vector<OutputFormat> formats = output_formats_from(a, jobs[0].paths);
    options.linear = formats[0].linear;
    const bool skip_complete = a.has("resume");
    const int compile_threads = compile_threads_from(a);
    const bool with_sidecar = a.has("sidecar");
    if (skip_complete && stages > 1)
        throw UsageError("--resume skips images that read whole, as each --progressive stage's does: resume a "
                         "progressive render with --save-state and --resume-state");
    if (stages > 1 && strip_options.strips > 1)
        throw UsageError("--progressive takes an image in one piece, not in strips");
    // A state of one piece is a file; the states of an image in strips, one
    // per strip, are a folder's files (pipeline/render_state.h).
    const auto is_folder = [](const std::string& path) { return std::filesystem::is_directory(path); };
    if (!save_state.empty()) {
        if (!is_folder(save_state)) check_output("--save-state", save_state);
        for (const std::string& path : jobs[0].paths)
            if (std::filesystem::path(save_state).lexically_normal() == std::filesystem::path(path).lexically_normal())
                throw UsageError("--save-state names the image's own file, " + save_state);
    }
    // Resumed states say how many strips the image renders in.
    int state_strips = 1;
    for (size_t i = 0; i < resume_states.size(); ++i) {
        const std::string& path = resume_states[i];
        const bool folder = is_folder(path);
        if (folder != is_folder(resume_states[0]))
            throw UsageError("--resume-state takes state files (images in one piece) or folders of strips' states, "
                             "not both: " + resume_states[0] + ", " + path);
        const int strips_held = folder ? strip_state_count(path) : 1;
        if (i == 0) state_strips = strips_held;
        else if (strips_held != state_strips)
            throw UsageError("--resume-state: " + resume_states[0] + " holds the image in " +
                             std::to_string(state_strips) + " strips, " + path + " in " + std::to_string(strips_held));
    }
    if (resumes && strip_options.strips > 0 && strip_options.strips != state_strips)
        throw UsageError("--resume-state: the states hold the image in " + std::to_string(state_strips) +
                         (state_strips == 1 ? " piece" : " strips") + ", not the " +
                         std::to_string(strip_options.strips) + " of --strips");
    // Each strip's states are read when the strip comes; their headers are
    // checked now, before any work.
    const auto strip_parts = [&](int strip) {
        std::vector<std::string> parts;
        for (const std::string& folder : resume_states) parts.push_back(strip_state_path(folder, strip, state_strips));
        return parts;
    };
    // One piece: the summed state. Strips: the first strip's summed header,
    // for the samples the image resumes from (every strip holds them all).
    RenderState resumed;
    if (resumes)
        resumed = state_strips == 1 ? read_render_states(resume_states) : read_render_states(strip_parts(0), false);
    for (int strip = 1; resumes && strip < state_strips; ++strip) read_render_states(strip_parts(strip), false);

    options.on_cpu_fallback = [](const std::string& why) {
        std::fprintf(stderr, "flamejit: using the CPU backend (%s)\n", why.c_str());
    };
    Renderer renderer(options);
    // All flames first, so that a bad one late in a file (or in a later
    // file), or one too large for the memory budget in the strips asked
    // for, leaves no images of those before it, and says nothing else first.
    int strips_requested = resumes ? state_strips : stages > 1 ? 1 : strip_options.strips;
    const int state_copies = (resumes ? 1 : 0) + (save_state.empty() ? 0 : 1);
    for (const Job& job : jobs)
        in_flame(*job.input, job.index, [&] {
            const StripPlan planned = renderer.plan_strips(renderer.check(job.input->flames[job.index]),
                                                           strips_requested, strip_options.budget, state_copies);
            // A state's strips are those planned now, whatever the memory free later.
            if (with_state) strips_requested = planned.count;
        });
    if (!save_state.empty() && strips_requested > 1 && std::filesystem::exists(save_state) && !is_folder(save_state))
        throw UsageError("--save-state: the image renders in " + std::to_string(strips_requested) +
                         " strips, whose states go in a folder, and " + save_state + " is a file");
    if (!save_state.empty() && strips_requested == 1 && is_folder(save_state))
        throw UsageError("--save-state: " + save_state +
                         " is a folder, for the states of an image in strips, and this image renders in one piece");
    // Images already whole are skipped (--resume); the kernels of the rest
    // compile ahead, several at once, while the first ones render.
    std::vector<std::vector<ImageFile>> files;
    std::vector<char> skipped(jobs.size(), 0);
    std::vector<const Flame*> to_render;
    for (size_t n = 0; n < jobs.size(); ++n) {
        const Flame& flame = jobs[n].input->flames[jobs[n].index];
        files.push_back(image_files(a, jobs[n].paths, formats, options.transparent, png_threads(1)));
        skipped[n] = skip_complete && files_complete(files[n], flame.width, flame.height, with_sidecar);
        if (!skipped[n]) to_render.push_back(&flame);
    }
    std::optional<CompileAhead> ahead;
    if (compile_threads > 0 && to_render.size() > 1 && renderer.backend_name() == "cuda")
        ahead.emplace(renderer, to_render, renderer.frame_options(), compile_threads);
    // Each image's line is printed once its files are written (on the
    // writer's thread), so that a line means a file there.
    Console console;
    ImageWriter writer(2, 1);
    for (size_t n = 0; n < jobs.size(); ++n) {
        const GenomeInput& input = *jobs[n].input;
        const int index = jobs[n].index;
        const Flame& flame = input.flames[index];
        // Messages name the image by its first file, or by all of them.
        const std::string& path = jobs[n].paths[0];
        const std::string all_files = file_list(files[n]);
        if (skipped[n]) {
            writer.drain();  // in order after the lines of images still being written
            console.print(all_files + ": complete, skipped\n");
            continue;
        }
        renderer.set_emit_cu(emit_path(jobs[n]));
        // JSON names the image in full; a bar keeps to a short label.
        const std::string label = progress_as == Progress::Mode::Json ? path
                                  : jobs.size() == 1                  ? std::string("render")
                                                                      : std::filesystem::path(path).filename().string();
        Progress progress(console, progress_as, label);
        ProgressFn report;
        if (progress_as != Progress::Mode::None) report = [&progress](double f) { progress.update(f); };
        renderer.set_progress(report);
        const auto start = std::chrono::steady_clock::now();
        const PreparedFrame frame = in_flame(input, index, [&] { return prepare_still(flame, renderer.frame_options()); });
        warn_point_grid("render", path, frame);
        const StripPlan strips = in_flame(input, index, [&] {
            return renderer.plan_strips(frame, strips_requested, strip_options.budget, state_copies);
        });
        // The genome as rendered, so the image reproduces itself; the same
        // in the sidecar, with or without the image's text.
        const SidecarSource sidecar{"render", args, options};
        auto describe = [&](const RenderResult& result) {
            Flame rendered = flame;
            if (options.quality > 0) rendered.quality = options.quality;
            std::vector<std::pair<std::string, std::string>> extra = {
                {"flamejit_backend", result.backend},
                {"flamejit_seed", std::to_string(options.seed)},
                {"flamejit_shuffle", to_string(result.shuffle)},
                {"flamejit_seconds", std::to_string(result.seconds)}};
            if (strips.count > 1) extra.emplace_back("flamejit_strips", std::to_string(strips.count));
            if (options.pixel_aspect != 1) extra.emplace_back("flamejit_pixel_aspect", message_number(options.pixel_aspect));
            if (resumes) extra.emplace_back("flamejit_resumed_samples", std::to_string(resumed.plotted));
            return describe_files(files[n], rendered, result, extra, with_sidecar ? &sidecar : nullptr);
        };
        RenderResult result;
        uint64_t iterated = 0;
        std::vector<FileText> texts;  // the image's files' texts, when it is written after its line is made
        if (strips.count == 1) {
            // --progressive: stages of doubling quality up to the frame's,
            // each resuming the one before and writing the image again (and
            // the state, with --save-state).
            const double quality = options.quality > 0 ? options.quality : flame.quality;
            const RenderState* from = resumes ? &resumed : nullptr;
            RenderState states[2];
            double iteration_seconds = 0;
            for (int k = 0; k < stages; ++k) {
                const bool last = k + 1 == stages;
                const double share = std::ldexp(1.0, k - (stages - 1)), before = k == 0 ? 0.0 : share / 2;
                FrameOptions staged = renderer.frame_options();
                staged.quality = quality * share;
                PreparedFrame earlier;
                if (!last) earlier = in_flame(input, index, [&] { return prepare_still(flame, staged); });
                const PreparedFrame& part = last ? frame : earlier;
                if (report && stages > 1)
                    renderer.set_progress([&report, before, share](double f) { report(before + f * (share - before)); });
                RenderState* to = !save_state.empty() || !last ? &states[k % 2] : nullptr;
                result = in_flame(input, index, [&] { return renderer.render(part, options.seed, from, to); });
                if (!save_state.empty()) write_render_state(save_state, *to);
                from = to;
                iterated += result.stats.samples;
                iteration_seconds += result.stats.seconds;
                result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                texts = describe(result);
                if (last) break;  // written below, with the image's line
                // Encoded while the next stage renders.
                std::string line;
                append_format(line, "%s: quality %g of %g (stage %d of %d), %llu samples\n", all_files.c_str(),
                              staged.quality, quality, k + 1, stages,
                              static_cast<unsigned long long>(result.histogram_samples));
                write_files(writer, files[n], std::move(result.image), std::move(texts), options.linear,
                            [&console, line] { console.print(line); });
            }
            result.stats.samples = iterated;
            result.stats.seconds = iteration_seconds;
            progress.done(result);
        } else {
            std::fprintf(stderr, "flamejit render: %s\n", describe_strips(path, strips).c_str());
            StripStates states;
            if (resumes) states.load = [&](int i) { return read_render_states(strip_parts(i)); };
            if (!save_state.empty())
                states.store = [&](int i, const RenderState& state) {
                    if (i == 0) prepare_strip_state_folder(save_state, strips.count);
                    write_render_state(strip_state_path(save_state, i, strips.count), state);
                };
            StripRender striped = in_flame(input, index, [&] {
                return render_strips_to_files(renderer, frame, options.seed, strips, files[n], options.linear, describe,
                                              report, states);
            });
            result = std::move(striped.result);
            iterated = striped.iterated;
            progress.done(result);
        }
        std::string line;
        append_format(line, "%s: %llu samples in %.2f s (%.1f M samples/s), backend %s, seed %llu", all_files.c_str(),
                      static_cast<unsigned long long>(result.stats.samples), result.seconds,
                      iterated / std::max(result.stats.seconds, 1e-9) / 1e6, result.backend.c_str(),
                      static_cast<unsigned long long>(options.seed));
        if (renderer.device_count() > 1) append_format(line, ", %d devices", renderer.device_count());
        if (strips.count > 1) append_format(line, ", %d strips", strips.count);
        if (resumes)
            append_format(line, ", resumed from %llu samples (%llu in the image)",
                          static_cast<unsigned long long>(resumed.plotted),
                          static_cast<unsigned long long>(result.histogram_samples));
        line += "\n";
        // --kernel auto: how much of the frame ran before the specialized kernel was ready.
        if (result.stats.stand_in_launches > 0)
            append_format(line, "  kernel: %llu of %llu launches ran the linked kernel while the specialized one compiled\n",
                          static_cast<unsigned long long>(result.stats.stand_in_launches),
                          static_cast<unsigned long long>(result.stats.launches));
        // The cost of lazy warp-uniform selection, for xaos or rare xforms
        // (README, "Iteration semantics"), or --shuffle auto's way around it.
        if (options.kernel.sort_idle_frames && result.shuffle == Shuffle::Sorted)
            append_format(line, "  sorted exchange (--shuffle auto): the ring's lazy selection would leave %.1f %% of "
                                "lane-rounds idle\n", 100 * ring_idle_share(flame));
        if (result.stats.idle_lane_rounds > 0)
            append_format(line, "  lazy selection (xaos or rare xforms): %.1f %% of lane-rounds past the fuse stayed put\n",
                          100.0 * result.stats.idle_lane_rounds /
                              static_cast<double>(result.stats.idle_lane_rounds + result.stats.samples));
        if (strips.count > 1) {
            // The strips are written: the line follows those of earlier images.
            writer.drain();
            console.print(line);
        } else {
            // Encoded while the next image renders.
            write_files(writer, files[n], std::move(result.image), std::move(texts), options.linear,
                        [&console, line] { console.print(line); });
        }
        // Packed accumulation is the one mode that can lose counts; say so when it did.
        if (result.stats.packed_carries > 0)
            std::fprintf(stderr,
                         "flamejit render: warning: --accumulate packed lost counts (%llu adds overflowed a "
                         "16-bit field: 128 or more hits reached one cell before its flush); --accumulate "
                         "atomic is exact\n",
                         static_cast<unsigned long long>(result.stats.packed_carries));
    }
    writer.drain();
    return 0;
}

}  // namespace

int cmd_render(const Args& args) { return run_guarded("render", [&] { return run(args); }); }

}  // namespace fj::cli
