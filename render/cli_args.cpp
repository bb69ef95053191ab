// SPDX-License-Identifier: GPL-3.0-or-later
#include "cli_args.h"

#include <charconv>
#include <cmath>

namespace fj::cli {

std::string ParsedArgs::value(const std::string& name, const std::string& fallback) const {
    auto it = values.find(name);
    return it == values.end() ? fallback : it->second;
}

double ParsedArgs::number(const std::string& name, double fallback) const {
    auto it = values.find(name);
    if (it == values.end()) return fallback;
    double v = 0;
    const std::string& s = it->second;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
        throw UsageError("--" + name + ": '" + s + "' is not a number");
    return v;
}

std::vector<std::string> ParsedArgs::all(const std::string& name) const {
    auto it = every.find(name);
    return it == every.end() ? std::vector<std::string>{} : it->second;
}

long long ParsedArgs::integer(const std::string& name, long long fallback) const {
    auto it = values.find(name);
    if (it == values.end()) return fallback;
    long long v = 0;
    const std::string& s = it->second;
    auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec != std::errc() || end != s.data() + s.size())
        throw UsageError("--" + name + ": '" + s + "' is not an integer");
    return v;
}

ParsedArgs parse_args(const Args& args, const std::set<std::string>& with_value,
                      const std::set<std::string>& switches) {
    ParsedArgs parsed;
    for (size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (a == "--") {
            parsed.positional.insert(parsed.positional.end(), args.begin() + i + 1, args.end());
            break;
        }
        std::string name, value;
        bool inline_value = false;
        if (a.rfind("--", 0) == 0 && a.size() > 2) {
            name = a.substr(2);
            const size_t eq = name.find('=');
            if (eq != std::string::npos) {
                value = name.substr(eq + 1);
                name = name.substr(0, eq);
                inline_value = true;
            }
        } else if (a.size() == 2 && a[0] == '-' && a[1] != '-') {
            name = a.substr(1);
        } else {
            parsed.positional.push_back(a);
            continue;
        }
        if (with_value.count(name)) {
            if (!inline_value) {
                if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
                value = args[++i];
                // "--time --flame 0": the value left out, the next option taken for it.
                const std::string next = value.rfind("--", 0) == 0 ? value.substr(2, value.find('=') - 2) : "";
                if (with_value.count(next) || switches.count(next))
                    throw UsageError(a + " needs a value, not the option " + value);
            }
            // An empty value would read as the option left out (the default output, say).
            if (value.empty()) throw UsageError(a.substr(0, a.find('=')) + " needs a value, not an empty one");
            parsed.values[name] = value;
            parsed.every[name].push_back(value);
        } else if (switches.count(name) && !inline_value) {
            parsed.flags.insert(name);
        } else {
            throw UsageError("unknown option " + a);
        }
    }
    return parsed;
}

}  // namespace fj::cli
