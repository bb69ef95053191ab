// flamejit — libflam3 as a test oracle: parsed genomes and field-by-field comparison.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// For suites that compare our Flames with flam3_genome structs (parsing,
// interpolation). Header-only so each test executable takes what it uses.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdlib>
#include <map>
#include <sstream>
#include <string>
#include <vector>

extern "C" {
#include <flam3.h>
}

#include "codegen/variation_registry.h"
#include "genome/flame.h"

namespace fj::test {

// flam3_parse_xml2 with defaults on, as flam3-render and flam3-animate call it.
struct Flam3Genomes {
    flam3_genome* cps = nullptr;
    int count = 0;
    Flam3Genomes(const std::string& xml, const std::string& name) {
        std::string text = xml, file = name;
        cps = flam3_parse_xml2(text.data(), file.data(), flam3_defaults_on, &count);
    }
    ~Flam3Genomes() {
        for (int i = 0; i < count; ++i) clear_cp(&cps[i], flam3_defaults_on);
        free(cps);
    }
    Flam3Genomes(const Flam3Genomes&) = delete;
    Flam3Genomes& operator=(const Flam3Genomes&) = delete;
};

// Where flam3 keeps each variation parameter, by flam3's own field name.
#define FJ_PARAM(field) {#field, offsetof(flam3_xform, field)}
inline const std::map<std::string, size_t>& flam3_param_fields() {
    static const std::map<std::string, size_t> fields = {
        FJ_PARAM(blob_low), FJ_PARAM(blob_high), FJ_PARAM(blob_waves), FJ_PARAM(pdj_a), FJ_PARAM(pdj_b),
        FJ_PARAM(pdj_c), FJ_PARAM(pdj_d), FJ_PARAM(fan2_x), FJ_PARAM(fan2_y), FJ_PARAM(rings2_val),
        FJ_PARAM(perspective_angle), FJ_PARAM(perspective_dist), FJ_PARAM(julian_power), FJ_PARAM(julian_dist),
        FJ_PARAM(juliascope_power), FJ_PARAM(juliascope_dist), FJ_PARAM(radial_blur_angle), FJ_PARAM(pie_slices),
        FJ_PARAM(pie_rotation), FJ_PARAM(pie_thickness), FJ_PARAM(ngon_sides), FJ_PARAM(ngon_power),
        FJ_PARAM(ngon_circle), FJ_PARAM(ngon_corners), FJ_PARAM(curl_c1), FJ_PARAM(curl_c2),
        FJ_PARAM(rectangles_x), FJ_PARAM(rectangles_y), FJ_PARAM(amw_amp), FJ_PARAM(disc2_rot),
        FJ_PARAM(disc2_twist), FJ_PARAM(super_shape_rnd), FJ_PARAM(super_shape_m), FJ_PARAM(super_shape_n1),
        FJ_PARAM(super_shape_n2), FJ_PARAM(super_shape_n3), FJ_PARAM(super_shape_holes), FJ_PARAM(flower_petals),
        FJ_PARAM(flower_holes), FJ_PARAM(conic_eccentricity), FJ_PARAM(conic_holes), FJ_PARAM(parabola_height),
        FJ_PARAM(parabola_width), FJ_PARAM(bent2_x), FJ_PARAM(bent2_y), FJ_PARAM(bipolar_shift),
        FJ_PARAM(cell_size), FJ_PARAM(cpow_r), FJ_PARAM(cpow_i), FJ_PARAM(cpow_power), FJ_PARAM(curve_xamp),
        FJ_PARAM(curve_yamp), FJ_PARAM(curve_xlength), FJ_PARAM(curve_ylength), FJ_PARAM(escher_beta),
        FJ_PARAM(lazysusan_spin), FJ_PARAM(lazysusan_space), FJ_PARAM(lazysusan_twist), FJ_PARAM(lazysusan_x),
        FJ_PARAM(lazysusan_y), FJ_PARAM(modulus_x), FJ_PARAM(modulus_y), FJ_PARAM(oscope_separation),
        FJ_PARAM(oscope_frequency), FJ_PARAM(oscope_amplitude), FJ_PARAM(oscope_damping), FJ_PARAM(popcorn2_x),
        FJ_PARAM(popcorn2_y), FJ_PARAM(popcorn2_c), FJ_PARAM(separation_x), FJ_PARAM(separation_xinside),
        FJ_PARAM(separation_y), FJ_PARAM(separation_yinside), FJ_PARAM(split_xsize), FJ_PARAM(split_ysize),
        FJ_PARAM(splits_x), FJ_PARAM(splits_y), FJ_PARAM(stripes_space), FJ_PARAM(stripes_warp),
        FJ_PARAM(wedge_angle), FJ_PARAM(wedge_hole), FJ_PARAM(wedge_count), FJ_PARAM(wedge_swirl),
        FJ_PARAM(wedge_julia_angle), FJ_PARAM(wedge_julia_count), FJ_PARAM(wedge_julia_power),
        FJ_PARAM(wedge_julia_dist), FJ_PARAM(wedge_sph_angle), FJ_PARAM(wedge_sph_count), FJ_PARAM(wedge_sph_hole),
        FJ_PARAM(wedge_sph_swirl), FJ_PARAM(whorl_inside), FJ_PARAM(whorl_outside), FJ_PARAM(waves2_freqx),
        FJ_PARAM(waves2_scalex), FJ_PARAM(waves2_freqy), FJ_PARAM(waves2_scaley), FJ_PARAM(auger_sym),
        FJ_PARAM(auger_weight), FJ_PARAM(auger_freq), FJ_PARAM(auger_scale), FJ_PARAM(flux_spread),
        FJ_PARAM(mobius_re_a), FJ_PARAM(mobius_im_a), FJ_PARAM(mobius_re_b), FJ_PARAM(mobius_im_b),
        FJ_PARAM(mobius_re_c), FJ_PARAM(mobius_im_c), FJ_PARAM(mobius_re_d), FJ_PARAM(mobius_im_d),
    };
    return fields;
}
#undef FJ_PARAM

// The flam3 field of one of our parameters: same name, one of its aliases, or
// flam3's short "oscope_" spelling; -1 when flam3 has none.
inline long flam3_param_offset(const VariationInfo& v, const std::string& param) {
    const auto& fields = flam3_param_fields();
    std::vector<std::string> names = {param};
    for (const auto& [alias, target] : v.aliases)
        if (target == param) names.push_back(alias);
    if (param.rfind("oscilloscope_", 0) == 0) names.push_back("oscope_" + param.substr(13));
    for (std::string name : names) {
        if (name.size() == 4 && (name[0] == 'R' || name[0] == 'I'))  // Re_A → mobius_re_a
            name = std::string("mobius_") + (name[0] == 'R' ? "re_" : "im_") + static_cast<char>(std::tolower(name[3]));
        auto found = fields.find(name);
        if (found != fields.end()) return static_cast<long>(found->second);
    }
    return -1;
}

inline double flam3_param(const flam3_xform& xf, long offset) {
    return *reinterpret_cast<const double*>(reinterpret_cast<const char*>(&xf) + offset);
}

// Collects every difference between a Flame and a flam3_genome, one line
// each, so a failing comparison says all of what is wrong at once.
class FlameDiff {
public:
    explicit FlameDiff(double tolerance) : tol_(tolerance) {}

