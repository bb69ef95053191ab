// SPDX-License-Identifier: GPL-3.0-or-later
#include "codegen/variation_registry.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <set>
#include <sstream>
#include <stdexcept>

#include "fj_device.h"

namespace fj {
namespace {

[[noreturn]] void fail(const std::string& path, int line, const std::string& what) {
    throw std::runtime_error("snippets/" + path + ":" + std::to_string(line) + ": " + what);
}

double parse_number(const std::string& path, int line, const std::string& text) {
    double value = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || end != text.data() + text.size())
        fail(path, line, "'" + text + "' is not a number");
    return value;
}

VariationInfo parse_annotations(const std::string& path, const std::string& text) {
    VariationInfo info;
    info.path = path;
    std::istringstream lines(text);
    std::string line;
    int n = 0;
    while (std::getline(lines, line)) {
        ++n;
        if (line.rfind("// @", 0) != 0) continue;
        std::istringstream words(line.substr(4));
        std::string tag, a, b, extra;
        words >> tag;
        if (tag == "origin") {
            // Free text: a renderer name and its version.
            std::getline(words >> std::ws, info.origin);
            while (!info.origin.empty() && std::isspace(static_cast<unsigned char>(info.origin.back())))
                info.origin.pop_back();
            if (info.origin.empty()) fail(path, n, "@origin needs a text");
            continue;
        }
        words >> a >> b >> extra;
        if (!extra.empty()) fail(path, n, "too many words in @" + tag);
        if (tag == "variation" && !a.empty() && b.empty()) {
            info.name = a;
        } else if (tag == "id" && !a.empty() && b.empty()) {
            info.id = static_cast<int>(parse_number(path, n, a));
        } else if (tag == "param" && !b.empty()) {
            info.params.push_back({a, parse_number(path, n, b)});
        } else if (tag == "alias" && !b.empty()) {
            info.aliases.emplace_back(a, b);
        } else if (tag == "also" && !a.empty() && b.empty()) {
            info.also.push_back(a);
        } else if (tag == "ignored" && !a.empty()) {
            info.ignored.push_back({a, b.empty(), b.empty() ? 0.0 : parse_number(path, n, b)});
        } else if (tag == "random" && !a.empty() && b.empty()) {
            info.random_draws = static_cast<int>(parse_number(path, n, a));
        } else if (tag == "pre" && a.empty()) {
            info.pre = true;
        } else if (tag == "assign" && a == "sum" && b.empty()) {
            info.pre_post_sum = true;
        } else if (tag == "color" && a.empty()) {
            info.writes_color = true;
        } else if (tag == "reads" && a == "sum" && b.empty()) {
            info.reads_sum = true;
        } else if (tag == "discards" && a == "sum" && b.empty()) {
            info.discards_sum = true;
        } else {
            fail(path, n, "unknown or malformed annotation '@" + tag + "'");
        }
    }
    const std::string expected = path.substr(path.rfind('/') + 1);
    if (info.name.empty()) fail(path, 1, "missing @variation");
    if (info.name + ".h" != expected) fail(path, 1, "@variation " + info.name + " must live in " + info.name + ".h");
    if (info.id < 0) fail(path, 1, "missing @id");
    if (info.id >= kFlam3Ids && info.id < kFirstOtherId)
        fail(path, 1, "@id " + std::to_string(info.id) + ": flam3's ids end at " + std::to_string(kFlam3Ids - 1) +
                          ", other renderers' start at " + std::to_string(kFirstOtherId));
    if (info.origin.empty()) fail(path, 1, "missing @origin");
    if (text.find("FJ_VARIATION(" + info.name + ")") == std::string::npos)
        fail(path, 1, "no FJ_VARIATION(" + info.name + ") definition");
    // The kernels mix a changed colour index with the blended one only in
    // xforms that hold an @color use, so no other snippet may touch it.
    if (!info.writes_color && text.find("color") != std::string::npos)
        fail(path, 1, "names `color` without @color");
    if (info.writes_color && text.find("color =") == std::string::npos)
        fail(path, 1, "@color, but never assigns `color`");
    info.reads = var_in_reads(text);
    if (info.reads_sum && info.pre) fail(path, 1, "@reads sum: a pre-variation has no sum before it");
    if (info.discards_sum && info.pre) fail(path, 1, "@discards sum: a pre-variation has no sum before it");
    for (const IgnoredParam& ignored : info.ignored)
        for (const auto& p : info.params)
            if (p.name == ignored.name) fail(path, 1, "@ignored " + ignored.name + " is also a @param");
    // Fractorium's pre_ and post_ prefixes mark a use's mode on parameter
    // names: a parameter (or alias, or ignored one) spelled with one would be
    // read as another use's.
    const auto moded = [](const std::string& name) { return name.starts_with("pre_") || name.starts_with("post_"); };
    for (const auto& p : info.params)
        if (moded(p.name)) fail(path, 1, "@param " + p.name + ": pre_ and post_ mark Fractorium's uses");
    for (const auto& [alias, param] : info.aliases)
        if (moded(alias)) fail(path, 1, "@alias " + alias + ": pre_ and post_ mark Fractorium's uses");
    for (const IgnoredParam& ignored : info.ignored)
        if (moded(ignored.name)) fail(path, 1, "@ignored " + ignored.name + ": pre_ and post_ mark Fractorium's uses");
    for (const auto& [alias, param] : info.aliases) {
        bool known = false;
        for (const auto& p : info.params) known |= p.name == param;
        if (!known) fail(path, 1, "@alias " + alias + " names unknown parameter " + param);
    }
    return info;
}

// The code without its // and /* */ comments (snippets hold no string
// literals that could contain either).
std::string without_comments(const std::string& text) {
    std::string code;
    code.reserve(text.size());
    for (size_t i = 0; i < text.size(); ++i) {
        if (text.compare(i, 2, "//") == 0) {
            i = text.find('\n', i);
            if (i == std::string::npos) break;
        } else if (text.compare(i, 2, "/*") == 0) {
            i = text.find("*/", i + 2);
            if (i == std::string::npos) break;
            ++i;
            continue;
        }
        code += text[i];
    }
    return code;
}

bool identifier_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

}  // namespace

