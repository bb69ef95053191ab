// flamejit — `flamejit compare`: the fidelity ratio of one image against two flam3 renders.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <cmath>
#include <cstdio>
#include <exception>
#include <iostream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "commands.h"
#include "image/fidelity.h"
#include "image/level.h"
#include "image/png_io.h"

namespace fj::cli {

namespace {

constexpr const char* compare_usage =
    "usage: flamejit compare A.png B.png C.png [--json]\n"
    "\n"
    "A and B: one genome rendered by flam3 at two seeds; C: the same genome rendered by flamejit.\n"
    "Prints the fidelity ratio R = (mean|C-A|/mean|B-A| + mean|C-B|/mean|A-B|) / 2 on RGB after a\n"
    "2x box downsample (16-bit images are scaled to the 8-bit range first). R near 1 means C is as\n"
    "close to flam3 as flam3 is to itself; a systematic error reads well above 1. Images are\n"
    "PNG, JPEG, binary PPM (told by their first bytes, as flam3-render writes them) or OpenEXR as\n"
    "flamejit writes it (tone-mapped, not --linear).\n"
    "Also prints C's mean level against A's and B's (in the one of R, G, B where it differs most,\n"
    "as a share of their level) and how far A's and B's levels are apart: a change of tone moves\n"
    "the level beyond the references' spread where per-pixel noise hides it from R.\n"
    "\n"
    "  --json   print the ratio and its parts as one JSON object (infinite values as null)\n"
    "  --help   print this text\n";

std::string fixed(double value, int digits) {
    if (std::isinf(value)) return "inf";
    char buffer[64];
    std::snprintf(buffer, sizeof buffer, "%.*f", digits, value);
    return buffer;
}

nlohmann::json number_or_null(double value) {
    return std::isfinite(value) ? nlohmann::json(value) : nlohmann::json(nullptr);
}

}  // namespace

int cmd_compare(const Args& args) {
    std::vector<std::string> images;
    bool json = false;
    for (const auto& arg : args) {
        if (arg == "--help" || arg == "-h") {
            std::cout << compare_usage;
            return 0;
        }
        if (arg == "--json") {
            json = true;
        } else if (arg.size() > 1 && arg[0] == '-') {
            std::cerr << "flamejit compare: unknown option " << arg << " (see flamejit compare --help)\n";
            return 2;
        } else {
            images.push_back(arg);
        }
    }
    if (images.size() != 3) {
        std::cerr << "flamejit compare: expected 3 images (A.png B.png C.png), got " << images.size()
                  << " (see flamejit compare --help)\n";
        return 2;
    }

    FidelityResult result;
    LevelShift level;
    try {
        const PngImage a = read_image(images[0]);
        const PngImage b = read_image(images[1]);
        const PngImage c = read_image(images[2]);
        result = fidelity_ratio(a, b, c);
        level = level_shift({channel_means(a), channel_means(b)}, channel_means(c));
    } catch (const std::exception& error) {
        std::cerr << "flamejit compare: " << error.what() << "\n";
        return 2;
    }

    if (json) {
        nlohmann::json out = {
            {"ratio", number_or_null(result.ratio)},
            {"ratio_a", number_or_null(result.ratio_a)},
            {"ratio_b", number_or_null(result.ratio_b)},
            {"error_ca", result.error_ca},
            {"error_cb", result.error_cb},
            {"error_ab", result.error_ab},
            {"level_shift", level.shift},
            {"level_spread", level.spread},
            {"width", result.width},
            {"height", result.height},
            {"a", images[0]},
            {"b", images[1]},
            {"c", images[2]},
        };
        std::cout << out.dump() << "\n";
    } else {
        std::cout << "fidelity ratio R = " << fixed(result.ratio, 4) << "  (R1 vs A = " << fixed(result.ratio_a, 4)
                  << ", R2 vs B = " << fixed(result.ratio_b, 4) << ")\n"
                  << "mean |C-A| = " << fixed(result.error_ca, 4) << ", mean |C-B| = " << fixed(result.error_cb, 4)
                  << ", mean |A-B| = " << fixed(result.error_ab, 4) << "  (8-bit RGB, downsampled to "
                  << result.width << "x" << result.height << ")\n"
                  << "mean level of C " << (level.shift >= 0 ? "+" : "") << fixed(100 * level.shift, 2)
                  << " % against A's and B's (A and B " << fixed(100 * level.spread, 2) << " % apart)\n";
    }
    return 0;
}

}  // namespace fj::cli
