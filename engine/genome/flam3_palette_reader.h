// flamejit — the palette elements of a flam3 genome: <color>, <colors>, <palette>.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Internal to the reader. Entries are collected with a flag saying which were
// given, because flam3 interpolates the others once the flame is read.
#pragma once

#include <array>
#include <string>

#include <pugixml.hpp>

#include "genome/flam3_read_context.h"
#include "genome/flame.h"

namespace fj::flam3_read {

struct PaletteBuilder {
    std::array<RGBA, 256> colors{};
    std::array<bool, 256> present{};
};

// Reads one <color>, <colors> or <palette> element into `palette`; `library`
// is the palette file for the old two-palette blend form.
void read_palette_element(const ReadContext& ctx, const pugi::xml_node& element, const std::string& library,
                          PaletteBuilder* palette);

// The largest channel value (in flam3's 0..1 scale) a palette may hold: far
// past any real palette, near enough that hits of it add up in float.
inline constexpr double kMaxPaletteChannel = 1000;

// Fails naming the first entry with a channel outside ±kMaxPaletteChannel
// (values that large, e.g. from rgb="1e308" or blend="1e300", made colours
// of inf and NaN).
void check_palette_range(const ReadContext& ctx, const std::array<RGBA, 256>& palette);

}  // namespace fj::flam3_read
