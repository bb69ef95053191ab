// flamejit — colour spaces, their conversion from sRGB and their ICC profiles
// (see color_space.h).
// SPDX-License-Identifier: GPL-3.0-or-later
#include "image/color_space.h"

#include <cmath>
#include <stdexcept>

#include "parallel_for.h"

namespace fj {

namespace {

using Matrix = std::array<double, 9>;
using Vector = std::array<double, 3>;

Matrix multiply(const Matrix& x, const Matrix& y) {
    Matrix out{};
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            for (int k = 0; k < 3; ++k) out[3 * r + c] += x[3 * r + k] * y[3 * k + c];
    return out;
}

Vector times(const Matrix& m, const Vector& v) {
    return {m[0] * v[0] + m[1] * v[1] + m[2] * v[2], m[3] * v[0] + m[4] * v[1] + m[5] * v[2],
            m[6] * v[0] + m[7] * v[1] + m[8] * v[2]};
}

Matrix inverse(const Matrix& m) {
    const double det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) +
                       m[2] * (m[3] * m[7] - m[4] * m[6]);
    if (det == 0) throw std::logic_error("color space: a singular matrix");
    return {(m[4] * m[8] - m[5] * m[7]) / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
            (m[5] * m[6] - m[3] * m[8]) / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
            (m[3] * m[7] - m[4] * m[6]) / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det};
}

Vector xyz_of(const std::array<double, 2>& xy) { return {xy[0] / xy[1], 1.0, (1 - xy[0] - xy[1]) / xy[1]}; }

// ICC's PCS illuminant, D50, as the header and wtpt hold it.
const Vector kD50 = {0.9642, 1.0, 0.8249};

// Bradford's cone response matrix (ICC.1 annex E, the linearised form).
const Matrix kBradford = {0.8951, 0.2664, -0.1614, -0.7502, 1.7135, 0.0367, 0.0389, -0.0685, 1.0296};

// XYZ under white `from` to XYZ under D50, by Bradford's von Kries transform.
Matrix adaptation_to_d50(const Vector& from) {
    const Vector cone_from = times(kBradford, from), cone_to = times(kBradford, kD50);
    Matrix scale{};
    for (int k = 0; k < 3; ++k) scale[4 * k] = cone_to[k] / cone_from[k];
    return multiply(inverse(kBradford), multiply(scale, kBradford));
}

// Big-endian writing of ICC's types.
struct Bytes {
    std::vector<uint8_t> data;
    void u8(unsigned v) { data.push_back(static_cast<uint8_t>(v)); }
    void u16(unsigned v) {
        u8(v >> 8);
        u8(v & 0xff);
    }
    void u32(uint32_t v) {
        u16(v >> 16);
        u16(v & 0xffff);
    }
    void tag(const char* signature) {
        for (int i = 0; i < 4; ++i) u8(static_cast<uint8_t>(signature[i]));
    }
    void fixed(double v) { u32(static_cast<uint32_t>(static_cast<int32_t>(std::lround(v * 65536.0)))); }
    void pad() {
        while (data.size() % 4) u8(0);
    }
};

// multiLocalizedUnicodeType with one English record (ASCII text).
std::vector<uint8_t> mluc(const std::string& text) {
    Bytes b;
    b.tag("mluc");
    b.u32(0);
    b.u32(1);   // records
    b.u32(12);  // record size
    b.tag("enUS");
    b.u32(static_cast<uint32_t>(2 * text.size()));
    b.u32(28);  // the string's offset from the tag's start
    for (char c : text) b.u16(static_cast<unsigned char>(c));
    return b.data;
}

// Numbers in 16.16 fixed point after the type and 4 reserved bytes:
// XYZType ("XYZ ", one colour) and s15Fixed16ArrayType ("sf32", the chad's
// matrix).
template <size_t N>
std::vector<uint8_t> fixed_type(const char* type, const std::array<double, N>& values) {
    Bytes b;
    b.tag(type);
    b.u32(0);
    for (double v : values) b.fixed(v);
    return b.data;
}

std::vector<uint8_t> parametric_curve(const TransferCurve& t) {
    Bytes b;
    b.tag("para");
    b.u32(0);
    const bool power = t.a == 1 && t.b == 0 && t.c == 0 && t.d == 0;
    b.u16(power ? 0 : 3);
    b.u16(0);
    b.fixed(t.g);
    if (!power)
        for (double v : {t.a, t.b, t.c, t.d}) b.fixed(v);
    return b.data;
}

const char* description_of(ColorSpace space) {
    switch (space) {
    case ColorSpace::DisplayP3: return "Display P3 (flamejit)";
    case ColorSpace::AdobeRgb: return "Adobe RGB (1998) compatible (flamejit)";
    case ColorSpace::Rec2020: return "Rec. ITU-R BT.2020 (flamejit)";
    case ColorSpace::Srgb: break;
    }
    return "sRGB IEC 61966-2-1 (flamejit)";
}

}  // namespace

