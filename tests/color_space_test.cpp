// SPDX-License-Identifier: GPL-3.0-or-later
// Colour spaces (image/color_space.h): the matrices and transfer curves
// against the published ones, the ICC profiles as Little CMS reads them, and
// images written in another space, which Little CMS brings back to the sRGB
// image through the profile they carry. Little CMS (Debian's liblcms2-dev)
// is the oracle, linked into this test only.
#include <doctest/doctest.h>

#include <lcms2.h>

#include <OpenEXR/ImfChromaticitiesAttribute.h>
#include <OpenEXR/ImfHeader.h>
#include <OpenEXR/ImfInputFile.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "image/color_space.h"
#include "image/png_io.h"
#include "test_support.h"

using fj::ColorSpace;
using fj::test::quoted;
using fj::test::run_command;

namespace {

const ColorSpace kWide[] = {ColorSpace::DisplayP3, ColorSpace::AdobeRgb, ColorSpace::Rec2020};

// A profile opened by Little CMS, closed on scope exit.
struct Profile {
    cmsHPROFILE handle;
    explicit Profile(cmsHPROFILE h) : handle(h) {}
    ~Profile() {
        if (handle) cmsCloseProfile(handle);
    }
};

// Colours of `from` (8-bit RGB, 0..255 as doubles) to sRGB by Little CMS,
// relative colorimetric.
std::vector<double> to_srgb(const std::vector<uint8_t>& profile, const std::vector<double>& rgb) {
    Profile from(cmsOpenProfileFromMem(profile.data(), static_cast<cmsUInt32Number>(profile.size())));
    Profile srgb(cmsCreate_sRGBProfile());
    REQUIRE(from.handle);
    cmsHTRANSFORM t = cmsCreateTransform(from.handle, TYPE_RGB_DBL, srgb.handle, TYPE_RGB_DBL,
                                         INTENT_RELATIVE_COLORIMETRIC, cmsFLAGS_NOOPTIMIZE);
    REQUIRE(t);
    std::vector<double> in(rgb.size()), out(rgb.size());
    for (size_t i = 0; i < rgb.size(); ++i) in[i] = rgb[i] / 255.0;
    cmsDoTransform(t, in.data(), out.data(), static_cast<cmsUInt32Number>(rgb.size() / 3));
    cmsDeleteTransform(t);
    for (double& v : out) v *= 255.0;
    return out;
}

// sRGB test colours: primaries, secondaries, greys, and odd mixtures.
std::vector<double> test_colours() {
    std::vector<double> c = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0, 0, 255, 255, 255, 0, 255,
                             255, 255, 255, 0, 0, 0, 128, 128, 128, 3, 2, 1, 200, 100, 50, 17, 230, 99};
    return c;
}

}  // namespace

TEST_CASE("color space: RGB to XYZ matrices are the published ones") {
    // IEC 61966-2-1 (sRGB) and SMPTE EG 432-1 (Display P3), four decimals;
    // Adobe RGB (1998) Color Image Encoding 4.3.4.1, five.
    const std::array<double, 9> srgb = {0.4124, 0.3576, 0.1805, 0.2126, 0.7152, 0.0722, 0.0193, 0.1192, 0.9505};
    const std::array<double, 9> p3 = {0.4866, 0.2657, 0.1982, 0.2290, 0.6917, 0.0793, 0.0000, 0.0451, 1.0439};
    const std::array<double, 9> adobe = {0.57667, 0.18556, 0.18823, 0.29734, 0.62736,
                                         0.07529, 0.02703, 0.07069, 0.99134};
    const std::array<double, 9> rec2020 = {0.6370, 0.1446, 0.1689, 0.2627, 0.6780, 0.0593, 0.0000, 0.0281, 1.0610};
    for (int k = 0; k < 9; ++k) {
        CAPTURE(k);
        CHECK(std::fabs(fj::rgb_to_xyz(ColorSpace::Srgb)[k] - srgb[k]) < 2e-4);
        CHECK(std::fabs(fj::rgb_to_xyz(ColorSpace::DisplayP3)[k] - p3[k]) < 2e-4);
        CHECK(std::fabs(fj::rgb_to_xyz(ColorSpace::AdobeRgb)[k] - adobe[k]) < 1e-5);
        CHECK(std::fabs(fj::rgb_to_xyz(ColorSpace::Rec2020)[k] - rec2020[k]) < 2e-4);
    }
}

