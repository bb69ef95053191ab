// flamejit — an image's mean level against renders of its genome: the test
// that tells a change of tone from noise.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A change of tone (brightness, gamma, vibrancy) moves most pixels the same
// way, so it moves the image's mean, while seed-to-seed noise moves a mean
// over every pixel far less than one pixel. Where per-pixel noise is large
// (a low-quality image) the fidelity ratio cannot see a few per cent of
// brightness; the mean can, as long as the renders' own means agree.
//
// How far renders' means stray is a property of the genome and the quality
// (at quality 3 the bundled genome's wander by a few per cent from seed to
// seed, at quality 50 by a quarter of one), and two references estimate it
// badly (the ratio of a deviation to one difference has tails like a
// Cauchy's). So the test is a Student t test of the image's mean against
// the references' mean and spread: with n references the statistic has
// n − 1 degrees of freedom, and with too few it cannot fail.
#pragma once

#include <array>
#include <vector>

#include "image/png_io.h"

namespace fj {

// Mean of each of R, G and B over the image, 8-bit range (as PngImage::at8).
std::array<double, 3> channel_means(const PngImage& image);

struct LevelShift {
    // The image's mean minus the references' mean, in the channel where it
    // is largest in size, as a share of the references' level (their mean
    // over R, G and B, at least one 8-bit step).
    double shift = 0;
    // The references' largest minus smallest mean in that channel, the same way.
    double spread = 0;
    // Student's t of the shift: the deviation over the references' sample
    // standard deviation · √(1 + 1/n) (infinite when they agree exactly and
    // the image differs, 0 when all agree).
    double t = 0;
    int references = 0;
};

// `references` holds channel_means of two or more renders.
LevelShift level_shift(const std::vector<std::array<double, 3>>& references, const std::array<double, 3>& image);

// Two-sided 0.1 % critical value of Student's t with n − 1 degrees of
// freedom for n = 2..kLevelReferences references.
double level_t_critical(int references);

// The references a level test that can fail uses: ten, whose t (9 degrees
// of freedom) fails a render of the genome one time in a thousand and finds
// a shift of eight times the standard deviation of the renders' means 19
// times in 20 (image_test). The bundled genome at 256x192, quality 50,
// strays by about 0.5 %, and 10 % more brightness or 5 % more gamma shift
// it by 3.3-3.8 %: t 9 to 11 with ten references, 6 to 7 with six (whose
// critical value is 6.9).
constexpr int kLevelReferences = 10;

}  // namespace fj
