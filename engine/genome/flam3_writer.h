// flamejit — writes Flames as flam3 genome XML.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Contract: read_flam3_string(write_flam3_string(flames)) gives `flames` back
// value for value, every double bit for bit, and flam3 3.1.1's
// flam3_parse_xml2 reads the text to the genome it reads from the file the
// flames came from (for variations both know). To get there:
//   - every number is the shortest decimal that reads back to the same
//     double, and every attribute the reader understands is written, with
//     flam3's names (xforms: weight, color, color_speed, animate, opacity,
//     variation weights and their parameters, coefs, post, chaos), so no
//     reader default is relied on;
//   - the palette is written in a form that reads back exactly: flam3's hex
//     <palette> when its entries are 8-bit, else <color> entries; either
//     leaves out the entries that the readers' filling-in of missing
//     entries recreates (so a palette of a few given colours is written as
//     given). A library palette also gets `palette="N"` and `hue`, which
//     rebuild it exactly from the same library file;
//   - Fractorium's colour curves (Flame::curves) as its overall_curve,
//     red_curve, green_curve and blue_curve, which flam3 ignores;
//   - a flame with Fractorium's Pre and Post uses is written with their
//     pre_/post_ names in Fractorium's dialect (version "… EMBER …", where
//     pre_blur is Fractorium's and flam3's is spelled pre_gaussian_blur),
//     which Fractorium and our reader tell by that version;
//   - an xform's <motion> elements as children of its element, with their
//     amplitudes that are not 0 (every value flam3 reads in one, not only
//     the few flam3 itself prints);
//   - a flame's <edit> genealogy (Flame::edit) goes after the palette, as
//     flam3 prints it, unchanged (no new <edit> is wrapped round it: writing
//     a genome does not make a new one);
//   - symmetry: the reader adds a <symmetry>'s xforms on every read, so its
//     xforms are not written: a <symmetry> element stands where they are
//     (flam3 itself writes both, and a re-read applies the symmetry twice).
// What cannot round-trip, and why:
//   - `symmetry` reads back 0 when its xforms are no longer as flam3 adds
//     them (edited, solo'd, or sorted together with a final xform that came
//     before the <symmetry>): they are then written as plain xforms, which
//     keeps the picture; the field only records where they came from;
//   - a computed palette entry (an interpolated frame's, a hue-rotated one)
//     that no decimal `rgb` reaches through the reader's a·rgb/255 (about
//     one component in 256) is written as the nearest value the reader can
//     produce, one unit in the last place off; a colour under alpha 0 reads
//     back black unless the palette is 8-bit (hex keeps it);
//   - a variation listed in a <motion> element with every amplitude 0 (it
//     moves nothing) is left out;
//   - interpolation="smooth" reads back linear on the first and the
//     next-to-last flame of what is written (flam3's parser rule), so a
//     smooth keyframe written alone loses it.
// A value that is not finite cannot be read back, nor can an edit that is
// not one well-formed <edit> element: both throw std::invalid_argument
// naming the flame (and the field).
#pragma once

#include <string>
#include <vector>

#include "genome/flame.h"

namespace fj {

// One <flame> element, or for several a <flames> element holding them in
// order (both readers find every <flame> at any depth).
std::string write_flam3_string(const std::vector<Flame>& flames);
std::string write_flam3_string(const Flame& flame);

// The same text in a file, written to a temporary name in the same folder
// and renamed, so `path` is either complete or untouched. Throws
// std::runtime_error naming the path when it cannot be written.
void write_flam3_file(const std::string& path, const std::vector<Flame>& flames);

}  // namespace fj
