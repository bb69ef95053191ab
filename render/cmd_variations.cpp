// flamejit — `flamejit variations`: the variations this build supports, from the registry.
// SPDX-License-Identifier: GPL-3.0-or-later
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "cli_args.h"
#include "cli_common.h"
#include "codegen/variation_registry.h"
#include "errors.h"

namespace fj::cli {
namespace {

const char* kHelp =
    "usage: flamejit variations [NAME|ID ...] [--json]\n"
    "\n"
    "Lists the variations flamejit supports, as its snippets declare them: the id (flam3's,\n"
    "or from 1000 on for another renderer's), the XML name (and other renderers' names for\n"
    "it, read as it), the parameters in the order the formula reads them with their\n"
    "defaults, other XML spellings of a parameter (aliases), parameters other renderers\n"
    "write that change nothing here (ignored: at any value, or only at the one given),\n"
    "whether the variation draws random numbers (and how many per call), whether it is a\n"
    "pre-variation (moves the point before the other variations see it), what its pre_ and\n"
    "post_ uses do (Fractorium's pre_NAME and post_NAME, with parameters pre_PARAM and\n"
    "post_PARAM: they replace the point, before the other variations or after them, with\n"
    "their value, or add it: \"replace\" or \"add\"; a pre-variation has none, nor has one\n"
    "that reads the sum of the variations before it), whether it changes the point's\n"
    "colour index (Fractorium's direct-colour variations; the xform's var_color says how\n"
    "much of the change it keeps), and where the formula comes from. With names or ids,\n"
    "lists only those.\n"
    "\n"
    "  --json   one JSON object: {\"count\": N, \"variations\": [{\"id\", \"name\", \"also\", \"params\":\n"
    "           [{\"name\", \"default\"}], \"aliases\": [{\"alias\", \"param\"}], \"ignored\":\n"
    "           [{\"name\", \"only\" (absent: any value)}], \"random_draws\", \"pre\", \"pre_post\"\n"
    "           (\"replace\", \"add\" or null), \"writes_color\", \"discards_sum\",\n"
    "           \"origin\"}]}\n"
    "  --help   print this text\n";

// What the variation's pre_ and post_ uses do with its value; null when it
// has none (a pre-variation, or one that reads the sum before it).
const char* pre_post(const VariationInfo& v) {
    if (v.pre || v.reads_sum) return nullptr;
    return v.pre_post_sum ? "add" : "replace";
}

// Shortest text that reads back as the same double (defaults such as π).
std::string number_text(double v) {
    char buf[32];
    // Whole numbers in full: 10, not 1e+01.
    if (v == std::trunc(v) && std::fabs(v) < 1e15) {
        std::snprintf(buf, sizeof buf, "%.0f", v);
        return buf;
    }
    for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (std::strtod(buf, nullptr) == v) break;
    }
    return buf;
}

// The entries the arguments name, in id order; all of them when none.
std::vector<const VariationInfo*> selected(const VariationRegistry& registry, const std::vector<std::string>& names) {
    std::vector<const VariationInfo*> out;
    if (names.empty()) {
        for (const VariationInfo& v : registry.all()) out.push_back(&v);
        return out;
    }
    std::vector<bool> wanted(registry.all().size(), false);
    for (const std::string& name : names) {
        const VariationInfo* info = registry.by_name(name);
        if (!info && !name.empty() && name.find_first_not_of("0123456789") == std::string::npos && name.size() < 6)
            info = registry.by_id(std::stoi(name));
        if (!info) throw InputError("no variation named '" + name + "' (flamejit variations lists them all)");
        wanted[info - registry.all().data()] = true;
    }
    for (size_t i = 0; i < wanted.size(); ++i)
        if (wanted[i]) out.push_back(&registry.all()[i]);
    return out;
}

void print_json(const std::vector<const VariationInfo*>& list) {
    nlohmann::ordered_json variations = nlohmann::ordered_json::array();
    for (const VariationInfo* v : list) {
        nlohmann::ordered_json params = nlohmann::ordered_json::array();
        for (const ParamInfo& p : v->params) params.push_back({{"name", p.name}, {"default", p.default_value}});
        nlohmann::ordered_json aliases = nlohmann::ordered_json::array();
        for (const auto& [alias, param] : v->aliases) aliases.push_back({{"alias", alias}, {"param", param}});
        nlohmann::ordered_json ignored = nlohmann::ordered_json::array();
        for (const IgnoredParam& p : v->ignored) {
            nlohmann::ordered_json entry = {{"name", p.name}};
            if (!p.any_value) entry["only"] = p.value;
            ignored.push_back(entry);
        }
        variations.push_back({{"id", v->id},
                              {"name", v->name},
                              {"also", v->also},
                              {"params", params},
                              {"aliases", aliases},
                              {"ignored", ignored},
                              {"random_draws", v->random_draws},
                              {"pre", v->pre},
                              {"pre_post", pre_post(*v) ? nlohmann::ordered_json(pre_post(*v)) : nlohmann::ordered_json()},
                              {"writes_color", v->writes_color},
                              {"discards_sum", v->discards_sum},
                              {"origin", v->origin}});
    }
    const nlohmann::ordered_json out = {{"count", list.size()}, {"variations", variations}};
    std::printf("%s\n", out.dump(2).c_str());
}

// One line per variation; aliases and ignored parameters, when there are
// any, on lines of their own below it.
void print_text(const std::vector<const VariationInfo*>& list, bool everything) {
    if (everything) std::printf("%zu variations\n\n", list.size());
    int id_width = 3, origin_width = 6;
    for (const VariationInfo* v : list) {
        id_width = std::max(id_width, static_cast<int>(std::to_string(v->id).size()));
        origin_width = std::max(origin_width, static_cast<int>(v->origin.size()));
    }
    // "random": numbers drawn per call; "pre/post": "pre" for a
    // pre-variation, else what its pre_ and post_ uses do.
    std::printf("%*s  %-14s %-6s %-8s %-*s %s\n", id_width, "id", "name", "random", "pre/post", origin_width, "origin",
                "parameters (default)");
    const auto more = [&](const char* what, const std::string& text) {
        std::printf("%*s  %-14s %s: %s\n", id_width, "", "", what, text.c_str());
    };
    for (const VariationInfo* v : list) {
        const std::string draws = v->random_draws > 0 ? std::to_string(v->random_draws) : "-";
        std::string params;
        for (const ParamInfo& p : v->params)
            params += (params.empty() ? "" : ", ") + p.name + " " + number_text(p.default_value);
        const char* uses = v->pre ? "pre" : pre_post(*v) ? pre_post(*v) : "-";
        std::printf("%*d  %-14s %-6s %-8s %-*s %s\n", id_width, v->id, v->name.c_str(), draws.c_str(), uses,
                    origin_width, v->origin.c_str(), params.empty() ? "-" : params.c_str());
        if (!v->also.empty()) {
            std::string also;
            for (const std::string& name : v->also) also += (also.empty() ? "" : ", ") + name;
            more("also read as", also);
        }
        if (!v->aliases.empty()) {
            std::string aliases;
            for (const auto& [alias, param] : v->aliases)
                aliases += (aliases.empty() ? "" : ", ") + alias + " = " + param;
            more("aliases", aliases);
        }
        if (v->writes_color) more("colour", "changes the point's colour index (kept by the xform's var_color)");
        if (v->discards_sum) more("sum", "a plain use drops the sum of the variations before it");
        if (!v->ignored.empty()) {
            std::string ignored;
            for (const IgnoredParam& p : v->ignored)
                ignored += (ignored.empty() ? "" : ", ") + p.name + (p.any_value ? "" : " (only " + number_text(p.value) + ")");
            more("ignored", ignored);
        }
    }
}

int run(const Args& args) {
    const ParsedArgs a = parse_args(args, {}, {"help", "h", "json"});
    if (a.has("help") || a.has("h")) {
        std::fputs(kHelp, stdout);
        return 0;
    }
    const VariationRegistry& registry = VariationRegistry::standard();
    const std::vector<const VariationInfo*> list = selected(registry, a.positional);
    if (a.has("json")) print_json(list);
    else print_text(list, a.positional.empty());
    return 0;
}

}  // namespace

int cmd_variations(const Args& args) { return run_guarded("variations", [&] { return run(args); }); }

}  // namespace fj::cli
