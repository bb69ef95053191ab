// flamejit — the genome model: one flam3 control point and its parts.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Contract: a Flame holds every value that affects a still image, with flam3's
// defaults (flam3 3.1.1 clear_cp / initialize_xforms) already applied, in
// double precision as flam3 keeps them. Readers fill it; nothing downstream
// re-applies defaults. Palette entries are final RGBA in [0,1] after
// premultiplication, library lookup, hue rotation and missing-entry
// interpolation, so the renderer never needs to know where a palette came from.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace fj {

// x' = a·x + b·y + c, y' = d·x + e·y + f (flam3 writes "a d b e c f").
struct AffineD {
    double a = 1, b = 0, c = 0, d = 0, e = 1, f = 0;
    bool is_identity() const {
        return a == 1 && b == 0 && c == 0 && d == 0 && e == 1 && f == 0;
    }
    bool operator==(const AffineD&) const = default;
};

// How an xform uses a variation. flam3 knows only Regular: the variations'
// values at the affine-transformed point are summed (flam3's own pre_blur is
// a Regular variation that moves that point first). Fractorium adds pre_ and
// post_ uses of any variation: a Pre use replaces the transformed point with
// its value (or adds to it, for the variations whose snippet says
// `@assign sum`) before the Regular ones see it; a Post use does the same to
// their sum, before the post affine.
enum class VariationMode { Regular, Pre, Post };

// "pre_", "post_" or "": how Fractorium spells a use in that mode.
const char* mode_prefix(VariationMode mode);

// A variation and how it is used: what a use is known by in an xform, and
// what the kernel key holds of it.
struct VariationSlot {
    int id = 0;
    VariationMode mode = VariationMode::Regular;
    bool operator==(const VariationSlot&) const = default;
};

// One variation used by an xform: its registry id, weight and parameter values
// (in the order of the snippet's @param annotations; defaults filled in).
struct VariationUse {
    int id = 0;
    double weight = 0;
    std::vector<double> params;
    VariationMode mode = VariationMode::Regular;
    VariationSlot slot() const { return {id, mode}; }
};

// Where `s` belongs in a list of slots kept in xform order (see
// Xform::variations) that lacks it: after the Pre slots there, among the
// Regular ones by id, or last.
size_t slot_position(const std::vector<VariationSlot>& slots, VariationSlot s);
// Adds `s` there, unless the list has it already.
void add_slot(std::vector<VariationSlot>& slots, VariationSlot s);

struct Motion;

struct Xform {
    double weight = 0;
    double color = 0;        // flam3 default: index & 1
    double color_speed = 0.5;
    double opacity = 1;      // as written; visibility is opacity^log2(10)
    double animate = 1;
    // Fractorium's var_color: the share of a colour index changed by a
    // direct-colour variation (@color) that the xform keeps, in [0, 1].
    double direct_color = 1;
    AffineD affine;
    AffineD post;
    // Xform order: Pre uses in the order they apply, then Regular ones by id
    // (the order flam3 sums them in), then Post uses in the order they apply.
    // Readers keep only non-zero weights.
    std::vector<VariationUse> variations;
    // Transition multipliers from this xform to xform j (xaos); empty = all 1.
    std::vector<double> chaos;
    // flam3's <motion> elements: periodic changes that only flam3-genome's
    // Electric Sheep loops and transitions apply (genome/sheep.h). Renders
    // and interpolation between keyframes ignore them, as flam3's do.
    std::vector<Motion> motions;
};

// flam3's motion functions (interpolation.c motion_funcs), each of period 1
// and 0 at whole numbers: sin 2πt; a triangle wave of peak ±1; the hill
// (1 − cos 2πt)/2.
enum class MotionFunction { Sin, Triangle, Hill };

// One <motion> element: at a loop's fraction `blend`, every value of the
// xform moves by its amplitude times function(frequency · blend). The
// amplitudes are an Xform whose every number is an amplitude, 0 unless given
// (a variation listed in it may have weight 0 and parameter amplitudes only).
// flam3 reads a missing function as hill and a missing frequency as 0 (no
// motion).
struct Motion {
    MotionFunction function = MotionFunction::Hill;
    int frequency = 0;
    Xform amplitude = zero_amplitudes();

    static Xform zero_amplitudes();
};

