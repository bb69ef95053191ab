// flamejit — the <xform>, <finalxform> and <symmetry> part of the flam3 reader.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Internal to the reader. XformList mirrors flam3's xform array while a flame
// is read (the final xform always last), because flam3's defaults and its
// symmetry sorting depend on array positions at the time each xform is added.
#pragma once

#include <string>
#include <vector>

#include <pugixml.hpp>

#include "genome/flam3_read_context.h"
#include "genome/flame.h"

namespace fj::flam3_read {

struct XformList {
    std::vector<Xform> xforms;  // standard xforms in order, then the final one if any
    bool has_final = false;

    int standard_count() const { return static_cast<int>(xforms.size()) - (has_final ? 1 : 0); }
    // A new xform with flam3's defaults, placed before the final xform.
    Xform& add_standard();
    Xform& add_final();
};

// One xaos entry: transition multiplier from standard xform `from` to `to`.
struct ChaosEntry {
    int from = 0, to = 0;
    double value = 1;
};

// Reads the attributes of an <xform> (standard index `index`) or <finalxform>
// into `xf`, which already holds the defaults.
void read_xform(const ReadContext& ctx, const pugi::xml_node& element, bool is_final, int index, Xform& xf,
                std::vector<ChaosEntry>* chaos);

// Adds the xforms of <symmetry kind="kind"> as flam3_add_symmetry does.
void add_symmetry(XformList& list, int kind);

}  // namespace fj::flam3_read