TEST_CASE("color space: the transfer curves are the published ones, invert each other and meet at their joins") {
    for (ColorSpace s : {ColorSpace::Srgb, ColorSpace::AdobeRgb, ColorSpace::Rec2020}) {
        CAPTURE(fj::to_string(s));
        const fj::TransferCurve t = fj::transfer_curve_of(s);
        for (double x = 0; x <= 1.0; x += 1.0 / 1024)
            CHECK(t.from_linear(t.to_linear(x)) == doctest::Approx(x).epsilon(1e-9));
        CHECK(t.to_linear(1.0) == doctest::Approx(1.0));
        // Continuous where the line meets the power.
        if (t.d > 0) CHECK(t.to_linear(t.d * (1 + 1e-9)) == doctest::Approx(t.c * t.d).epsilon(1e-4));
    }
    // sRGB's published value at half: 0.2140.
    CHECK(fj::transfer_curve_of(ColorSpace::Srgb).to_linear(0.5) == doctest::Approx(0.2140).epsilon(1e-3));
    // Adobe RGB (1998): a pure power of 563/256 (the specification's 2.19921875).
    const fj::TransferCurve adobe = fj::transfer_curve_of(ColorSpace::AdobeRgb);
    for (double x : {0.01, 0.2, 0.5, 0.9})
        CHECK(adobe.to_linear(x) == doctest::Approx(std::pow(x, 2.19921875)).epsilon(1e-12));
    // BT.2020's camera curve (OETF), E' = 4.5 E below beta, alpha E^0.45 - (alpha - 1) above, with its
    // published 12-bit constants: the linear values our curve gives are the ones it encodes back.
    const double alpha = 1.0993, beta = 0.0181;
    const auto oetf = [&](double e) { return e < beta ? 4.5 * e : alpha * std::pow(e, 0.45) - (alpha - 1); };
    const fj::TransferCurve rec2020 = fj::transfer_curve_of(ColorSpace::Rec2020);
    for (double x : {0.02, 0.05, 0.2, 0.5, 0.9}) {
        CAPTURE(x);
        CHECK(oetf(rec2020.to_linear(x)) == doctest::Approx(x).epsilon(1e-4));
    }
    ColorSpace parsed = ColorSpace::Srgb;
    CHECK(fj::parse_color_space("display-p3", &parsed));
    CHECK(parsed == ColorSpace::DisplayP3);
    CHECK_FALSE(fj::parse_color_space("p3", &parsed));
}

