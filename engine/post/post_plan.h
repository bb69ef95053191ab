// flamejit — everything the post-pass needs, computed once on the host.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// flam3 3.1.1 formulas (reference/flam3-behaviour.md §3.7–3.10): log-density
// scaling constants k1/k2, the density-estimation kernel bank, the spatial
// filter kernel (with flam3's name→kernel mapping), and the tone-mapping
// values. Both backends consume the same plan, so the numbers match.
#pragma once

#include <vector>

#include "genome/flame.h"

namespace fj {

struct FramePlan;

// flam3_create_de_filters: kernel k has coefficients on a (2·half+1)² square.
struct DensityBank {
    int kernel_count = 0;        // 0 = density estimation off
    int half_width = 0;          // ceil(Rmax) - 1
    double max_filtered_counts = 0;
    double curve = 0.4;
    int supersample = 1;
    std::vector<double> widths;       // per kernel, cells
    std::vector<float> coefs;         // kernel_count × (2·half+1)², row-major
};

struct SpatialFilter {
    int width = 0;                // taps per axis
    // width × width, row-major, sums to 1. Double, as flam3 keeps them: taps
    // of ±1e-40 and below (residues at the edge of the support) vanish in
    // float, and their signs decide which far pixels flam3 draws white.
    std::vector<double> coefs;
};

struct PostPlan {
    int width = 0, height = 0;        // output
    int supersample = 1;
    int hist_width = 0, hist_height = 0;
    int gutter = 0, de_offset = 0;
    // A strip (FramePlan::first_row, hist_row0): the image row of output
    // row 0 and the frame's histogram row of row 0.
    int first_row = 0, hist_row0 = 0;
    double k1 = 0, k2 = 0;
    DensityBank density;
    SpatialFilter filter;
    double gamma = 4, gamma_threshold = 0.01, vibrancy = 1, highlight_power = -1;
    double background[3] = {0, 0, 0};
    bool transparent = false;
    // flam3's earlyclip=1: tone-map every cell before the spatial filter, so
    // the filter averages clipped colours (better antialiasing of bright
    // edges); the filtered result is only clamped.
    bool earlyclip = false;
    // The filtered log-density values instead of the tone-mapped image: RGB
    // on the 0..255 scale, premultiplied, and alpha the density's opacity
    // (alpha/255), before gamma, vibrancy, background and clipping (EXR
    // output for compositing, image/exr_io.h).
    bool linear = false;
    // Fractorium's colour curves (post/color_curves.h) applied to every
    // toned colour channel, or empty for none.
    std::vector<float> curves;
    // The CUDA post-pass scales only the non-empty cells, whose indices a
    // cub::DeviceSelect compaction lists first, and filters only the tiles
    // of output pixels whose windows hold a non-zero cell; off, it runs a
    // thread per histogram cell and filters every pixel instead (the same
    // image: for measuring what the skipping saves).
    bool compact_cells = true;

    // The histogram row of output row 0's filter window (de_offset for a
    // whole frame).
    int filter_top() const { return de_offset + first_row * supersample - hist_row0; }
};

// What a post-pass saw, for debugging and benchmarks (both backends fill it).
struct PostStats {
    long long nonempty_cells = 0;   // cells with alpha > 0 that were scaled (with DE:
                                    // not those in the os-1 border flam3 skips);
                                    // -1 when the CUDA pass did not compact them
    double alpha_sum = 0;           // Σ alpha over the whole histogram (255 per full hit)
    bool density_estimation = false;
    double seconds = 0;
};

// Width in histogram cells of the spatial filter of a flame (for the gutter).
int spatial_filter_width(const Flame& flame, double pixel_aspect = 1);
// `field`: a field of an interlaced frame (pipeline/frame_plan.h), whose
// cells are twice as tall: rows' taps at twice their distance, as flam3's.
SpatialFilter make_spatial_filter(FilterShape shape, double radius, int supersample, double pixel_aspect = 1,
                                  bool field = false);
DensityBank make_density_bank(double radius, double minimum, double curve, int supersample);
// flam3's k1 of one pass: brightness · 255 · 268 / 256 / passes (contrast 1).
double flam3_k1(double brightness, int passes);
// Whether flam3 runs density estimation with these radii: its bank then
// has more than one kernel, which needs radius > minimum (and radius > 0).
bool density_estimation_enabled(double radius, double minimum);
// One pass of one time sample (callers with several set k1, k2 and the
// bank per pass).
PostPlan make_post_plan(const Flame& flame, const FramePlan& plan);

}  // namespace fj