enum class PaletteMode { Step, Linear };
enum class FilterShape {
    Gaussian, Hermite, Box, Triangle, Bell, Bspline, Lanczos3, Lanczos2,
    Mitchell, Blackman, Catrom, Hamming, Hanning, Quadratic
};

// Animation settings: no effect on a still image, kept so that a file read
// and interpolated behaves as flam3 does (§4.2).
enum class Interpolation { Linear, Smooth };
enum class AffineInterpolation { Linear, Log, Old, Older };  // flam3 "interpolation_type"
enum class PaletteInterpolation { Hsv, Sweep, Rgb, HsvCircular };
enum class TemporalFilter { Box, Gaussian, Exp };

struct RGBA {
    double r = 0, g = 0, b = 0, a = 0;
};

// Fractorium's colour curves: overall, red, green and blue, each its control
// points (x, y) in [0, 1], sorted by x, as Fractorium reads them. The
// post-pass maps each colour channel through the overall curve and then its
// own (post/color_curves.h). flam3 has none: all empty.
struct ColorCurves {
    using Point = std::array<double, 2>;
    std::array<std::vector<Point>, 4> points;
    bool empty() const { return points[0].empty() && points[1].empty() && points[2].empty() && points[3].empty(); }
    // Every point on the diagonal (or none given): curves that change no colour.
    bool identity() const;
    bool operator==(const ColorCurves&) const = default;
};

// The most xforms (final xform aside) a flame may have to be rendered: the
// kernels keep a point's last xform + 1 in 8 bits (iterate/common.h).
inline constexpr int kMaxXforms = 254;

// The largest width or height a genome may ask for (flam3's own readers take
// no larger; memory runs out well before it at any supersample).
inline constexpr int kMaxImageSide = 65535;

struct Flame {
    std::string name;
    double time = 0;
    int width = 100, height = 100;
    double center_x = 0, center_y = 0;
    double scale = 50;   // pixels per unit
    double zoom = 0;
    double rotate = 0;   // degrees
    int supersample = 1;
    double filter_radius = 0.5;
    FilterShape filter_shape = FilterShape::Gaussian;
    double quality = 1;
    int passes = 1;
    int temporal_samples = 1000;
    double background[3] = {0, 0, 0};
    double brightness = 4;
    double gamma = 4;
    double gamma_threshold = 0.01;
    double vibrancy = 1;
    double highlight_power = -1;
    double estimator_radius = 9;
    double estimator_minimum = 0;
    double estimator_curve = 0.4;
    PaletteMode palette_mode = PaletteMode::Step;
    int palette_index = -1;  // library palette number, -1 = inline
    double hue = 0;
    std::array<RGBA, 256> palette{};
    int symmetry = 0;        // last <symmetry kind>; its xforms are already in `xforms`
    Interpolation interpolation = Interpolation::Linear;
    AffineInterpolation interpolation_type = AffineInterpolation::Log;
    PaletteInterpolation palette_interpolation = PaletteInterpolation::HsvCircular;
    double hsv_rgb_palette_blend = 0;
    TemporalFilter temporal_filter_type = TemporalFilter::Box;
    double temporal_filter_width = 1;
    double temporal_filter_exp = 0;
    ColorCurves curves;
    std::vector<Xform> xforms;
    bool has_final = false;
    Xform final_xform;
    // The flame's <edit> element (its genealogy: nick, date, action, nested
    // <edit>/<sheep>) as XML text, empty when it has none. It has no effect
    // on the image; it is kept so that a genome written back (convert, a
    // PNG's flam3_genome) still says where it came from, as flam3 keeps it.
    std::string edit;

    // Whether any xform has a chaos row with an entry other than 1.
    bool has_xaos() const;
    // Samples for one frame: quality · 4^zoom · W · H (flam3 §3.6).
    double sample_count() const;
};

// Throws InputError "`context`: WHAT is not finite" where a value of `f`
// that is rendered or written is not. Flames made from finite ones
// (interpolated far outside their keyframes' times, turned, moved) can still
// overflow near a double's range: they are refused, naming the value, rather
// than drawn from infinities or written as text that no reader takes.
void check_finite(const Flame& f, const std::string& context);

// Where a flame came from, for error messages and tools. (PNGs embed the
// genome as rendered, written by genome/flam3_writer.h, not this text.)
struct FlameSource {
    std::string file;
    int index = 0;           // position among the <flame> elements of the file
    std::string xml;         // the element as written in the file (empty for cuburn nodes)
};

}  // namespace fj
