// flamejit — `flamejit animate`: a sequence of control points to numbered PNG frames.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <future>
#include <memory>
#include <mutex>
#include <random>
#include <set>
#include <thread>

#include "cli_args.h"
#include "cli_common.h"
#include "console.h"
#include "elapsed.h"
#include "errors.h"
#include "genome/interpolate.h"
#include "genome/sequence.h"
#include "image_files.h"
#include "image_writer.h"
#include "pipeline/compile_ahead.h"
#include "pipeline/frame_batch.h"
#include "pipeline/renderer.h"
#include "sidecar.h"
#include "strip_render.h"

namespace fj::cli {
namespace {

// A printf format: the %s take kScaleHelp, kTemplateHelp, kStripHelp and kSidecarHelp.
const char* kHelp =
    "usage: flamejit animate SEQUENCE [--frames FIRST:LAST[:STEP]] [-o DIR/NAME%%05d.png]... [options]\n"
    "\n"
    "Renders frames of an animation whose keyframes are the <flame>s of SEQUENCE (flam3 XML,\n"
    "or cuburn JSON; - reads standard input, and names the frames stdin%%05d.png), as\n"
    "flam3-animate does: frame N is genome time N, interpolated between the keyframes\n"
    "(extrapolated outside them) and motion-blurred over temporal_samples steps.\n"
    "\n"
    "  --frames A:B[:STEP]   frames A, A+STEP, ... up to B inclusive (default: first keyframe's\n"
    "                        time to the last one's minus 1, as flam3-animate)\n"
    "  -o PATTERN            output names, one integer conversion for the frame number\n"
    "                        (default: SEQUENCE's name with %%05d.png, in the current folder;\n"
    "                        --format exr, jpg or ppm for another format, as flam3's format=).\n"
    "                        Given again (-o f%%05d.png -o exr/f%%05d.exr), or with --format\n"
    "                        png,exr, each frame is written to each, from one render\n"
    "  --loop P              the keyframes as a loop of P frames: after the last keyframe the\n"
    "                        sequence turns into the first again, which it reaches P frames after\n"
    "                        the first's time; frame N shows the loop at N (mod P), smooth\n"
    "                        keyframes blend with their neighbours across the join, and --frames\n"
    "                        defaults to the P frames from the first keyframe's (a seamless\n"
    "                        loop); P must be longer than the keyframes' span\n"
    "  --temporal-samples N  time steps per frame, overriding the genomes' (1 = no motion blur)\n"
    "  --fields              interlaced video, as flam3-animate's fields=1: frame N's even rows\n"
    "                        rendered at time N, its odd rows at N + 0.5, each field a render of\n"
    "                        its own (half the rows and samples); needs an even height, no strips\n"
    "  --shard I/N           render only slice I (0..N-1) of N equal slices of the frames\n"
    "  --resume              skip frames whose image exists and reads completely\n"
    "  --devices LIST        CUDA devices to render on in parallel, e.g. 0,1,2,3\n"
    "  --compile-threads N   CUDA: threads that compile the kernels of coming frames' structures\n"
    "                        while frames render (default: a quarter of the cores, 1 to 4; 0: none,\n"
    "                        each new structure is compiled when its first frame comes)\n"
    "  --backend B           auto (default), cuda, cpu\n"
    "  --quality Q           samples per output pixel, overriding the genomes'\n"
    "%s"
    "%s"
    "%s"
    "  --seed N              random seed (default: a fresh one, printed); frame N uses (seed, N)\n"
    "  --threads N           CPU backend threads (default: all cores)\n"
    "  --profile FILE        cuburn output profile for a .json node (size, spp, loop length)\n"
    "  --no-png-comments     write no text (by default each frame carries its interpolated genome\n"
    "                        as flam3 XML in flam3_genome, and its sample count and seed: PNG text\n"
    "                        chunks, JPEG comments, EXR attributes); enable_png_comments=0\n"
    "                        (enable_jpeg_comments=0 for JPEG) in the environment does the same, as\n"
    "                        for flam3;\n"
    "                        nick, url and id in the environment go to flam3_nickname, flam3_url\n"
    "                        and flam3_id, as flam3 writes them\n"
    "%s"
    "  --arch, --shuffle, --block, --accumulate, --kernel, --linked-registers, --bits, --jpeg-quality,\n"
    "  --color-space, --linear, --transparent, --earlyclip, --palettes, --drop-unknown: as render\n"
    "  (frames named .exr, .jpg or .ppm are OpenEXR, JPEG or PPM)\n"
    "\n"
    "Every frame is written to a temporary name and renamed, so an interrupted run leaves only\n"
    "complete frames; --resume then renders exactly the missing ones.\n"
    "Exit status: 0 success, 2 bad input or usage, 1 internal or device failure.\n";

// A frame's random stream: its number mixed into the run's seed, so shards
// and resumed runs draw what one uninterrupted run would.
uint64_t frame_seed(uint64_t seed, long long frame) {
    uint64_t z = seed ^ (0x9E3779B97F4A7C15ull * static_cast<uint64_t>(frame + 0x5bd1e995));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

struct Run {
    std::vector<Flame> keyframes;
    std::string label;
    // One file per pattern for every frame (image_files.h), their paths the
    // patterns.
    std::vector<ImageFile> files;
    std::vector<long long> todo;
    FrameOptions frame;
    RenderOptions render;
    uint64_t seed = 0;
    StripOptions strips;
    bool linear = false;  // EXR frames of the filtered values (--linear)
    Args args;            // the command's, for --sidecar
    bool sidecar = false;
    int compile_threads = 0;  // the first device's worker compiles ahead (pipeline/compile_ahead.h)
    bool fields = false;      // --fields
    double loop = 0;          // --loop: the loop's period in frames (keyframes: loop_keyframes), or 0
    double first_time = 0;    // the first keyframe's time
};

// Frame n's files: run.files with their patterns filled in.
std::vector<ImageFile> frame_files(const Run& run, long long n) {
    std::vector<ImageFile> files = run.files;
    for (ImageFile& file : files) file.path = format_output(file.path, n);
    return files;
}

// The time frame n shows: n, or with --loop n brought into the loop's first period.
double frame_time(const Run& run, long long n) {
    const double t = static_cast<double>(n);
    return run.loop > 0 ? loop_time(t, run.first_time, run.loop) : t;
}

// A frame's renders: the frame, or its two fields (the even one first).
std::vector<PreparedFrame> prepare_frame_parts(const Run& run, double time, const FrameOptions& options) {
    if (!run.fields) return {prepare_animation_frame(run.keyframes, time, options)};
    FrameOptions even = options, odd = options;
    even.field = Field::Even;
    odd.field = Field::Odd;
    // flam3-animate renders the odd field half a frame later.
    return {prepare_animation_frame(run.keyframes, time, even), prepare_animation_frame(run.keyframes, time + 0.5, odd)};
}

// The two fields' renders as one frame: even rows from the first, odd rows
// from the second, their samples, time steps and seconds added.
RenderResult interleave_fields(RenderResult even, const RenderResult& odd) {
    const ImageF& a = even.image;
    const ImageF& b = odd.image;
    if (a.width != b.width || a.height != b.height) throw std::logic_error("interleave_fields: fields of two sizes");
    ImageF frame;
    frame.width = a.width;
    frame.height = 2 * a.height;
    const size_t row = static_cast<size_t>(a.width) * 4;
    frame.rgba.resize(row * frame.height);
    for (int y = 0; y < a.height; ++y) {
        std::copy_n(a.rgba.begin() + row * y, row, frame.rgba.begin() + row * (2 * y));
        std::copy_n(b.rgba.begin() + row * y, row, frame.rgba.begin() + row * (2 * y + 1));
    }
    even.image = std::move(frame);
    add_counts(even.stats, odd.stats);
    even.seconds += odd.seconds;
    even.prepare_seconds += odd.prepare_seconds;
    even.post_seconds += odd.post_seconds;
    even.time_samples += odd.time_samples;
    even.histogram_samples += odd.histogram_samples;
    even.histogram_bad_values += odd.histogram_bad_values;
    return even;
}

// Where the render workers' time went, summed over them (seconds): waiting
// for a frame's interpolation and packing, rendering (strips planned, the
// image made), and waiting for room in the image writer's queue. Whatever
// of the three stands out sets the frame rate.
struct WorkerTimes {
    double preparing = 0, rendering = 0, writing = 0;
    size_t compiled_ahead = 0;  // kernels, not time
};

// One renderer (one device, or the CPU) working through the shared frame
// list; the next frame is interpolated and packed while this one renders.
void render_worker(const Run& run, RenderOptions options, bool compile_ahead, std::atomic<size_t>& next,
                   ImageWriter& writer, std::mutex& print, std::set<std::string>& structures,
                   bool& grid_warned, std::atomic<bool>& stop, WorkerTimes& times) {
    options.on_cpu_fallback = [&print](const std::string& why) {
        std::lock_guard lock(print);
        std::fprintf(stderr, "flamejit: using the CPU backend (%s)\n", why.c_str());
    };
    Renderer renderer(options);
    const FrameOptions frame_options = [&] {
        FrameOptions f = run.frame;
        f.kernel = renderer.frame_options().kernel;
        return f;
    }();
    // Destroyed before the renderer it compiles for.
    std::unique_ptr<CompileAhead> ahead;
    if (compile_ahead && run.compile_threads > 0 && renderer.backend_name() == "cuda") {
        std::vector<double> times;
        for (long long n : run.todo) {
            times.push_back(frame_time(run, n));
            if (run.fields) times.push_back(frame_time(run, n) + 0.5);  // the odd field's
        }
        ahead = std::make_unique<CompileAhead>(renderer, run.keyframes, std::move(times), frame_options,
                                               run.compile_threads);
    }
    // Frame planning names the time, not the sequence.
    auto prepare = [&](size_t i) {
        return std::async(std::launch::async, [&run, &frame_options, i] {
            return input_from(run.label, [&] {
                return prepare_frame_parts(run, frame_time(run, run.todo[i]), frame_options);
            });
        });
    };
    size_t current = next++;
    if (current >= run.todo.size()) return;
    std::future<std::vector<PreparedFrame>> pending = prepare(current);
    WorkerTimes mine;
    while (!stop.load()) {
        auto t = std::chrono::steady_clock::now();
        const std::vector<PreparedFrame> parts = pending.get();
        const PreparedFrame& frame = parts.front();
        mine.preparing += seconds_since(t);
        t = std::chrono::steady_clock::now();
        const size_t following = next++;
        if (following < run.todo.size()) pending = prepare(following);
        const long long n = run.todo[current];
        const std::vector<ImageFile> files = frame_files(run, n);
        // Messages name the frame by its first file, or by all of them.
        const std::string& path = files[0].path;
        {
            std::lock_guard lock(print);
            if (!grid_warned) grid_warned = warn_point_grid("animate", path, frame);
        }
        const StripPlan strips = input_from(
            run.label, [&] { return renderer.plan_strips(frame, run.strips.strips, run.strips.budget); });
        if (run.fields && strips.count > 1)
            throw InputError(run.label + ": frame " + std::to_string(n) + ": a field needs " +
                             std::to_string(strips.count) + " strips to fit the memory, and --fields renders " +
                             "each field whole; lower the size or supersample");
        const SidecarSource sidecar{"animate", run.args, options};
        auto describe = [&](const RenderResult& result) {
            // flam3-animate embeds the genome at the frame's time; the
            // overrides of this run are part of what was rendered.
            Flame genome = interpolate(run.keyframes, frame_time(run, n));
            if (run.frame.quality > 0) genome.quality = run.frame.quality;
            if (run.frame.temporal_samples > 0) genome.temporal_samples = run.frame.temporal_samples;
            std::vector<std::pair<std::string, std::string>> extra = {
                {"flamejit_sequence", run.label},
                {"flamejit_seed", std::to_string(run.seed)},
                {"flamejit_backend", result.backend},
                {"flamejit_shuffle", to_string(result.shuffle)},
                {"flamejit_frame", std::to_string(n)},
                {"flamejit_time_samples", std::to_string(result.time_samples)},
                {"flamejit_seconds", std::to_string(result.seconds)}};
            if (strips.count > 1) extra.emplace_back("flamejit_strips", std::to_string(strips.count));
            if (options.pixel_aspect != 1) extra.emplace_back("flamejit_pixel_aspect", message_number(options.pixel_aspect));
            if (run.fields) extra.emplace_back("flamejit_fields", "1");
            if (run.loop > 0) extra.emplace_back("flamejit_loop", message_number(run.loop));
            return describe_files(files, genome, result, extra, run.sidecar ? &sidecar : nullptr);
        };
        // The frame's line, printed once its files are written.
        auto frame_line = [&](const RenderResult& result) {
            std::string line;
            append_format(line, "frame %lld: %s, %llu samples, %d time samples, %.2f s, backend %s", n,
                          file_list(files).c_str(), static_cast<unsigned long long>(result.stats.samples),
                          result.time_samples, result.seconds, result.backend.c_str());
            if (strips.count > 1) append_format(line, ", %d strips", strips.count);
            if (result.stats.stand_in_launches > 0)
                append_format(line, ", %llu of %llu launches on the linked kernel",
                              static_cast<unsigned long long>(result.stats.stand_in_launches),
                              static_cast<unsigned long long>(result.stats.launches));
            return line + "\n";
        };
        auto print_line = [&print](const std::string& line) {
            std::lock_guard lock(print);
            std::fputs(line.c_str(), stdout);
            std::fflush(stdout);
        };
        if (strips.count == 1) {
            RenderResult result = input_from(run.label, [&] {
                if (!run.fields) return renderer.render(frame, frame_seed(run.seed, n));
                // The odd field's stream: the frame's, from the seed's other half.
                return interleave_fields(renderer.render(parts[0], frame_seed(run.seed, n)),
                                         renderer.render(parts[1], frame_seed(~run.seed, n)));
            });
            std::vector<FileText> texts = describe(result);
            mine.rendering += seconds_since(t);
            t = std::chrono::steady_clock::now();
            write_files(writer, files, std::move(result.image), std::move(texts), run.linear,
                        [print_line, line = frame_line(result)] { print_line(line); });
            mine.writing += seconds_since(t);
        } else {
            {
                std::lock_guard lock(print);
                std::fprintf(stderr, "flamejit animate: %s\n", describe_strips(path, strips).c_str());
            }
            const RenderResult result = input_from(run.label, [&] {
                return render_strips_to_files(renderer, frame, frame_seed(run.seed, n), strips, files, run.linear,
                                              describe, nullptr)
                    .result;
            });
            mine.rendering += seconds_since(t);  // strips are written as they are made
            print_line(frame_line(result));
        }
        {
            std::lock_guard lock(print);
            structures.insert(frame.key.canonical());
        }
        if (following >= run.todo.size()) break;
        current = following;
    }
    std::lock_guard lock(print);
    if (ahead) times.compiled_ahead += ahead->kernels();
    times.preparing += mine.preparing;
    times.rendering += mine.rendering;
    times.writing += mine.writing;
}

int run(const Args& args) {
    const ParsedArgs a = parse_args(args,
                                    {"o", "output", "frames", "loop", "backend", "quality", "seed", "threads", "arch", "shuffle",
                                     "block", "accumulate", "kernel", "linked-registers", "bits", "jpeg-quality", "color-space", "format", "palettes", "temporal-samples", "shard", "devices", "profile", "template",
                                     "compile-threads",
                                     "size", "size-scale", "quality-scale", "pixel-aspect", "strips", "memory-budget"},
                                    {"help", "h", "transparent", "earlyclip", "drop-unknown", "resume", "no-png-comments",
                                     "linear", "sidecar", "fields"});
    if (a.has("help") || a.has("h")) {
        std::printf(kHelp, kScaleHelp, kTemplateHelp, kStripHelp, kSidecarHelp);
        return 0;
    }
    if (a.positional.size() != 1)
        throw UsageError("animate takes one sequence file, got " + std::to_string(a.positional.size()));

    Run run;
    RenderOptions& options = run.render;
    backend_options_from(a, options);
    options.quality = a.number("quality", 0);
    if (a.has("quality") && !(options.quality > 0)) throw UsageError("--quality must be positive");
    const ScaleOptions scales = scale_options_from(a);
    run.strips = strip_options_from(a);
    run.fields = a.has("fields");
    if (run.fields && a.has("strips")) throw UsageError("--fields renders each field whole: no --strips");
    options.quality *= scales.quality;
    options.pixel_aspect = scales.pixel_aspect;
    options.threads = static_cast<int>(a.integer("threads", 0));
    if (options.threads < 0 || options.threads > 4096) throw UsageError("--threads must be in 0..4096");
    options.kernel = kernel_options_from(a);
    options.transparent = a.has("transparent");
    options.earlyclip = a.has("earlyclip");
    run.seed = seed_from(a, std::random_device{}());
    const long long temporal = a.integer("temporal-samples", 0);
    if (a.has("temporal-samples") && (temporal < 1 || temporal > kMaxTimeSamples))
        throw UsageError("--temporal-samples must be in 1.." + std::to_string(kMaxTimeSamples));
    run.frame.quality = options.quality;
    run.frame.pixel_aspect = options.pixel_aspect;
    run.frame.temporal_samples = static_cast<int>(temporal);
    // Compiling ahead and PNG encoding each get a quarter of the cores, 1 to 4.
    const int helper_threads = quarter_of_cores();
    run.compile_threads = compile_threads_from(a);
    // Frames go to the devices one at a time, each frame on one.
    const std::vector<int> devices = options.devices;

    GenomeInput input = load_genomes(a, true);
    if (const std::optional<FlameTemplate> templ = template_option(a, "animate"))
        for (Flame& f : input.flames) apply_template(f, *templ);
    scale_flames(input, scales);
    run.label = input.label;
    run.keyframes = std::move(input.flames);
    const SequenceCheck check = check_sequence(run.keyframes, run.label);
    if (check.resized > 0)
        std::fprintf(stderr, "flamejit animate: warning: %d flame(s) of %s had another size; using %dx%d as flam3-animate\n",
                     check.resized, run.label.c_str(), run.keyframes[0].width, run.keyframes[0].height);
    // flam3-animate leaves an odd height's last row unwritten.
    if (run.fields && run.keyframes[0].height % 2 != 0)
        throw InputError(run.label + ": --fields needs an even image height, not " +
                         std::to_string(run.keyframes[0].height));
    run.first_time = run.keyframes.front().time;
    run.loop = loop_from(a);
    if (run.loop > 0) run.keyframes = loop_keyframes(run.keyframes, run.loop, run.label);

    FrameRange range;
    if (a.has("frames")) {
        range = parse_frame_range(a.value("frames"));
    } else if (run.loop > 0) {
        // One period of the loop, from the first keyframe's frame.
        const std::string what = run.label + ": a loop of " + message_number(run.loop) + " frames (pick frames with --frames)";
        if (!(std::fabs(run.first_time) < 1e15 && run.loop < 1e15)) throw InputError(what + ": too far out");
        const auto first = static_cast<long long>(run.first_time);
        range = frame_range(first, first + static_cast<long long>(std::ceil(run.loop)) - 1, 1, what);
    } else {
        // flam3-animate's default: the first keyframe's time to the last's, less one.
        const double from = run.keyframes.front().time, to = run.keyframes.back().time;
        char times[64];
        std::snprintf(times, sizeof times, "%g to %g", from, to);
        const std::string what = run.label + ": the keyframes' times, " + times + " (pick frames with --frames)";
        if (!(std::fabs(from) < 1e15 && std::fabs(to) < 1e15)) throw InputError(what + ": too far apart");
        const auto first = static_cast<long long>(from);
        range = frame_range(first, std::max(first, static_cast<long long>(to) - 1), 1, what);
    }
    std::vector<long long> frames = range.frames();
    if (a.has("shard")) frames = shard_frames(frames, parse_shard(a.value("shard")));

    std::vector<std::string> patterns = output_options(a);
    if (patterns.empty())
        for (const std::string& extension : image_extensions_from(a))
            patterns.push_back(std::filesystem::path(run.label).stem().string() + "%05d" + extension);
    for (const std::string& pattern : patterns) check_output_pattern(pattern);
    const std::vector<OutputFormat> formats = output_formats_from(a, patterns);
    options.linear = run.linear = formats[0].linear;
    run.files = image_files(a, patterns, formats, options.transparent, png_threads(helper_threads));
    run.sidecar = a.has("sidecar");

    int skipped = 0;
    for (long long f : frames) {
        const std::vector<ImageFile> files = frame_files(run, f);
        std::set<std::string> taken;
        for (const ImageFile& file : files) {
            if (!taken.insert(std::filesystem::path(file.path).lexically_normal().string()).second)
                throw UsageError("-o: frame " + std::to_string(f) + " would be written to " + file.path + " twice");
            check_output("-o", file.path);
            if (run.sidecar) check_output("--sidecar", sidecar_path(file.path));
        }
        if (a.has("resume") && files_complete(files, run.keyframes[0].width, run.keyframes[0].height, run.sidecar))
            ++skipped;
        else
            run.todo.push_back(f);
    }
    std::printf("%s: %zu keyframes, %zu frames in this job, %d already complete, seed %llu\n", run.label.c_str(),
                run.keyframes.size(), frames.size(), skipped, static_cast<unsigned long long>(run.seed));
    std::fflush(stdout);

    run.args = args;
    const auto t0 = std::chrono::steady_clock::now();
    std::atomic<size_t> next{0};
    std::atomic<bool> stop{false};
    std::mutex print;
    std::set<std::string> structures;
    bool grid_warned = false;  // once a run: the zooms of one sequence are alike
    WorkerTimes times;
    std::exception_ptr failure;
    {
        // PNG encoding takes longer at 1080p than a GPU renders a frame of a
        // short animation.
        ImageWriter writer(2 * devices.size() + helper_threads, helper_threads);
        std::vector<std::thread> workers;
        for (int device : devices) {
            RenderOptions o = options;
            o.devices = {device};
            workers.emplace_back([&, o, first = workers.empty()] {
                try {
                    render_worker(run, o, first, next, writer, print, structures, grid_warned, stop, times);
                } catch (...) {
                    std::lock_guard lock(print);
                    if (!failure) failure = std::current_exception();
                    stop = true;
                }
            });
        }
        for (auto& w : workers) w.join();
        if (!failure) {
            try {
                writer.drain();
            } catch (...) {
                failure = std::current_exception();
            }
        }
    }
    if (failure) std::rethrow_exception(failure);
    const double seconds = seconds_since(t0);
    std::printf("rendered %zu frame(s) in %.2f s (%.3f frames/s), %zu kernel structure(s) (%zu compiled ahead), %d "
                "skipped as complete\n",
                run.todo.size(), seconds, run.todo.empty() ? 0.0 : run.todo.size() / seconds, structures.size(),
                times.compiled_ahead, skipped);
    std::printf("render workers: %.2f s rendering, %.2f s waiting for frames to be interpolated and packed, "
                "%.2f s for the image writer\n",
                times.rendering, times.preparing, times.writing);
    return 0;
}

}  // namespace

int cmd_animate(const Args& args) { return run_guarded("animate", [&] { return run(args); }); }

}  // namespace fj::cli
