// flamejit — shared pieces of the flam3 reader: where we are, strict numbers.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Internal to the reader. Every failure goes through ReadContext::fail so that
// all messages share one shape: "FILE: flame I "NAME": WHERE: WHAT".
#pragma once

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "genome/flam3_reader.h"

namespace fj::flam3_read {

struct ReadContext {
    std::string file;
    int flame_index = -1;  // -1: not inside a flame
    std::string flame_name;
    const ReadOptions* options = nullptr;
    std::set<std::string>* warned = nullptr;  // warnings already given
    bool fractorium = false;  // the flame is in Fractorium's dialect ("ember" in its version)

    [[noreturn]] void fail(const std::string& where, const std::string& what) const;
    // Reports what flamejit does not render: an error, or with
    // drop_unknown_variations one warning per message, after which the
    // reader goes on without it.
    void unsupported(const std::string& where, const std::string& what) const;
    // An unknown variation, through unsupported.
    void unknown_variation(const std::string& where, const std::string& name) const;
};

// A value quoted for a message: one line, at most a few dozen characters.
std::string quote(std::string_view text);

// Strict conversions: surrounding whitespace allowed, nothing else; the value
// must be finite. `where` names the attribute for the error message.
double parse_double(const ReadContext& ctx, const std::string& where, std::string_view text);
int parse_int(const ReadContext& ctx, const std::string& where, std::string_view text);
// A whitespace-separated list of numbers of any length.
std::vector<double> parse_doubles(const ReadContext& ctx, const std::string& where, std::string_view text);
// Exactly `count` numbers.
std::vector<double> parse_doubles(const ReadContext& ctx, const std::string& where, std::string_view text,
                                  size_t count);

}  // namespace fj::flam3_read
