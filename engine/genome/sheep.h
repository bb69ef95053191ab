// flamejit — Electric Sheep loops and transitions, as flam3-genome makes them.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// An Electric Sheep animation is made of loops (one flame whose xforms turn a
// whole turn) and transitions (one flame turning into the next while both
// turn). flam3-genome writes them as a sequence of genomes, one per frame,
// which flam3-animate then renders; `flamejit sequence` does the same.
//
// Contract: equal field by field to flam3 3.1.1's
//   - sheep_loop(flame, blend): the flame with its xforms' <motion> elements
//     applied at `blend` (apply_motion) and dropped, then every standard
//     xform whose `animate` is not 0 turned by blend·360° (its 2×2 part
//     multiplied on the left by the rotation; translation kept);
//   - sheep_edge(from, to, blend, sequence_end, stagger): motion applied to
//     both flames at `blend`; at blend 0 with `sequence_end` (a sequence's
//     transitions set it on their first and last frame), `from` so moved,
//     unaligned, its <motion> elements dropped; otherwise both aligned
//     (xform padding), reference
//     angles chosen where an xform turns in one flame and not in the other
//     (flam3's establish_asymmetric_refangles), both turned by blend·360°
//     (padding xforms only in log interpolation_type), and interpolated at
//     smoothstep(blend) with `stagger` (genome/interpolate.h);
//   - sequence(...): flam3-genome's `sequence=` output, with what its
//     spin/spin_inter set: each frame's time (0, 1, 2, …) and name (the
//     time, "%f"), a loop frame's interpolation "linear" and palette
//     interpolation hsv_circular without an rgb share, and an <edit> that
//     names the operation and holds each parent's genealogy.
// Final xforms never turn. Smooth keyframes blend linearly here, where flam3
// reads outside its array.
#pragma once

#include <string>
#include <vector>

#include "genome/flame.h"

namespace fj {

// flam3's motion_funcs: the function's value at t (period 1).
double motion_value(MotionFunction function, double t);

// `xf` with each of its <motion> elements added at `blend` (value +=
// amplitude · function(frequency · blend)), colour and var_color then
// clamped to [0, 1] and weight to ≥ 0; the motions themselves are kept.
// A variation the xform lacks is added at its defaults before it moves.
Xform apply_motion(const Xform& xf, double blend);

Flame sheep_loop(const Flame& flame, double blend);
Flame sheep_edge(const Flame& from, const Flame& to, double blend, bool sequence_end, double stagger);

// Where a flame came from, as a frame's <edit> names its parents.
struct FlameOrigin {
    std::string file;
    int index = 0;  // among the file's flames
};

struct SequenceOptions {
    int frames = 100;   // per loop and per transition (flam3-genome's nframes)
    bool loops = true;  // a loop of each flame before its transition
    double stagger = 0;
    // One per flame; without them the parents are named "" and counted from 0.
    std::vector<FlameOrigin> origins;
};

// The most genomes a sequence may have: at about 12 kB of XML each, a file
// of them stays within what the readers take (1 GiB).
inline constexpr long long kMaxSequenceGenomes = 50000;

// The frames of a sequence through `flames` in order: for each flame its
// loop (`frames` frames) if asked, then, but after the last, the transition
// to the next (`frames` frames), and at the end the last flame once more,
// unturned: (2·count − 1)·frames + 1 genomes with loops, (count − 1)·frames
// + 1 without. Throws InputError when `frames` < 1, there are no flames,
// there would be more than kMaxSequenceGenomes genomes, or a frame's values
// overflow (check_finite), naming the frame and its flames.
std::vector<Flame> sequence(const std::vector<Flame>& flames, const SequenceOptions& options);

}  // namespace fj
