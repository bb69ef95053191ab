// flamejit — flam3's palette library, its HSV convention and palette repair.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/palette_library.h"

#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <stdexcept>
#include <vector>

#include <pugixml.hpp>

namespace fj {
namespace {

using Palette = std::array<RGBA, 256>;

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// The library stores 256 entries "00RRGGBB", whitespace allowed between them.
bool parse_library_data(const char* text, Palette* out) {
    const char* p = text;
    for (int i = 0; i < 256; ++i) {
        while (std::isspace(static_cast<unsigned char>(*p))) ++p;
        int v[8];
        for (int k = 0; k < 8; ++k) {
            v[k] = hex_digit(p[k]);
            if (v[k] < 0) return false;  // also stops at the terminating NUL
        }
        if (v[0] != 0 || v[1] != 0) return false;
        (*out)[i] = {(v[2] * 16 + v[3]) / 255.0, (v[4] * 16 + v[5]) / 255.0,
                     (v[6] * 16 + v[7]) / 255.0, 1.0};
        p += 8;
    }
    return true;
}

struct Library {
    std::map<int, Palette> palettes;  // by number; the first of duplicates wins, as in flam3
};

const Library& load_library(const std::string& file) {
    static std::mutex mutex;
    static std::map<std::string, Library> cache;
    std::lock_guard<std::mutex> lock(mutex);
    auto found = cache.find(file);
    if (found != cache.end()) return found->second;

    std::error_code ec;
    if (std::filesystem::is_directory(file, ec))
        throw std::runtime_error("palette library " + file + ": a folder, not a file");
    pugi::xml_document doc;
    const pugi::xml_parse_result result = doc.load_file(file.c_str());
    if (!result)
        throw std::runtime_error("palette library " + file + ": " + result.description());
    Library library;
    // flam3 accepts <palette> elements at any depth.
    for (pugi::xpath_node node : doc.select_nodes("//palette")) {
        const pugi::xml_node element = node.node();
        const pugi::xml_attribute number = element.attribute("number");
        Palette palette{};
        if (!number || !parse_library_data(element.attribute("data").value(), &palette)) continue;
        library.palettes.emplace(number.as_int(), palette);
    }
    if (library.palettes.empty())
        throw std::runtime_error("palette library " + file + ": no palettes in it");
    return cache.emplace(file, std::move(library)).first->second;
}

}  // namespace

HSV rgb_to_hsv(double r, double g, double b) {
    const double max = std::max(r, std::max(g, b));
    const double min = std::min(r, std::min(g, b));
    const double del = max - min;
    HSV out;
    out.v = max;
    out.s = max != 0.0 ? del / max : 0.0;
    if (out.s != 0.0) {
        const double rc = (max - r) / del, gc = (max - g) / del, bc = (max - b) / del;
        // Ties resolve red, then green, then blue, as flam3 does.
        if (r == max) out.h = bc - gc;
        else if (g == max) out.h = 2 + rc - bc;
        else out.h = 4 + gc - rc;
        if (out.h < 0) out.h += 6;
    }
    return out;
}

void hsv_to_rgb(const HSV& hsv, double* r, double* g, double* b) {
    double h = hsv.h;
    // Far hues (a genome's hue0 of 1e300, a blend far past 1) in one step:
    // stepping by 6 would take forever. The steps stay for the near ones,
    // as flam3's results come from them. A hue that is not a number (from
    // colours whose spread overflows) is taken as 0, not cast to int.
    if (!std::isfinite(h)) h = 0.0;
    else if (h >= 12.0 || h < -6.0) h = std::fmod(h, 6.0);
    while (h >= 6.0) h -= 6.0;
    while (h < 0.0) h += 6.0;
    const double s = hsv.s, v = hsv.v;
    const int sextant = static_cast<int>(std::floor(h));
    const double f = h - sextant;
    const double p = v * (1 - s), q = v * (1 - s * f), t = v * (1 - s * (1 - f));
    switch (sextant) {
        case 1: *r = q; *g = v; *b = p; break;
        case 2: *r = p; *g = v; *b = t; break;
        case 3: *r = p; *g = q; *b = v; break;
        case 4: *r = t; *g = p; *b = v; break;
        case 5: *r = v; *g = p; *b = q; break;
        default: *r = v; *g = t; *b = p; break;
    }
}

std::string default_palette_file() {
    const char* env = std::getenv("flam3_palettes");
    if (env && *env) return env;
    const std::string installed = "/usr/share/flam3/flam3-palettes.xml";
    if (std::filesystem::exists(installed)) return installed;
    // A relocatable bundle (tools/bundle.sh) carries the library beside its
    // bin/, for machines without flam3 installed; the installed file still
    // wins where there is one, as flam3 itself reads only that.
    std::error_code ec;
    const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", ec);
    if (!ec) {
        const std::filesystem::path carried = self.parent_path().parent_path() / "share/flam3/flam3-palettes.xml";
        if (std::filesystem::exists(carried, ec)) return carried.string();
    }
    return installed;
}

std::array<RGBA, 256> library_palette(const std::string& file, int number, double hue_rotation) {
    const Library& library = load_library(file);
    auto found = library.palettes.find(number);
    if (found == library.palettes.end())
        throw std::runtime_error("palette " + std::to_string(number) + " is not in " + file);
    Palette out = found->second;
    for (RGBA& c : out) {
        HSV hsv = rgb_to_hsv(c.r, c.g, c.b);
        hsv.h += hue_rotation * 6.0;
        hsv_to_rgb(hsv, &c.r, &c.g, &c.b);
    }
    return out;
}

void fill_missing_palette_entries(std::array<RGBA, 256>& palette, const std::array<bool, 256>& present) {
    int first = -1, last = -1;
    for (int i = 0; i < 256; ++i)
        if (present[i]) {
            if (first < 0) first = i;
            last = i;
        }
    if (first < 0) return;
    int i = 0;
    while (i < 256) {
        if (present[i]) {
            ++i;
            continue;
        }
        const int start = i;
        while (i < 256 && !present[i]) ++i;
        // A gap touching either end wraps to the entry on the far side.
        int left = start - 1, right = i;
        int left_colour = left, right_colour = right;
        if (left < 0) { left = last - 256; left_colour = last; }
        if (right > 255) { right = first + 256; right_colour = first; }
        const RGBA a = palette[left_colour], b = palette[right_colour];
        for (int j = start; j < i; ++j) {
            const double t = (j - left) / static_cast<double>(right - left);
            palette[j] = {a.r * (1.0 - t) + b.r * t, a.g * (1.0 - t) + b.g * t,
                          a.b * (1.0 - t) + b.b * t, a.a * (1.0 - t) + b.a * t};
        }
    }
}

}  // namespace fj
