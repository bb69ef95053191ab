// flamejit — the variations flamejit knows, built from snippet annotations.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Each file snippets/variations/NAME.h starts with comment annotations:
//   // @variation NAME        the XML name (also the file and function name)
//   // @id N                  flam3's variation id, or from kFirstOtherId on for
//                             another renderer's: fixes summation order
//   // @origin TEXT           where the formula comes from ("flam3 3.1.1")
//   // @param PNAME DEFAULT   one per parameter, in the order the code reads p[i]
//   // @alias ALIAS PNAME     another XML spelling of a parameter
//   // @also NAME             another renderer's XML name for this variation
//                             (read as it; written under @variation's name)
//   // @ignored PNAME [VALUE] a parameter another renderer writes for this
//                             variation that changes nothing here: read and
//                             dropped, at any value or only at VALUE (the one
//                             the formula here assumes); other values are refused
//   // @random N              random numbers drawn per call (documentation)
//   // @pre                   applied to the point before the others (pre_blur)
//   // @assign sum            as a Fractorium pre_ or post_ use, adds its value to
//                             the point instead of replacing it (blurs)
//   // @color                 writes the point's colour index (Fractorium's
//                             direct-colour variations); no other snippet may
//                             name `color`
//   // @reads sum             reads ox, oy: the sum of the uses before it, which
//                             Fractorium adds in its file's order (the reader
//                             refuses files where that differs from the id order)
// The registry is derived from these, and what a snippet reads of fj::VarIn
// from its code (var_in_reads); there is no hand-kept list of variations
// anywhere in the engine.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "codegen/snippet_source.h"

namespace fj {

// flam3 3.1.1's variations keep flam3's ids, 0 to kFlam3Ids - 1; those of
// other renderers are numbered from kFirstOtherId, so they sum after flam3's.
inline constexpr int kFlam3Ids = 99;
inline constexpr int kFirstOtherId = 1000;

struct ParamInfo {
    std::string name;
    double default_value = 0;
};

struct IgnoredParam {
    std::string name;
    bool any_value = true;
    double value = 0;  // the only value accepted, unless any_value
};

struct VariationInfo {
    std::string name;
    int id = -1;
    std::vector<ParamInfo> params;
    std::vector<std::pair<std::string, std::string>> aliases;  // alias -> param
    std::vector<std::string> also;                             // other names (@also)
    std::vector<IgnoredParam> ignored;
    int random_draws = 0;
    bool pre = false;
    bool pre_post_sum = false;  // @assign sum
    bool writes_color = false;  // @color
    bool reads_sum = false;     // @reads sum
    bool discards_sum = false;  // @discards sum: a plain use drops the sum before it
    unsigned reads = 0;         // FJ_READS_* bits: what its code reads of fj::VarIn (var_in_reads)
    std::string origin;  // @origin: the renderer and version that defines it
    std::string path;    // relative to snippets/

    bool from_flam3() const { return id < kFlam3Ids; }
};

// What a snippet's code reads of fj::VarIn, as FJ_READS_* bits: its
// comments taken out, every `in.r`, `in.theta`, `in.phi`, `in.sina` and
// `in.cosa`; `in` used any other way (handed whole to a helper, or a field
// this does not know) counts as reading everything.
unsigned var_in_reads(const std::string& text);

class VariationRegistry {
public:
    // Parses the annotations of every file in variations/. Throws
    // std::runtime_error naming the file on a malformed or duplicate entry.
    static VariationRegistry load(const SnippetSource& source);
    // The registry of the standard snippet source, built once per process.
    static const VariationRegistry& standard();

    // By @variation name or an @also name.
    const VariationInfo* by_name(std::string_view name) const;
    const VariationInfo* by_id(int id) const;
    // The variation owning a parameter name (or alias) and the parameter's index.
    const VariationInfo* param_owner(std::string_view param, int* index) const;
    // The @ignored entry of that name, or null.
    const IgnoredParam* ignored_param(std::string_view param) const;
    // Sorted by id.
    const std::vector<VariationInfo>& all() const { return variations_; }

private:
    std::vector<VariationInfo> variations_;
};

}  // namespace fj
