// flamejit — reads cuburn's JSON genomes (nodes) and output profiles into Flames.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/cuburn_reader.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "codegen/variation_registry.h"
#include "genome/genome_text.h"

namespace fj {
namespace {

using json = nlohmann::json;

constexpr int kMaxBaseDepth = 16;
// Genomes nest a few levels; the walks below (and json's copies) recurse,
// so a document nested thousands deep, in brackets or in a dotted key,
// would overflow the stack.
constexpr int kMaxNesting = 64;
constexpr int kLoopTemporalSamples = 1024;   // cuburn's parameter sets per frame
constexpr double kMaxKeyframeTurn = 45.0;    // degrees between loop keyframes
constexpr int kMaxLoopKeyframes = 10000;     // bounds the turn of an angle over a loop

[[noreturn]] void fail(const std::string& file, const std::string& what) { throw GenomeError(file + ": " + what); }

json parse(const std::string& text, const std::string& file) {
    const json::parser_callback_t limit_depth = [&](int depth, json::parse_event_t, json&) {
        if (depth > kMaxNesting) fail(file, "nests more than " + std::to_string(kMaxNesting) + " deep");
        return true;
    };
    try {
        return json::parse(text, limit_depth);
    } catch (const json::parse_error& e) {
        fail(file, std::string("not valid JSON: ") + e.what());
    } catch (const json::out_of_range& e) {
        // A number past a double's range (1e400) is refused this way.
        fail(file, std::string("not valid JSON: ") + e.what());
    }
}

// A string member, or `fallback` where there is none.
std::string string_member(const json& obj, const char* key, const std::string& fallback, const std::string& file) {
    if (!obj.contains(key)) return fallback;
    const json& v = obj[key];
    if (!v.is_string()) fail(file, std::string("\"") + key + "\": expected a string, got " + v.type_name());
    return v.get<std::string>();
}

// "a.b.c": v → {"a": {"b": {"c": v}}}, merged into `out`.
void set_path(json& out, const std::string& dotted, const json& value, const std::string& file) {
    json* at = &out;
    std::stringstream parts(dotted);
    std::string part;
    std::vector<std::string> keys;
    while (std::getline(parts, part, '.')) keys.push_back(part);
    if (keys.size() > static_cast<size_t>(kMaxNesting))
        fail(file, "\"" + dotted.substr(0, 40) + "...\": nests more than " + std::to_string(kMaxNesting) + " deep");
    for (size_t i = 0; i + 1 < keys.size(); ++i) {
        json& next = (*at)[keys[i]];
        if (!next.is_object()) next = json::object();
        at = &next;
    }
    (*at)[keys.back()] = value;
}

// Every leaf under its dotted path; arrays (splines, palettes) are leaves.
void flatten(const json& v, const std::string& prefix, std::map<std::string, json>& out) {
    if (v.is_object() && !v.empty()) {
        for (const auto& [k, x] : v.items()) flatten(x, prefix.empty() ? k : prefix + "." + k, out);
    } else {
        out[prefix] = v;
    }
}

// The node with its `base` chain applied: later documents override leaves.
json resolve(const json& node, const std::string& file, const std::vector<std::string>& dirs, int depth) {
    if (!node.is_object()) fail(file, "the top level is not a JSON object");
    std::map<std::string, json> leaves;
    if (node.contains("base") && node["base"].is_string()) {
        if (depth >= kMaxBaseDepth) fail(file, "\"base\" nests more than 16 deep (a cycle?)");
        const std::string base = node["base"];
        std::string found;
        // Without an error_code a name the system refuses (too long, say)
        // would throw filesystem_error: it is only a base not found here.
        std::error_code ec;
        for (const auto& d : dirs)
            for (const std::string& name : {base + ".json", base})
                if (found.empty() && std::filesystem::is_regular_file(std::filesystem::path(d) / name, ec))
                    found = (std::filesystem::path(d) / name).string();
        if (found.empty()) fail(file, "\"base\": cannot find \"" + base + "\" (looked beside the node and in its flock folder)");
        flatten(resolve(parse(read_genome_file(found), found), found, dirs, depth + 1), "", leaves);
        leaves.erase("base");
        leaves.erase("type");
    }
    std::map<std::string, json> own;
    flatten(node, "", own);
    for (auto& [k, v] : own) leaves[k] = v;
    json out = json::object();
    for (const auto& [k, v] : leaves)
        if (!k.empty()) set_path(out, k, v, file);
    return out;
}

// Where a value is read from, for messages.
struct Reader {
    std::string file;
    double t = 0;        // loop time, 0..1
    std::string prefix;  // path of the object being read, "xforms.0."

