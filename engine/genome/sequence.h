// flamejit — a sequence of control points: the checks and fix-ups flam3 makes before animating.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Readers return flames in file order; an animation needs them as flam3's
// tools see them. apply_sequence_fixups repeats flam3_parse_xml2's
// cross-flame fix-ups (the flam3 XML reader applies them through it; other
// readers may call it). check_sequence rejects what flam3-animate rejects or
// what no kernel can render, with one line naming the flames; it also forces
// every size to the first flame's, as flam3-animate does, and says how many
// it changed.
#pragma once

#include <string>
#include <vector>

#include "genome/flame.h"

namespace fj {

// The iteration kernels keep a point's last xform in 8 bits.
constexpr int kMaxSequenceXforms = 254;

// interpolation="smooth" on the first and the next-to-last flame becomes
// linear (not for a `loop`'s keyframes, whose first and next-to-last have
// neighbours: loop_keyframes); `rotate` is unwrapped to within ±180° of the
// previous flame's unless that flame's interpolation_type is old or older.
void apply_sequence_fixups(std::vector<Flame>& flames, bool loop = false);

struct SequenceCheck {
    int resized = 0;  // flames whose size was forced to the first flame's
};

// Throws InputError ("LABEL: flame 3 (time 2) ...") when the sequence is
// empty, a time is not finite, times do not strictly increase, a flame has
// no xform to interpolate, or two neighbouring flames would need more than
// kMaxSequenceXforms xforms once padded.
SequenceCheck check_sequence(std::vector<Flame>& flames, const std::string& label);

// A loop (animate --loop): after the last keyframe the sequence goes on to
// the first again, which it reaches `period` after its own time, and so on
// for ever. loop_keyframes gives `flames` (checked, with the fix-ups of a
// loop) between copies of themselves a period earlier and later, two on
// each side, so that interpolate() at any time of [t0, t0 + period) (and a
// frame's motion blur around it) meets the last keyframe joined to the
// first, smooth segments with their neighbours across the join; each copy's
// rotate unwrapped against its neighbour's as the sequence's are. Throws
// InputError, naming `label`, for a period that is not longer than the
// keyframes' span (the join would take no time) or not finite, or a join
// whose two flames cannot be padded to one structure.
std::vector<Flame> loop_keyframes(const std::vector<Flame>& flames, double period, const std::string& label);
// `time` brought into the loop's first period, [first, first + period).
double loop_time(double time, double first, double period);

}  // namespace fj
