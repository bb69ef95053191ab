// flamejit — flam3 templates: output settings laid over genomes.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// A template is a flam3 XML file whose first <flame> gives only settings of
// the output (flam3-genome's template=, as Electric Sheep sizes its frames):
// size, quality, supersample, filter, filter_shape, passes,
// temporal_samples, background, zoom, estimator_radius, estimator_minimum,
// estimator_curve, gamma_threshold, highlight_power, palette_mode,
// interpolation, interpolation_type, palette_interpolation,
// hsv_rgb_palette_blend, temporal_filter_type, temporal_filter_width and
// temporal_filter_exp. Each of these it gives replaces the genome's; a new
// size keeps the genome's vertical framing (scale times the template's
// height over the genome's). Its other attributes (the picture's own:
// center, scale, rotate, brightness, gamma, vibrancy, palette, …) and its
// children are ignored.
//
// Contract: apply_template equals flam3 3.1.1's flam3_apply_template on a
// template flam3 read with defaults off, for what the template gives, but
// for flam3's slips, which flamejit does not repeat: flam3 cannot set the
// gaussian filter shape (it tests the shape's number > 0) nor smooth
// interpolation (its parser makes a file's first flame linear), sets the
// blue of the background only when the green is not negative, and, where a
// template does not give them, resets interpolation, palette_interpolation
// and hsv_rgb_palette_blend to their defaults.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "genome/flame.h"

namespace fj {

struct FlameTemplate {
    std::string file;
    Flame values;                      // its <flame>'s attributes over flam3's defaults
    std::set<std::string> given;       // the settings above that it gives, by flam3's names
    std::vector<std::string> ignored;  // its other attributes, in order
    int flames = 1;                    // <flame> elements in the file: the first is the template
};

void apply_template(Flame& flame, const FlameTemplate& t);
// The image made width × height, the plane's vertical extent kept (scale
// times the new height over the old): a wider image shows more at the
// sides. Templates resize so, and render's and animate's --size.
void set_image_size(Flame& flame, int width, int height);

}  // namespace fj
