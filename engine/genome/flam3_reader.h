// flamejit — reads flam3 genome files (XML) into Flames.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Contract: the result equals what flam3 3.1.1's flam3_parse_xml2 produces
// with defaults on (every <flame> anywhere in the document, in document order;
// <symmetry> applied where it appears, so twice for flam3-written files;
// library palettes with hue, missing palette entries interpolated; rotate
// unwrapped between consecutive flames; the flame's <edit> genealogy kept as
// XML text in Flame::edit), restricted to the variations the registry knows.
// Where flam3 would warn and go on with a guess (unknown variation, trailing
// garbage in a number, an impossible size) this reader throws a GenomeError
// instead, whose message is one line naming the file, the flame (0-based
// index, and name if any) and the element and attribute, e.g.
//   x.flam3: flame 2 "foo": <xform 3> attribute "coefs": expected 6 numbers, got 5
// Indices are 0-based, as flam3's `soloxform` counts.
// The checks libxml2 makes for flam3 are made too: an attribute given twice
// in one element, or elements nested past 256, are errors.
// Palette quirk not reproduced: flam3 resets a <color>'s alpha before each of
// its attributes, losing the alpha when `rgba`/`a` precede `index`; here the
// alpha is kept whatever the attribute order.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "genome/flame.h"
#include "genome/flame_template.h"

namespace fj {

struct ReadOptions {
    // Drop unknown variations (and parameters) with one warning per name on
    // stderr instead of failing.
    bool drop_unknown_variations = false;
    // The one flame a caller will use (-1: all of them). The others are
    // still read, for the fix-ups across a sequence, but what flamejit does
    // not render is dropped from them without a word: an unknown variation
    // elsewhere in a file does not stop its flame I from rendering.
    int only_flame = -1;
    // Library palettes; empty means $flam3_palettes, else flam3's install path.
    std::string palette_file;
    // The flames are the keyframes of a loop (genome/sequence.h
    // loop_keyframes): their smooth interpolation stays where an open
    // sequence's ends make it linear.
    bool loop = false;
};

class GenomeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

std::vector<Flame> read_flam3_file(const std::string& path, const ReadOptions& options = {},
                                   std::vector<FlameSource>* sources = nullptr);

// `name_for_messages` stands for the file in error messages and FlameSource.
std::vector<Flame> read_flam3_string(const std::string& text, const std::string& name_for_messages,
                                     const ReadOptions& options = {},
                                     std::vector<FlameSource>* sources = nullptr);

// The template (genome/flame_template.h) that the first <flame> of `text`
// gives; its values are checked as a genome's are (GenomeError naming the
// attribute).
FlameTemplate read_flam3_template_string(const std::string& text, const std::string& name_for_messages);
FlameTemplate read_flam3_template(const std::string& path);

// Each <flame> element of a file as a document of its own (empty when the
// file is not XML), so a tool can read the flames one by one and a flame with
// an unsupported variation does not hide the others of its file.
std::vector<std::string> flam3_flame_elements(const std::string& path);

}  // namespace fj
