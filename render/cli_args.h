// flamejit — command-line argument parsing shared by the subcommands.
// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "commands.h"

namespace fj::cli {

// A usage mistake: printed as one line with a hint to --help, exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct ParsedArgs {
    std::vector<std::string> positional;
    std::map<std::string, std::string> values;  // --name VALUE or --name=VALUE (the last given)
    std::map<std::string, std::vector<std::string>> every;  // every value of each option, in order
    std::set<std::string> flags;                // --name (no value)

    bool has(const std::string& name) const { return values.count(name) || flags.count(name); }
    std::string value(const std::string& name, const std::string& fallback = "") const;
    double number(const std::string& name, double fallback) const;
    long long integer(const std::string& name, long long fallback) const;
    // Every value of an option that may be given several times.
    std::vector<std::string> all(const std::string& name) const;
};

// `with_value` and `switches` name the accepted options (without "--"; "o"
// stands for -o). Throws UsageError for an unknown option or a missing value.
ParsedArgs parse_args(const Args& args, const std::set<std::string>& with_value,
                      const std::set<std::string>& switches);

}  // namespace fj::cli
