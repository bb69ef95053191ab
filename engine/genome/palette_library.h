// flamejit — flam3's palette library, its HSV convention and palette repair.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Contract: colours are in [0,1]; hue is flam3's 0..6 scale (one unit per
// sextant), the convention in which `hue` rotations and palette blends are
// defined, so results match flam3 to rounding.
#pragma once

#include <array>
#include <string>

#include "genome/flame.h"

namespace fj {

struct HSV {
    double h = 0, s = 0, v = 0;  // h in [0,6)
};
HSV rgb_to_hsv(double r, double g, double b);
void hsv_to_rgb(const HSV& hsv, double* r, double* g, double* b);

// The library file to use when a reader was given none: $flam3_palettes,
// else the Debian/flam3 install location, else (where that is absent) the
// copy in a bundle's share/flam3/ beside the running binary's bin/.
std::string default_palette_file();

// Library palette `number` from `file`, every hue rotated by `hue_rotation`
// turns (flam3: H += 6·rotation), alpha 1. The file is read once per process.
// Throws std::runtime_error with one line when the file cannot be read or has
// no such palette.
std::array<RGBA, 256> library_palette(const std::string& file, int number, double hue_rotation);

// Fills entries whose `present` flag is false by linear interpolation between
// the nearest given entries, wrapping around the ends (flam3's
// interp_missing_colors). With no entry given the palette is left untouched.
void fill_missing_palette_entries(std::array<RGBA, 256>& palette, const std::array<bool, 256>& present);

}  // namespace fj
