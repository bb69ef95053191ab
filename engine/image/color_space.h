// flamejit — the colour space an image is written in, and the ICC profile
// that says so.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3's colours are sRGB's: palettes and backgrounds are sRGB values and
// its images are meant for an sRGB display (they carry no profile, which
// viewers read as sRGB). A print shop may want Adobe RGB files, a video
// pipeline Rec. 2020 ones. An image written in another space is the same
// picture: every pixel converted from sRGB (through linear light, since all
// four spaces share the D65 white, by one 3x3 matrix) and the file tagged
// with a profile of its space (an ICC profile in a PNG's iCCP chunk or a
// JPEG's APP2 markers, chromaticities in an EXR header), so that a
// colour-managed viewer shows what the sRGB image shows. A wider space holds
// every sRGB colour, so nothing is clipped.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "backend.h"

namespace fj {

enum class ColorSpace { Srgb, DisplayP3, AdobeRgb, Rec2020 };

const char* to_string(ColorSpace space);  // "srgb", "display-p3", "adobe-rgb", "rec2020"
// False for a name that is none of to_string's.
bool parse_color_space(const std::string& name, ColorSpace* space);

// CIE xy of the red, green and blue primaries and of the white.
struct Chromaticities {
    std::array<double, 2> red, green, blue, white;
};
Chromaticities chromaticities_of(ColorSpace space);

// The space's transfer function as ICC's parametric curve of type 3, from
// the encoded value X to linear light Y: Y = (a·X + b)^g for X >= d, else
// Y = c·X (Adobe RGB's pure power: a = 1, b = c = d = 0).
struct TransferCurve {
    double g = 1, a = 1, b = 0, c = 0, d = 0;
    double to_linear(double encoded) const;
    double from_linear(double linear) const;
};
TransferCurve transfer_curve_of(ColorSpace space);

// The space's RGB → CIE XYZ matrix (row-major, white Y = 1, D65).
std::array<double, 9> rgb_to_xyz(ColorSpace space);

// An ICC v4 display profile of the space (matrix and parametric curves,
// white adapted to ICC's D50 by Bradford's transform): the same bytes for
// the same space every time.
std::vector<uint8_t> icc_profile(ColorSpace space);

// Which of these spaces a profile made by icc_profile is; false for other
// profiles.
bool color_space_of_profile(const std::vector<uint8_t>& profile, ColorSpace* space);

// Which of these spaces an OpenEXR file's chromaticities (red, green, blue
// and white x, y as floats, the attribute ExrStream writes) are; false for
// others.
bool color_space_of_chromaticities(const std::vector<float>& xy, ColorSpace* space);

// sRGB colours to `space`, in place, pixel by pixel (alpha kept).
// `linear` images (render --linear) hold linear light already and take the
// matrix alone; the others hold encoded values in 0..255 (a PNG's before
// quantisation), with straight, not premultiplied, colour. Rows are shared
// out among `threads` threads (two powers per channel make it as costly as
// compressing the PNG).
class ColorConversion {
public:
    ColorConversion(ColorSpace to, bool linear);
    void apply(ImageF& rows, int threads) const;

private:
    std::array<double, 9> matrix_;  // linear sRGB → linear target
    TransferCurve from_, to_;
    bool linear_;
};

}  // namespace fj