    Reader within(const std::string& key) const { return {file, t, prefix + key + "."}; }

    const json* find(const json& obj, std::initializer_list<const char*> path) const {
        const json* at = &obj;
        for (const char* key : path) {
            if (!at->is_object() || !at->contains(key)) return nullptr;
            at = &(*at)[key];
        }
        return at;
    }
    // A spline's value at loop time t: a number, or [position, velocity]
    // (the velocity only for periodic splines, see the header).
    double value(const json& v, const std::string& where, bool periodic) const {
        if (v.is_number()) return v.get<double>();
        if (v.is_array() && v.size() == 2 && v[0].is_number() && v[1].is_number())
            return v[0].get<double>() + (periodic ? t * v[1].get<double>() : 0.0);
        std::string message = where;  // built in steps: GCC 12 misreports "literal" + string&& (-Wrestrict)
        message += ": expected a number or [position, velocity], got ";
        message += v.dump();
        fail(file, message);
    }
    double get(const json& obj, std::initializer_list<const char*> path, double fallback, bool periodic = false) const {
        const json* v = find(obj, path);
        if (!v) return fallback;
        std::string where = prefix;
        for (const char* key : path) {
            if (where.size() > prefix.size()) where.push_back('.');
            where.append(key);
        }
        return value(*v, where, periodic);
    }
};

// Angles: the splines whose velocity turns them over a loop.
bool is_periodic_key(const std::string& key) { return key == "angle" || key == "spread" || key == "rotation"; }

// The largest |velocity| of any periodic spline (angles), degrees per loop.
double max_turn(const json& v, const std::string& key) {
    double turn = 0;
    if (v.is_object()) {
        for (const auto& [k, x] : v.items()) turn = std::max(turn, max_turn(x, k));
    } else if (v.is_array() && v.size() == 2 && v[1].is_number() && is_periodic_key(key)) {
        turn = std::fabs(v[1].get<double>());
    }
    return turn;
}

// Dotted paths of the non-periodic splines that have a velocity: cuburn
// would move them over the loop, flamejit holds them at their position.
void find_held_velocities(const json& v, const std::string& path, std::vector<std::string>& out) {
    if (v.is_object()) {
        for (const auto& [k, x] : v.items()) find_held_velocities(x, path.empty() ? k : path + "." + k, out);
    } else if (v.is_array() && v.size() == 2 && v[1].is_number() && v[1].get<double>() != 0.0 &&
               !is_periodic_key(path.substr(path.rfind('.') + 1))) {
        out.push_back(path);
    }
}

double snap(double v) {
    for (double whole : {-1.0, 0.0, 1.0})
        if (std::fabs(v - whole) < 1e-12) return whole;
    return v;
}

// cuburn's polar affine (y up) to flam3's coefficients (y down).
AffineD affine_from(const Reader& outer, const json& xf, const char* which) {
    if (!xf.contains(which)) return {};
    const json& a = xf[which];
    const Reader r = outer.within(which);
    const double angle = r.get(a, {"angle"}, 45, true), spread = r.get(a, {"spread"}, 45, true);
    const double mx = r.get(a, {"magnitude", "x"}, 1), my = r.get(a, {"magnitude", "y"}, 1);
    const double ox = r.get(a, {"offset", "x"}, 0), oy = r.get(a, {"offset", "y"}, 0);
    const double xa = (angle - spread) * M_PI / 180.0, ya = (angle + spread) * M_PI / 180.0;
    AffineD m;
    m.a = snap(mx * std::cos(xa));
    m.d = snap(-mx * std::sin(xa));
    m.b = snap(-my * std::cos(ya));
    m.e = snap(my * std::sin(ya));
    m.c = ox;
    m.f = -oy;
    return m;
}

// `names`: the node's xform names in xform order, which chaos keys name.
Xform xform_from(const Reader& outer, const json& xf, const std::string& label, const CuburnReadOptions& options,
                 const std::vector<std::string>& names) {
    if (!xf.is_object()) fail(outer.file, label + ": expected an object");
    const Reader r = outer.within(label);
    const VariationRegistry& registry = VariationRegistry::standard();
    Xform out;
    out.weight = r.get(xf, {"weight"}, 0);
    out.color = r.get(xf, {"color"}, 0);
    out.color_speed = r.get(xf, {"color_speed"}, 0.5);
    out.opacity = r.get(xf, {"opacity"}, 1);
    out.affine = affine_from(r, xf, "pre_affine");
    out.post = affine_from(r, xf, "post_affine");
    if (xf.contains("variations")) {
        if (!xf["variations"].is_object()) fail(r.file, label + ".variations: expected an object");
        for (const auto& [name, body] : xf["variations"].items()) {
            const VariationInfo* info = registry.by_name(name == "oscope" ? "oscilloscope" : name);
            if (!info) {
                if (!options.drop_unknown_variations) fail(r.file, label + ".variations: unknown variation \"" + name + "\"");
                std::cerr << "warning: " << r.file << ": " << label << ": dropping unknown variation \"" << name << "\"\n";
                continue;
            }
            VariationUse use;
            use.id = info->id;
            for (const auto& p : info->params) use.params.push_back(p.default_value);
            if (!body.is_object()) fail(r.file, label + ".variations." + name + ": expected an object");
            for (const auto& [key, v] : body.items()) {
                const std::string where = label + ".variations." + name + "." + key;
                if (key == "weight") {
                    use.weight = r.value(v, where, false);
                    continue;
                }
                int index = -1;
                const VariationInfo* owner = registry.param_owner(name + "_" + key, &index);
                if (!owner || owner->id != info->id) {
                    if (!options.drop_unknown_variations) fail(r.file, where + ": unknown parameter");
                    continue;
                }
                use.params[index] = r.value(v, where, false);
            }
            if (use.weight != 0) out.variations.push_back(std::move(use));
        }
        std::sort(out.variations.begin(), out.variations.end(),
                  [](const VariationUse& a, const VariationUse& b) { return a.id < b.id; });
    }
    if (xf.contains("chaos") && xf["chaos"].is_object())
        for (const auto& [key, v] : xf["chaos"].items()) {
            const auto named = std::find(names.begin(), names.end(), key);
            if (named == names.end()) fail(r.file, label + ".chaos." + key + ": names no xform of this node");
            const size_t j = static_cast<size_t>(named - names.begin());
            if (out.chaos.size() <= j) out.chaos.resize(j + 1, 1.0);
            out.chaos[j] = r.value(v, label + ".chaos." + key, false);
            if (out.chaos[j] < 0) fail(r.file, label + ".chaos." + key + ": must not be negative");
        }
    return out;
}

// The base64 body of an "rgb8" palette: 256 RGB byte triples.
std::array<RGBA, 256> palette_from(const json& p, const std::string& file) {
    if (!p.is_array() || p.size() < 2 || p[0] != "rgb8") fail(file, "palette: expected [\"rgb8\", base64 text...]");
    std::string text;
    for (size_t i = 1; i < p.size(); ++i) {
        if (!p[i].is_string()) fail(file, "palette: entries after \"rgb8\" must be strings");
        text += p[i].get<std::string>();
    }
    std::vector<uint8_t> bytes;
    uint32_t acc = 0;
    int bits = 0;
    for (char c : text) {
        int v;
        if (c >= 'A' && c <= 'Z') v = c - 'A';
        else if (c >= 'a' && c <= 'z') v = c - 'a' + 26;
        else if (c >= '0' && c <= '9') v = c - '0' + 52;
        else if (c == '+') v = 62;
        else if (c == '/') v = 63;
        else if (c == '=' || std::isspace(static_cast<unsigned char>(c))) continue;
        else fail(file, std::string("palette: '") + c + "' is not base64");
        acc = (acc << 6) | static_cast<uint32_t>(v);
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            bytes.push_back(static_cast<uint8_t>((acc >> bits) & 0xff));
        }
    }
    if (bytes.size() != 768) fail(file, "palette: expected 768 bytes (256 RGB entries), got " + std::to_string(bytes.size()));
    std::array<RGBA, 256> out{};
    for (int i = 0; i < 256; ++i) out[i] = {bytes[3 * i] / 255.0, bytes[3 * i + 1] / 255.0, bytes[3 * i + 2] / 255.0, 1.0};
    return out;
}

struct Profile {
    int width = 1280, height = 720;
    double spp = 2000, duration = 30, fps = 24, frame_width = 1;
};

Profile read_profile(const std::string& path) {
    Profile p;
    if (path.empty()) return p;
    const json j = parse(read_genome_file(path), path);
    if (!j.is_object() || string_member(j, "type", "", path) != "profile") fail(path, "not a cuburn profile (\"type\": \"profile\")");
    Reader r{path, 0};
    const double width = r.get(j, {"width"}, p.width), height = r.get(j, {"height"}, p.height);
    // Checked as numbers: a cast of one beyond int's range is undefined.
    for (double side : {width, height})
        if (side != std::floor(side) || side < 1 || side > kMaxImageSide)
            fail(path, "width and height must be whole numbers in 1.." + std::to_string(kMaxImageSide));
    p.width = static_cast<int>(width);
    p.height = static_cast<int>(height);
    p.spp = r.get(j, {"spp"}, p.spp);
    p.duration = r.get(j, {"duration"}, p.duration);
    p.fps = r.get(j, {"fps"}, p.fps);
    p.frame_width = r.get(j, {"frame_width"}, p.frame_width);
    if (!(p.spp > 0) || !(p.duration > 0) || !(p.fps > 0)) fail(path, "spp, duration and fps must be positive");
    return p;
}

Flame flame_at(const json& node, const Reader& r, const Profile& profile, const CuburnReadOptions& options) {
    Flame f;
    f.name = string_member(node, "name", "", r.file);
    f.width = profile.width;
    f.height = profile.height;
    f.quality = profile.spp * r.get(node, {"camera", "spp"}, 1);
    f.scale = r.get(node, {"camera", "scale"}, 1) * profile.width;
    f.center_x = r.get(node, {"camera", "center", "x"}, 0);
    f.center_y = r.get(node, {"camera", "center", "y"}, 0);
    f.rotate = r.get(node, {"camera", "rotation"}, 0, true);
    f.filter_radius = r.get(node, {"camera", "dither_width"}, 0.5);
    f.gamma = r.get(node, {"filters", "colorclip", "gamma"}, 4);
    f.gamma_threshold = r.get(node, {"filters", "colorclip", "gamma_threshold"}, 0.01);
    f.highlight_power = r.get(node, {"filters", "colorclip", "highlight_power"}, -1);
    f.vibrancy = r.get(node, {"filters", "colorclip", "vibrance"}, 1);
    f.estimator_radius = r.get(node, {"filters", "de", "radius"}, 11);
    f.estimator_minimum = r.get(node, {"filters", "de", "minimum"}, 0) * f.estimator_radius;
    f.estimator_curve = r.get(node, {"filters", "de", "curve"}, 0.6);
    f.brightness = r.get(node, {"filters", "logscale", "brightness"}, 4);
    f.temporal_samples = options.loop ? kLoopTemporalSamples : 1;
    f.temporal_filter_type = TemporalFilter::Box;
    f.temporal_filter_width = profile.frame_width * r.get(node, {"time", "frame_width"}, 1);
    // Finite JSON numbers can still multiply to infinity.
    for (const auto& [what, v] : {std::pair{"camera.scale", f.scale}, {"camera.spp", f.quality},
                                  {"filters.de.minimum", f.estimator_minimum}, {"time.frame_width", f.temporal_filter_width}})
        if (!std::isfinite(v)) fail(r.file, std::string(what) + ": out of range");
    if (!node.contains("palette")) fail(r.file, "has no palette");
    f.palette = palette_from(node["palette"], r.file);

    if (!node.contains("xforms") || !node["xforms"].is_object() || node["xforms"].empty())
        fail(r.file, "has no xforms");
    // cuburn orders xforms by key, numbers first ("natural" order).
    std::vector<std::string> keys;
    for (const auto& [k, v] : node["xforms"].items()) keys.push_back(k);
    std::stable_sort(keys.begin(), keys.end(), [](const std::string& a, const std::string& b) {
        const bool na = !a.empty() && std::all_of(a.begin(), a.end(), ::isdigit);
        const bool nb = !b.empty() && std::all_of(b.begin(), b.end(), ::isdigit);
        if (na != nb) return na;
        if (na && a.size() != b.size()) return a.size() < b.size();
        return a < b;
    });
    // flam3's rules, which the flam3 XML that convert writes must pass.
    double total = 0;
    for (const auto& k : keys) {
        f.xforms.push_back(xform_from(r, node["xforms"][k], "xforms." + k, options, keys));
        if (f.xforms.back().weight < 0) fail(r.file, "xforms." + k + ".weight: must not be negative");
        total += f.xforms.back().weight;
    }
    if (!(total > 0)) fail(r.file, "xforms: the weights add up to 0");
    if (node.contains("final_xform")) {
        f.has_final = true;
        f.final_xform = xform_from(r, node["final_xform"], "final_xform", options, keys);
        f.final_xform.weight = 0;
    }
    return f;
}

}  // namespace

