// flamejit — the fidelity ratio: how far an image is from flam3, measured in
// units of how far flam3 is from itself.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A and B are flam3 renders of one genome at two seeds, C is ours. Each is
// box-downsampled by 2 (so per-pixel sampling noise counts less than a real
// bias), RGB only, 16-bit images first brought to the 8-bit range. Then
//   R1 = mean|C−A| / mean|B−A|,  R2 = mean|C−B| / mean|A−B|,  R = (R1+R2)/2.
// R ≈ 1: C is as close to flam3 as flam3 is to itself; R < 1 is possible
// (C lies "between" A and B); a systematic error pushes R above 1.
//
// When A and B are identical (a deterministic scene, or a blank one) the
// denominator is 0: a component is then 1 if C equals the reference too
// (nothing to tell apart) and infinity otherwise.
#pragma once

#include <string>

#include "image/png_io.h"

namespace fj {

struct FidelityResult {
    double ratio = 0;       // R = (R1 + R2) / 2
    double ratio_a = 0;     // R1: C against A, scaled by |B−A|
    double ratio_b = 0;     // R2: C against B, scaled by |A−B|
    double error_ca = 0;    // mean|C−A| per RGB sample, 8-bit scale, after downsampling
    double error_cb = 0;    // mean|C−B|
    double error_ab = 0;    // mean|A−B|: flam3's own seed-to-seed difference
    int width = 0, height = 0;  // the compared (downsampled) size
};

// Throws std::runtime_error when the sizes differ or an image is smaller
// than 2×2.
FidelityResult fidelity_ratio(const PngImage& a, const PngImage& b, const PngImage& c);

// Mean absolute RGB difference (8-bit scale) after the 2× box downsample.
double downsampled_mean_abs_difference(const PngImage& x, const PngImage& y);

}  // namespace fj