const char* to_string(ColorSpace space) {
    switch (space) {
    case ColorSpace::DisplayP3: return "display-p3";
    case ColorSpace::AdobeRgb: return "adobe-rgb";
    case ColorSpace::Rec2020: return "rec2020";
    case ColorSpace::Srgb: break;
    }
    return "srgb";
}

bool parse_color_space(const std::string& name, ColorSpace* space) {
    for (ColorSpace s : {ColorSpace::Srgb, ColorSpace::DisplayP3, ColorSpace::AdobeRgb, ColorSpace::Rec2020})
        if (name == to_string(s)) {
            *space = s;
            return true;
        }
    return false;
}

Chromaticities chromaticities_of(ColorSpace space) {
    const std::array<double, 2> d65 = {0.3127, 0.3290};
    switch (space) {
    case ColorSpace::DisplayP3: return {{0.680, 0.320}, {0.265, 0.690}, {0.150, 0.060}, d65};
    case ColorSpace::AdobeRgb: return {{0.64, 0.33}, {0.21, 0.71}, {0.15, 0.06}, d65};
    case ColorSpace::Rec2020: return {{0.708, 0.292}, {0.170, 0.797}, {0.131, 0.046}, d65};
    case ColorSpace::Srgb: break;
    }
    return {{0.64, 0.33}, {0.30, 0.60}, {0.15, 0.06}, d65};
}

double TransferCurve::to_linear(double encoded) const {
    // Odd symmetry, so that a value below 0 (none should come) maps back.
    const double x = std::fabs(encoded);
    const double y = x >= d ? std::pow(a * x + b, g) : c * x;
    return std::copysign(y, encoded);
}

double TransferCurve::from_linear(double linear) const {
    const double y = std::fabs(linear);
    const bool on_power = d == 0 || y >= c * d;
    const double x = on_power ? (std::pow(y, 1 / g) - b) / a : y / c;
    return std::copysign(x, linear);
}

TransferCurve transfer_curve_of(ColorSpace space) {
    switch (space) {
    case ColorSpace::AdobeRgb: return {563.0 / 256.0, 1, 0, 0, 0};
    // BT.2020's camera curve, inverted, with its exact constants (alpha and
    // beta, which make the line and the power meet; BT.709's rounded 1.099
    // and 0.018 leave a step there).
    case ColorSpace::Rec2020: {
        const double alpha = 1.09929682680944, beta = 0.018053968510807;
        return {1 / 0.45, 1 / alpha, (alpha - 1) / alpha, 1 / 4.5, 4.5 * beta};
    }
    case ColorSpace::DisplayP3:
    case ColorSpace::Srgb: break;
    }
    return {2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045};
}

std::array<double, 9> rgb_to_xyz(ColorSpace space) {
    const Chromaticities c = chromaticities_of(space);
    const Vector r = xyz_of(c.red), g = xyz_of(c.green), b = xyz_of(c.blue);
    const Matrix primaries = {r[0], g[0], b[0], r[1], g[1], b[1], r[2], g[2], b[2]};
    const Vector s = times(inverse(primaries), xyz_of(c.white));
    Matrix m = primaries;
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) m[3 * row + col] *= s[col];
    return m;
}