    void compare(const Flame& f, const flam3_genome& g);
    const std::vector<std::string>& differences() const { return lines_; }
    int values_compared() const { return compared_; }

private:
    void value(const std::string& what, double ours, double theirs) {
        ++compared_;
        const double scale = std::max(1.0, std::fabs(theirs));
        if (!(std::fabs(ours - theirs) <= tol_ * scale) && !(std::isnan(ours) && std::isnan(theirs))) {
            std::ostringstream s;
            s.precision(17);
            s << what << ": " << ours << " vs flam3 " << theirs;
            lines_.push_back(s.str());
        }
    }
    void affine(const std::string& what, const AffineD& m, const double c[3][2]) {
        const double ours[6] = {m.a, m.d, m.b, m.e, m.c, m.f};
        const double theirs[6] = {c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1]};
        for (int k = 0; k < 6; ++k) value(what + "[" + std::to_string(k) + "]", ours[k], theirs[k]);
    }
    void xform(const std::string& where, const Xform& xf, const flam3_xform& ref);

    double tol_;
    int compared_ = 0;
    std::vector<std::string> lines_;
};

inline void FlameDiff::xform(const std::string& where, const Xform& xf, const flam3_xform& ref) {
    const VariationRegistry& registry = VariationRegistry::standard();
    value(where + " weight", xf.weight, ref.density);
    value(where + " color", xf.color, ref.color);
    value(where + " color_speed", xf.color_speed, ref.color_speed);
    value(where + " animate", xf.animate, ref.animate);
    value(where + " opacity", xf.opacity, ref.opacity);
    affine(where + " coefs", xf.affine, ref.c);
    affine(where + " post", xf.post, ref.post);
    for (int id = 0; id < flam3_nvariations; ++id) {
        const VariationInfo* info = registry.by_id(id);
        if (!info) continue;
        const VariationUse* use = nullptr;
        for (const auto& u : xf.variations)
            if (u.id == id) use = &u;
        value(where + " " + info->name + " weight", use ? use->weight : 0.0, ref.var[id]);
        // Parameters matter where the variation is (or may become) used.
        if (!use && ref.var[id] == 0) continue;
        for (size_t p = 0; p < info->params.size(); ++p) {
            const long offset = flam3_param_offset(*info, info->params[p].name);
            if (offset < 0) continue;
            const double ours = use ? use->params[p] : info->params[p].default_value;
            value(where + " " + info->params[p].name, ours, flam3_param(ref, offset));
        }
    }
}