TEST_CASE("color space: Little CMS reads each profile, and it takes converted colours back to sRGB") {
    for (ColorSpace s : {ColorSpace::Srgb, ColorSpace::DisplayP3, ColorSpace::AdobeRgb, ColorSpace::Rec2020}) {
        CAPTURE(fj::to_string(s));
        const std::vector<uint8_t> icc = fj::icc_profile(s);
        CHECK(icc == fj::icc_profile(s));  // the same bytes every time
        Profile p(cmsOpenProfileFromMem(icc.data(), static_cast<cmsUInt32Number>(icc.size())));
        REQUIRE(p.handle);
        CHECK(cmsGetColorSpace(p.handle) == cmsSigRgbData);
        CHECK(cmsGetDeviceClass(p.handle) == cmsSigDisplayClass);
        CHECK(cmsIsMatrixShaper(p.handle));
        CHECK(cmsGetProfileVersion(p.handle) == doctest::Approx(4.3));
        char description[128] = {};
        cmsGetProfileInfoASCII(p.handle, cmsInfoDescription, "en", "US", description, sizeof description);
        CHECK(std::string(description).find("flamejit") != std::string::npos);
        ColorSpace back = ColorSpace::Srgb;
        CHECK(fj::color_space_of_profile(icc, &back));
        CHECK(back == s);

        // sRGB colours converted into the space (as an image's pixels), then
        // back by Little CMS through the profile: the colours themselves.
        const std::vector<double> colours = test_colours();
        fj::ImageF pixels;
        pixels.width = static_cast<int>(colours.size() / 3);
        pixels.height = 1;
        for (size_t i = 0; i < colours.size(); i += 3)
            pixels.rgba.insert(pixels.rgba.end(), {static_cast<float>(colours[i]), static_cast<float>(colours[i + 1]),
                                                   static_cast<float>(colours[i + 2]), 1.0f});
        fj::ColorConversion(s, false).apply(pixels, 3);
        std::vector<double> converted;
        for (size_t i = 0; i < pixels.rgba.size(); i += 4)
            converted.insert(converted.end(), {pixels.rgba[i], pixels.rgba[i + 1], pixels.rgba[i + 2]});
        const std::vector<double> round_trip = to_srgb(icc, converted);
        for (size_t i = 0; i < colours.size(); ++i) {
            CAPTURE(i);
            // Within a fifth of an 8-bit step: ICC's 16.16 fixed point, which
            // the sRGB curve's slope of 12.92 near black magnifies.
            CHECK(std::fabs(round_trip[i] - colours[i]) < 0.2);
            CHECK(converted[i] >= -1e-3);  // a wider space holds every sRGB colour
        }
        CHECK(pixels.rgba[3] == 1.0f);  // alpha kept
    }
    // A profile of someone else's is none of ours.
    std::vector<uint8_t> other = fj::icc_profile(ColorSpace::DisplayP3);
    other.back() ^= 1;
    ColorSpace space = ColorSpace::Srgb;
    CHECK_FALSE(fj::color_space_of_profile(other, &space));
}

TEST_CASE("color space: a linear image takes the matrix alone") {
    fj::ImageF pixels;
    pixels.width = 1;
    pixels.height = 1;
    pixels.rgba = {100.0f, 50.0f, 25.0f, 0.5f};
    fj::ColorConversion(ColorSpace::Rec2020, true).apply(pixels, 3);
    // Linear sRGB to linear Rec. 2020 (ITU-R BT.2087's matrix, first row:
    // 0.6274, 0.3293, 0.0433).
    CHECK(pixels.rgba[0] == doctest::Approx(0.6274 * 100 + 0.3293 * 50 + 0.0433 * 25).epsilon(1e-3));
    CHECK(pixels.rgba[3] == 0.5f);
}

TEST_CASE("color space: rows converted on several threads are each converted once, as on one") {
    // Every row different, so a row skipped or converted twice shows.
    fj::ImageF one;
    one.width = 7;
    one.height = 45;
    for (int i = 0; i < one.width * one.height; ++i)
        one.rgba.insert(one.rgba.end(), {static_cast<float>(i % 256), static_cast<float>((3 * i) % 256),
                                         static_cast<float>((7 * i) % 256), 1.0f});
    fj::ImageF several = one;
    const fj::ColorConversion p3(ColorSpace::DisplayP3, false);
    p3.apply(one, 1);
    p3.apply(several, 4);
    CHECK(several.rgba == one.rgba);
    fj::ImageF twice = several;
    p3.apply(twice, 1);
    CHECK(twice.rgba != one.rgba);  // the conversion is no identity here
}