std::vector<uint8_t> icc_profile(ColorSpace space) {
    const Matrix adapt = adaptation_to_d50(xyz_of(chromaticities_of(space).white));
    const Matrix colorants = multiply(adapt, rgb_to_xyz(space));
    struct Tag {
        const char* signature;
        std::vector<uint8_t> data;  // empty: the previous tag's data
    };
    const std::vector<Tag> tags = {
        {"desc", mluc(description_of(space))},
        {"cprt", mluc("No copyright, use freely")},
        {"wtpt", fixed_type("XYZ ", kD50)},
        {"chad", fixed_type("sf32", adapt)},
        {"rXYZ", fixed_type<3>("XYZ ", {colorants[0], colorants[3], colorants[6]})},
        {"gXYZ", fixed_type<3>("XYZ ", {colorants[1], colorants[4], colorants[7]})},
        {"bXYZ", fixed_type<3>("XYZ ", {colorants[2], colorants[5], colorants[8]})},
        {"rTRC", parametric_curve(transfer_curve_of(space))},
        {"gTRC", {}},
        {"bTRC", {}},
    };
    // The tag data, each 4-byte aligned; the three curves share one copy.
    Bytes body;
    std::vector<std::pair<uint32_t, uint32_t>> placed;  // offset, size
    const uint32_t data_start = 128 + 4 + 12 * static_cast<uint32_t>(tags.size());
    for (const Tag& t : tags) {
        if (t.data.empty()) {
            placed.push_back(placed.back());
            continue;
        }
        placed.emplace_back(data_start + static_cast<uint32_t>(body.data.size()), static_cast<uint32_t>(t.data.size()));
        body.data.insert(body.data.end(), t.data.begin(), t.data.end());
        body.pad();
    }
    Bytes p;
    p.u32(data_start + static_cast<uint32_t>(body.data.size()));  // profile size
    p.u32(0);                                                        // preferred CMM
    p.u32(0x04300000);                                               // version 4.3
    p.tag("mntr");
    p.tag("RGB ");
    p.tag("XYZ ");
    for (unsigned v : {2026u, 1u, 1u, 0u, 0u, 0u}) p.u16(v);  // a fixed date: the same bytes every time
    p.tag("acsp");
    for (int i = 0; i < 6; ++i) p.u32(0);  // platform, flags, manufacturer, model, attributes (8 bytes)
    p.u32(0);                              // perceptual intent
    for (double v : kD50) p.fixed(v);
    p.u32(0);                                // creator
    for (int i = 0; i < 4 + 7; ++i) p.u32(0);  // profile ID (none), reserved
    p.u32(static_cast<uint32_t>(tags.size()));
    for (size_t i = 0; i < tags.size(); ++i) {
        p.tag(tags[i].signature);
        p.u32(placed[i].first);
        p.u32(placed[i].second);
    }
    p.data.insert(p.data.end(), body.data.begin(), body.data.end());
    return p.data;
}

bool color_space_of_profile(const std::vector<uint8_t>& profile, ColorSpace* space) {
    for (ColorSpace s : {ColorSpace::Srgb, ColorSpace::DisplayP3, ColorSpace::AdobeRgb, ColorSpace::Rec2020})
        if (profile == icc_profile(s)) {
            *space = s;
            return true;
        }
    return false;
}

bool color_space_of_chromaticities(const std::vector<float>& xy, ColorSpace* space) {
    for (ColorSpace s : {ColorSpace::Srgb, ColorSpace::DisplayP3, ColorSpace::AdobeRgb, ColorSpace::Rec2020}) {
        const Chromaticities c = chromaticities_of(s);
        std::vector<float> ours;
        for (const auto& point : {c.red, c.green, c.blue, c.white})
            for (double v : point) ours.push_back(static_cast<float>(v));
        if (xy == ours) {
            *space = s;
            return true;
        }
    }
    return false;
}

ColorConversion::ColorConversion(ColorSpace to, bool linear)
    : matrix_(multiply(inverse(rgb_to_xyz(to)), rgb_to_xyz(ColorSpace::Srgb))),
      from_(transfer_curve_of(ColorSpace::Srgb)),
      to_(transfer_curve_of(to)),
      linear_(linear) {}

void ColorConversion::apply(ImageF& rows, int threads) const {
    const size_t row_floats = static_cast<size_t>(rows.width) * 4;
    parallel_for(rows.height, threads, [&](int y, int) {
        float* row = rows.rgba.data() + y * row_floats;
        for (float* p = row; p < row + row_floats; p += 4) {
            Vector v;
            for (int k = 0; k < 3; ++k) v[k] = linear_ ? p[k] : from_.to_linear(p[k] / 255.0);
            const Vector out = times(matrix_, v);
            for (int k = 0; k < 3; ++k)
                p[k] = static_cast<float>(linear_ ? out[k] : 255.0 * to_.from_linear(out[k]));
        }
    });
}

}  // namespace fj
