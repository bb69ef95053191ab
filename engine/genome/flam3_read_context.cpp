// flamejit — shared pieces of the flam3 reader: where we are, strict numbers.
// SPDX-License-Identifier: GPL-3.0-or-later
#include "genome/flam3_read_context.h"

#include <charconv>
#include <cmath>
#include <iostream>

namespace fj::flam3_read {
namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && is_space(s.front())) s.remove_prefix(1);
    while (!s.empty() && is_space(s.back())) s.remove_suffix(1);
    return s;
}

// from_chars rejects the leading '+' that strtod (and so flam3) accepts.
std::string_view drop_plus(std::string_view s) {
    if (s.size() > 1 && s[0] == '+' && s[1] != '-' && s[1] != '+') s.remove_prefix(1);
    return s;
}

bool to_double(std::string_view s, double* out) {
    s = drop_plus(s);
    if (s.empty()) return false;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), *out);
    return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::string quote(std::string_view text) {
    std::string out = "\"";
    size_t n = 0;
    for (char c : text) {
        if (++n > 40) {
            out += "...";
            break;
        }
        const unsigned char u = static_cast<unsigned char>(c);
        out += (u < 0x20 || u == 0x7f) ? ' ' : c;
    }
    return out + "\"";
}

void ReadContext::fail(const std::string& where, const std::string& what) const {
    std::string message = file;
    if (flame_index >= 0) {
        message += ": flame " + std::to_string(flame_index);
        if (!flame_name.empty()) message += " " + quote(flame_name);
    }
    if (!where.empty()) message += ": " + where;
    message += ": " + what;
    for (char& c : message)
        if (c == '\n' || c == '\r') c = ' ';
    throw GenomeError(message);
}

void ReadContext::unsupported(const std::string& where, const std::string& what) const {
    if (options && options->only_flame >= 0 && flame_index != options->only_flame) return;
    if (!options || !options->drop_unknown_variations) fail(where, what);
    if (warned && warned->insert(what).second) std::cerr << "warning: " << file << ": " << what << ", dropped\n";
}

void ReadContext::unknown_variation(const std::string& where, const std::string& name) const {
    unsupported(where, "unknown variation " + quote(name));
}

double parse_double(const ReadContext& ctx, const std::string& where, std::string_view text) {
    double value = 0;
    if (!to_double(trim(text), &value)) ctx.fail(where, quote(text) + " is not a number");
    if (!std::isfinite(value)) ctx.fail(where, quote(text) + " is not a finite number");
    return value;
}

int parse_int(const ReadContext& ctx, const std::string& where, std::string_view text) {
    std::string_view s = drop_plus(trim(text));
    int value = 0;
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    if (s.empty() || ec != std::errc() || end != s.data() + s.size())
        ctx.fail(where, quote(text) + " is not an integer");
    return value;
}

std::vector<double> parse_doubles(const ReadContext& ctx, const std::string& where, std::string_view text) {
    std::vector<double> values;
    size_t i = 0;
    while (true) {
        while (i < text.size() && is_space(text[i])) ++i;
        if (i == text.size()) break;
        size_t j = i;
        while (j < text.size() && !is_space(text[j])) ++j;
        values.push_back(parse_double(ctx, where, text.substr(i, j - i)));
        i = j;
    }
    return values;
}

std::vector<double> parse_doubles(const ReadContext& ctx, const std::string& where, std::string_view text,
                                  size_t count) {
    std::vector<double> values = parse_doubles(ctx, where, text);
    if (values.size() != count)
        ctx.fail(where, "expected " + std::to_string(count) + " numbers, got " + std::to_string(values.size()));
    return values;
}

}  // namespace fj::flam3_read