inline void FlameDiff::compare(const Flame& f, const flam3_genome& g) {
    value("time", f.time, g.time);
    value("width", f.width, g.width);
    value("height", f.height, g.height);
    value("center_x", f.center_x, g.center[0]);
    value("center_y", f.center_y, g.center[1]);
    value("scale", f.scale, g.pixels_per_unit);
    value("zoom", f.zoom, g.zoom);
    value("rotate", f.rotate, g.rotate);
    value("supersample", f.supersample, g.spatial_oversample);
    value("filter", f.filter_radius, g.spatial_filter_radius);
    value("filter_shape", static_cast<int>(f.filter_shape), g.spatial_filter_select);
    value("quality", f.quality, g.sample_density);
    value("passes", f.passes, g.nbatches);
    value("temporal_samples", f.temporal_samples, g.ntemporal_samples);
    for (int i = 0; i < 3; ++i) value("background[" + std::to_string(i) + "]", f.background[i], g.background[i]);
    value("brightness", f.brightness, g.brightness);
    value("gamma", f.gamma, g.gamma);
    value("gamma_threshold", f.gamma_threshold, g.gam_lin_thresh);
    value("vibrancy", f.vibrancy, g.vibrancy);
    value("highlight_power", f.highlight_power, g.highlight_power);
    value("estimator_radius", f.estimator_radius, g.estimator);
    value("estimator_minimum", f.estimator_minimum, g.estimator_minimum);
    value("estimator_curve", f.estimator_curve, g.estimator_curve);
    value("palette_mode", static_cast<int>(f.palette_mode), g.palette_mode);
    value("palette_index", f.palette_index, g.palette_index);
    value("hue", f.hue, g.hue_rotation);
    value("interpolation", static_cast<int>(f.interpolation), g.interpolation);
    value("interpolation_type", static_cast<int>(f.interpolation_type), g.interpolation_type);
    value("palette_interpolation", static_cast<int>(f.palette_interpolation), g.palette_interpolation);
    value("hsv_rgb_palette_blend", f.hsv_rgb_palette_blend, g.hsv_rgb_palette_blend);
    value("temporal_filter_type", static_cast<int>(f.temporal_filter_type), g.temporal_filter_type);
    value("temporal_filter_width", f.temporal_filter_width, g.temporal_filter_width);
    value("temporal_filter_exp", f.temporal_filter_exp, g.temporal_filter_exp);
    value("symmetry", f.symmetry, g.symmetry);
    for (int i = 0; i < 256; ++i) {
        const double ours[4] = {f.palette[i].r, f.palette[i].g, f.palette[i].b, f.palette[i].a};
        for (int k = 0; k < 4; ++k)
            value("palette[" + std::to_string(i) + "][" + std::to_string(k) + "]", ours[k], g.palette[i].color[k]);
    }
    const bool flam3_final = g.final_xform_index >= 0;
    value("has_final", f.has_final, flam3_final);
    const int nstd = g.num_xforms - (flam3_final ? 1 : 0);
    value("xform count", static_cast<double>(f.xforms.size()), nstd);
    if (static_cast<int>(f.xforms.size()) != nstd || f.has_final != flam3_final) return;
    for (int i = 0; i < nstd; ++i) {
        xform("xform " + std::to_string(i), f.xforms[i], g.xform[i]);
        const std::vector<double>& row = f.xforms[i].chaos;
        for (int j = 0; j < nstd; ++j)
            value("chaos[" + std::to_string(i) + "][" + std::to_string(j) + "]",
                  j < static_cast<int>(row.size()) ? row[j] : 1.0, g.chaos[i][j]);
    }
    if (f.has_final) xform("final", f.final_xform, g.xform[g.final_xform_index]);
}

}  // namespace fj::test