std::vector<Flame> read_cuburn_string(const std::string& text, const std::string& name, const std::string& base_dir,
                                      const CuburnReadOptions& options) {
    const json raw = parse(text, name);
    if (!raw.is_object()) fail(name, "the top level is not a JSON object");
    const std::string type = string_member(raw, "type", "node", name);
    if (type == "profile") fail(name, "is a cuburn profile, not a genome (give it with --profile)");
    if (type != "node")
        fail(name, "cuburn \"" + type + "\" documents need a genome database; only nodes are read");
    const std::filesystem::path dir(base_dir);
    const json node = resolve(raw, name, {dir.string(), dir.parent_path().string()}, 0);
    const Profile profile = read_profile(options.profile_file);

    std::vector<Flame> out;
    if (!options.loop) {
        out.push_back(flame_at(node, {name, 0.0}, profile, options));
        return out;
    }
    const double loop_frames = std::max(1.0, std::round(profile.fps * profile.duration * Reader{name}.get(node, {"time", "duration"}, 1)));
    std::vector<std::string> held;
    find_held_velocities(node, "", held);
    if (!held.empty())
        std::cerr << "warning: " << name << ": " << held.size() << " non-angle value(s) with a velocity (first: "
                  << held.front() << ") are held at their position; only angles animate\n";
    const double turn = max_turn(node, "");
    if (turn > kMaxKeyframeTurn * kMaxLoopKeyframes)
        fail(name, "an angle turns more than " + std::to_string(static_cast<int>(kMaxKeyframeTurn) * kMaxLoopKeyframes) +
                       " degrees over the loop");
    const int steps = std::max(1, static_cast<int>(std::ceil(turn / kMaxKeyframeTurn)));
    for (int k = 0; k <= steps; ++k) {
        Flame f = flame_at(node, {name, static_cast<double>(k) / steps}, profile, options);
        f.time = loop_frames * k / steps;
        out.push_back(std::move(f));
    }
    return out;
}

std::vector<Flame> read_cuburn_file(const std::string& path, const CuburnReadOptions& options,
                                    std::vector<FlameSource>* sources) {
    std::vector<Flame> flames =
        // Absolute, so that a node named without a folder still finds its flock's.
        read_cuburn_string(read_genome_file(path), path, std::filesystem::absolute(path).parent_path().string(), options);
    if (sources)
        for (size_t i = 0; i < flames.size(); ++i) sources->push_back({path, static_cast<int>(i), ""});
    return flames;
}

}  // namespace fj
