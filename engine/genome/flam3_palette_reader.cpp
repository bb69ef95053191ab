// flamejit — the palette elements of a flam3 genome: <color>, <colors>, <palette>.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flam3_palette_reader.h"

#include <cctype>
#include <cmath>
#include <cstring>

#include "errors.h"
#include "genome/palette_library.h"

namespace fj::flam3_read {
namespace {

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

enum class HexForm { RGB, RGBA, ZeroRGB };  // <palette format="RGB|RGBA">, <colors> "00RRGGBB"

// `count` entries of hex data, whitespace allowed between entries, nothing after.
// Hex palettes are not premultiplied (unlike <color>), as in flam3.
void read_hex_colors(const ReadContext& ctx, const std::string& where, const std::string& data, int count,
                     HexForm form, PaletteBuilder* palette) {
    if (count < 1 || count > 256) ctx.fail(where, "count must be in 1..256, got " + std::to_string(count));
    const int digits = form == HexForm::RGB ? 6 : 8;
    size_t p = 0;
    auto skip_space = [&] {
        while (p < data.size() && std::isspace(static_cast<unsigned char>(data[p]))) ++p;
    };
    for (int i = 0; i < count; ++i) {
        skip_space();
        int v[8];
        for (int k = 0; k < digits; ++k) {
            v[k] = p + k < data.size() ? hex_digit(data[p + k]) : -1;
            if (v[k] < 0)
                ctx.fail(where, "colour " + std::to_string(i) + " of " + std::to_string(count) +
                                    " is not " + std::to_string(digits) + " hex digits");
        }
        int byte[4];
        for (int k = 0; k < digits / 2; ++k) byte[k] = v[2 * k] * 16 + v[2 * k + 1];
        RGBA c;
        if (form == HexForm::ZeroRGB) {
            if (byte[0] != 0) ctx.fail(where, "colour " + std::to_string(i) + " does not start with 00");
            c = {byte[1] / 255.0, byte[2] / 255.0, byte[3] / 255.0, 1.0};
        } else {
            c = {byte[0] / 255.0, byte[1] / 255.0, byte[2] / 255.0, form == HexForm::RGBA ? byte[3] / 255.0 : 1.0};
        }
        palette->colors[i] = c;
        palette->present[i] = true;
        p += digits;
    }
    skip_space();
    if (p != data.size()) ctx.fail(where, "data after the " + std::to_string(count) + " colours");
}

void read_color(const ReadContext& ctx, const pugi::xml_node& element, PaletteBuilder* palette) {
    int index = -1;
    double rgb[3] = {0, 0, 0};
    double alpha = 255.0;
    if (!element.first_attribute()) ctx.fail("<color>", "element has no attributes");
    for (pugi::xml_attribute attr : element.attributes()) {
        const std::string name = attr.name();
        const std::string where = "<color> attribute \"" + name + "\"";
        if (name == "index") {
            index = parse_int(ctx, where, attr.value());
        } else if (name == "rgb") {
            const std::vector<double> v = parse_doubles(ctx, where, attr.value(), 3);
            for (int k = 0; k < 3; ++k) rgb[k] = v[k];
        } else if (name == "rgba") {
            const std::vector<double> v = parse_doubles(ctx, where, attr.value(), 4);
            for (int k = 0; k < 3; ++k) rgb[k] = v[k];
            alpha = v[3];
        } else if (name == "a") {
            alpha = parse_double(ctx, where, attr.value());
        } else {
            ctx.fail(where, "unknown attribute");
        }
    }
    if (index < 0 || index > 255)
        ctx.fail("<color> attribute \"index\"", index < 0 ? "missing or negative" : "must be in 0..255");
    const double a = alpha / 255.0;
    palette->colors[index] = {a * rgb[0] / 255.0, a * rgb[1] / 255.0, a * rgb[2] / 255.0, a};
    palette->present[index] = true;
}

void read_colors(const ReadContext& ctx, const pugi::xml_node& element, PaletteBuilder* palette) {
    for (pugi::xml_attribute attr : element.attributes()) {
        const std::string name = attr.name();
        if (name != "count" && name != "data") ctx.fail("<colors> attribute \"" + name + "\"", "unknown attribute");
    }
    const pugi::xml_attribute count = element.attribute("count");
    const pugi::xml_attribute data = element.attribute("data");
    if (!count || !data) ctx.fail("<colors>", "needs both count and data");
    read_hex_colors(ctx, "<colors> attribute \"data\"", data.value(),
                    parse_int(ctx, "<colors> attribute \"count\"", count.value()), HexForm::ZeroRGB, palette);
}

// The old form blends two library palettes in HSV, hue the short way round.
void blend_library_palettes(const ReadContext& ctx, const std::string& library, int index0, double hue0,
                            int index1, double hue1, double blend, PaletteBuilder* palette) {
    std::array<RGBA, 256> p0, p1;
    try {
        p0 = library_palette(library, index0, hue0);
        p1 = library_palette(library, index1, hue1);
    } catch (const std::runtime_error& e) {
        ctx.fail("<palette>", e.what());
    }
    for (int i = 0; i < 256; ++i) {
        HSV s = rgb_to_hsv(p0[i].r, p0[i].g, p0[i].b);
        const HSV t = rgb_to_hsv(p1[i].r, p1[i].g, p1[i].b);
        if (s.h - t.h > 3.0) s.h -= 6.0;
        if (s.h - t.h < -3.0) s.h += 6.0;
        const HSV mix{(1 - blend) * s.h + blend * t.h, (1 - blend) * s.s + blend * t.s, (1 - blend) * s.v + blend * t.v};
        RGBA& c = palette->colors[i];
        hsv_to_rgb(mix, &c.r, &c.g, &c.b);
        c.a = (1 - blend) * p0[i].a + blend * p1[i].a;
        palette->present[i] = true;
    }
}

void read_palette(const ReadContext& ctx, const pugi::xml_node& element, const std::string& library,
                  PaletteBuilder* palette) {
    int count = 0;
    HexForm form = HexForm::RGB;
    bool format_given = false, old_form = false, new_form = false;
    int index0 = -1, index1 = -1;
    double hue0 = 0, hue1 = 0, blend = 0.5;
    if (!element.first_attribute()) ctx.fail("<palette>", "element has no attributes");
    for (pugi::xml_attribute attr : element.attributes()) {
        const std::string name = attr.name();
        const std::string where = "<palette> attribute \"" + name + "\"";
        const char* v = attr.value();
        if (name == "count") { new_form = true; count = parse_int(ctx, where, v); }
        else if (name == "format") {
            new_form = format_given = true;
            if (std::strcmp(v, "RGB") == 0) form = HexForm::RGB;
            else if (std::strcmp(v, "RGBA") == 0) form = HexForm::RGBA;
            else ctx.fail(where, quote(v) + " is neither RGB nor RGBA");
        } else if (name == "index0") { old_form = true; index0 = parse_int(ctx, where, v); }
        else if (name == "index1") { old_form = true; index1 = parse_int(ctx, where, v); }
        // Whole turns of hue change nothing, as for the flame's hue; 6·hue
        // must not overflow.
        else if (name == "hue0") { old_form = true; hue0 = std::fmod(parse_double(ctx, where, v), 1.0); }
        else if (name == "hue1") { old_form = true; hue1 = std::fmod(parse_double(ctx, where, v), 1.0); }
        else if (name == "blend") { old_form = true; blend = parse_double(ctx, where, v); }
        else ctx.fail(where, "unknown attribute");
    }
    if (old_form && new_form) ctx.fail("<palette>", "mixes the count/format and index0/index1 forms");
    if (old_form) {
        // flam3 would pick random palettes for missing indices.
        if (index0 < 0 || index1 < 0) ctx.fail("<palette>", "needs index0 and index1");
        blend_library_palettes(ctx, library, index0, hue0, index1, hue1, blend, palette);
        return;
    }
    if (!format_given) ctx.fail("<palette>", "needs a format (RGB or RGBA)");
    std::string data;
    for (pugi::xml_node text : element.children())
        if (text.type() == pugi::node_pcdata || text.type() == pugi::node_cdata) data += text.value();
    read_hex_colors(ctx, "<palette>", data, count, form, palette);
}

}  // namespace

void check_palette_range(const ReadContext& ctx, const std::array<RGBA, 256>& palette) {
    for (int i = 0; i < 256; ++i) {
        const RGBA& c = palette[i];
        for (double v : {c.r, c.g, c.b, c.a})
            if (!(std::fabs(v) <= kMaxPaletteChannel))
                ctx.fail("palette", "colour " + std::to_string(i) + " has a channel of " + message_number(v * 255) +
                                        ", outside -" + message_number(kMaxPaletteChannel * 255) + ".." +
                                        message_number(kMaxPaletteChannel * 255));
    }
}

void read_palette_element(const ReadContext& ctx, const pugi::xml_node& element, const std::string& library,
                          PaletteBuilder* palette) {
    const std::string tag = element.name();
    if (tag == "color") read_color(ctx, element, palette);
    else if (tag == "colors") read_colors(ctx, element, palette);
    else read_palette(ctx, element, library, palette);
}

}  // namespace fj::flam3_read
