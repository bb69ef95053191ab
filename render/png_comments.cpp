// flamejit — the text of the images that render and animate write.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "png_comments.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>

#include "genome/flam3_writer.h"
#include "image/jpeg_io.h"

namespace fj::cli {

bool png_comments_wanted(const ParsedArgs& args, ImageFormat format) {
    const char* flam3_switch = std::getenv(format == ImageFormat::Jpeg ? "enable_jpeg_comments" : "enable_png_comments");
    return !args.has("no-png-comments") && !(flam3_switch && std::atoi(flam3_switch) == 0);
}

namespace {

// flam3 writes its nickname, url and id chunks whether or not the variables
// are set, empty when not (flam3-render 3.1.1, observed), so tools that read
// them find the keys in every flam3 PNG.
std::string environment(const char* name) {
    const char* value = std::getenv(name);
    return value ? value : "";
}

}  // namespace

void add_png_comments(ImageOptions& png, ImageFormat format, const Flame& rendered, const RenderResult& result,
                      const std::vector<std::pair<std::string, std::string>>& extra) {
    const uint64_t samples = result.histogram_samples;
    const double seconds = result.seconds;
    char rate[32];
    // flam3 prints the rate with %g; so do we, so both read the same way.
    std::snprintf(rate, sizeof rate, "%g",
                  samples ? static_cast<double>(result.histogram_bad_values) / static_cast<double>(samples) : 0.0);
    // flam3's keys in flam3's order.
    png.text = {{"flam3_version", std::string("flamejit-") + FLAMEJIT_VERSION},
                {"flam3_nickname", environment("nick")},
                {"flam3_url", environment("url")},
                {"flam3_id", environment("id")},
                {"flam3_error_rate", rate},
                {"flam3_samples", std::to_string(samples)},
                {"flam3_time", std::to_string(static_cast<long long>(seconds))}};
    png.text.insert(png.text.end(), extra.begin(), extra.end());
    png.genome_xml = write_flam3_string(rendered);
    static std::atomic<bool> noted{false};
    if (format == ImageFormat::Jpeg && !jpeg_comment_fits("flam3_genome", png.genome_xml) && !noted.exchange(true))
        std::fprintf(stderr,
                     "flamejit: warning: a genome of %zu bytes is longer than a JPEG comment holds; such JPEGs go "
                     "without it (--sidecar keeps it)\n",
                     png.genome_xml.size());
}

}  // namespace fj::cli