TEST_CASE("color space: render and animate write converted, tagged images that Little CMS brings back to sRGB") {
    const std::string dir = fj::test::scratch_dir("color_space");
    const std::string genome = dir + "/g.flam3";
    fj::test::write_file(genome,
                         "<flame size=\"64 48\" scale=\"20\" quality=\"20\" background=\"0.2 0.1 0.3\">\n"
                         "  <xform weight=\"1\" color=\"0\" spherical=\"1\" coefs=\"0.5 0 0 0.5 0.2 0\"/>\n"
                         "  <xform weight=\"1\" color=\"1\" julia=\"1\" coefs=\"0.5 0 0 0.5 -0.3 0.1\"/>\n"
                         "  <color index=\"0\" rgb=\"255 40 0\"/><color index=\"255\" rgb=\"0 200 255\"/>\n"
                         "</flame>\n");
    const std::string flamejit = quoted(fj::test::flamejit_binary());
    const std::string render = flamejit + " render " + quoted(genome) + " --backend cpu --threads 2 --seed 5";
    auto r = run_command(render + " -o " + quoted(dir + "/srgb.png") + " --bits 16");
    REQUIRE_MESSAGE(r.status == 0, r.output);
    const fj::PngImage srgb = fj::read_png(dir + "/srgb.png");
    CHECK(srgb.icc_profile.empty());  // as flam3's: no profile

    for (ColorSpace s : kWide) {
        const std::string name = fj::to_string(s);
        CAPTURE(name);
        r = run_command(render + " --color-space " + name + " --bits 16 -o " + quoted(dir + "/" + name + ".png") +
                        " --sidecar");
        REQUIRE_MESSAGE(r.status == 0, r.output);
        r = run_command(render + " --color-space " + name + " -o " + quoted(dir + "/" + name + ".jpg") + " -o " +
                        quoted(dir + "/" + name + ".exr"));
        REQUIRE_MESSAGE(r.status == 0, r.output);
        const fj::PngImage png = fj::read_png(dir + "/" + name + ".png");
        CHECK(png.icc_profile == fj::icc_profile(s));
        CHECK(fj::read_image(dir + "/" + name + ".jpg").icc_profile == fj::icc_profile(s));
        CHECK(nlohmann::json::parse(fj::test::read_file(dir + "/" + name + ".png.json"))["settings"]["color_space"] ==
              name);

        // Every pixel, back to sRGB through the file's own profile, is the
        // sRGB image's within the 16-bit quantisation of both.
        std::vector<double> rgb, expected;
        for (size_t i = 0; i < png.rgba.size(); i += 4)
            for (int k = 0; k < 3; ++k) {
                rgb.push_back(png.rgba[i + k] / 256.0);
                expected.push_back(srgb.rgba[i + k] / 256.0);
            }
        const std::vector<double> back = to_srgb(png.icc_profile, rgb);
        double worst = 0;
        for (size_t i = 0; i < back.size(); ++i) worst = std::max(worst, std::fabs(back[i] - expected[i]));
        CHECK(worst < 0.3);
        CHECK(png.rgba != srgb.rgba);  // converted, not only tagged

        Imf::InputFile exr((dir + "/" + name + ".exr").c_str());
        const auto* chromaticities = exr.header().findTypedAttribute<Imf::ChromaticitiesAttribute>("chromaticities");
        REQUIRE(chromaticities);
        const fj::Chromaticities c = fj::chromaticities_of(s);
        CHECK(chromaticities->value().green.x == doctest::Approx(c.green[0]));
        CHECK(chromaticities->value().white.y == doctest::Approx(c.white[1]));
    }
    // Animation frames too.
    r = run_command(flamejit + " animate " + quoted(genome) + " --backend cpu --frames 0:0 --color-space adobe-rgb -o " +
                    quoted(dir + "/f%02d.png"));
    REQUIRE_MESSAGE(r.status == 0, r.output);
    CHECK(fj::read_png(dir + "/f00.png").icc_profile == fj::icc_profile(ColorSpace::AdobeRgb));

    // What cannot be: one line, exit 2, nothing written.
    for (const std::string& bad : {std::string(" --color-space p3 -o ") + quoted(dir + "/bad.png"),
                                   std::string(" --color-space rec2020 -o ") + quoted(dir + "/bad.ppm")}) {
        CAPTURE(bad);
        r = run_command(render + bad);
        CHECK(r.status == 2);
        CHECK(std::count(r.output.begin(), r.output.end(), '\n') == 1);
    }
    CHECK_FALSE(std::filesystem::exists(dir + "/bad.png"));
    CHECK_FALSE(std::filesystem::exists(dir + "/bad.ppm"));
}
