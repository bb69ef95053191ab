// SPDX-License-Identifier: GPL-3.0-or-later
#include "sidecar.h"

#include <algorithm>
#include <thread>

#include <nlohmann/json.hpp>

#include "flamejit_commit.h"

namespace fj::cli {

std::string sidecar_path(const std::string& image) { return image + ".json"; }

std::string sidecar_text(const std::string& image, const char* command, const Args& args, const RenderOptions& options,
                         const OutputFormat& format, const ImageOptions& metadata) {
    nlohmann::json j;
    j["image"] = image;
    nlohmann::json argv = nlohmann::json::array({"flamejit", command});
    for (const std::string& a : args) argv.push_back(a);
    j["command"] = argv;
    j["flamejit_version"] = FLAMEJIT_VERSION;
    j["flamejit_commit"] = FLAMEJIT_COMMIT;
    // As the image's text chunks hold them: samples, error rate, time,
    // backend, seed, ...
    nlohmann::json text = nlohmann::json::object();
    for (const auto& [key, value] : metadata.text) text[key] = value;
    j["text"] = text;
    j["settings"] = {
        {"quality", options.quality},  // 0: the genome's
        {"pixel_aspect", options.pixel_aspect},
        // The CPU backend's, resolved as it does: its blocks of lanes, and
        // so its image for a seed, follow them (as the GPU's pool follows
        // the device).
        {"threads",
         options.threads > 0 ? options.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()))},
        {"devices", options.devices},
        // As asked; the text's flamejit_shuffle says what auto made of it.
        {"shuffle", shuffle_asked(options.kernel)},
        {"block", options.kernel.block_size},
        {"accumulate", to_string(options.kernel.accumulation)},
        {"kernel", to_string(options.kernel.form)},
        {"arch", options.kernel.arch},
        {"format", to_string(format.format)},
        {"bits", format.bits},
        {"linear", format.linear},
        {"color_space", to_string(format.color_space)},
        {"transparent", options.transparent},
        {"earlyclip", options.earlyclip}};
    if (format.format == ImageFormat::Jpeg) j["settings"]["jpeg_quality"] = format.jpeg_quality;
    j["genome"] = metadata.genome_xml;
    return j.dump(2) + "\n";
}

}  // namespace fj::cli