unsigned var_in_reads(const std::string& text) {
    const std::string code = without_comments(text);
    unsigned reads = 0;
    for (size_t at = code.find("in"); at != std::string::npos; at = code.find("in", at + 2)) {
        const size_t end = at + 2;
        if ((at > 0 && (identifier_char(code[at - 1]) || code[at - 1] == '.' || code[at - 1] == ':')) ||
            (end < code.size() && identifier_char(code[end])))
            continue;  // part of another name, or another thing's member
        size_t field = end;
        while (field < code.size() && std::isspace(static_cast<unsigned char>(code[field]))) ++field;
        if (field >= code.size() || code[field] != '.') return FJ_READS_ALL;
        ++field;
        while (field < code.size() && std::isspace(static_cast<unsigned char>(code[field]))) ++field;
        size_t name_end = field;
        while (name_end < code.size() && identifier_char(code[name_end])) ++name_end;
        const std::string name = code.substr(field, name_end - field);
        if (name == "x" || name == "y" || name == "r2" || name == "aff") continue;
        if (name == "r") reads |= FJ_READS_R;
        else if (name == "theta") reads |= FJ_READS_THETA;
        else if (name == "phi") reads |= FJ_READS_PHI;
        else if (name == "sina" || name == "cosa") reads |= FJ_READS_RATIOS;
        else return FJ_READS_ALL;
    }
    return reads;
}

VariationRegistry VariationRegistry::load(const SnippetSource& source) {
    VariationRegistry registry;
    std::set<std::string> names;
    std::set<int> ids;
    for (const std::string& path : source.list("variations")) {
        if (path.size() < 2 || path.compare(path.size() - 2, 2, ".h") != 0) continue;
        VariationInfo info = parse_annotations(path, *source.read(path));
        if (!names.insert(info.name).second) fail(path, 1, "duplicate variation " + info.name);
        for (const std::string& other : info.also)
            if (!names.insert(other).second) fail(path, 1, "duplicate variation name " + other);
        if (!ids.insert(info.id).second) fail(path, 1, "duplicate id " + std::to_string(info.id));
        registry.variations_.push_back(std::move(info));
    }
    std::sort(registry.variations_.begin(), registry.variations_.end(),
              [](const VariationInfo& x, const VariationInfo& y) { return x.id < y.id; });
    return registry;
}

const VariationRegistry& VariationRegistry::standard() {
    static const VariationRegistry registry = load(SnippetSource::standard());
    return registry;
}

const VariationInfo* VariationRegistry::by_name(std::string_view name) const {
    for (const auto& v : variations_)
        if (v.name == name) return &v;
    for (const auto& v : variations_)
        for (const std::string& other : v.also)
            if (other == name) return &v;
    return nullptr;
}

const VariationInfo* VariationRegistry::by_id(int id) const {
    for (const auto& v : variations_)
        if (v.id == id) return &v;
    return nullptr;
}

const VariationInfo* VariationRegistry::param_owner(std::string_view param, int* index) const {
    for (const auto& v : variations_) {
        for (size_t i = 0; i < v.params.size(); ++i)
            if (v.params[i].name == param) {
                if (index) *index = static_cast<int>(i);
                return &v;
            }
        for (const auto& [alias, target] : v.aliases)
            if (alias == param) return param_owner(target, index);
    }
    return nullptr;
}

const IgnoredParam* VariationRegistry::ignored_param(std::string_view param) const {
    for (const auto& v : variations_)
        for (const IgnoredParam& ignored : v.ignored)
            if (ignored.name == param) return &ignored;
    return nullptr;
}

}  // namespace fj
