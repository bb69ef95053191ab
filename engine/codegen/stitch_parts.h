// flamejit — pieces every kernel generator writes the same way.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// The specialized stitcher (stitcher.h) and the all-variations switch kernel
// (switch_kernel.h) differ only in how an xform is applied; the prologue, the
// snippets, the code switches and the iteration template around that part
// come from here, so a comparison of the two measures the xform functions and
// nothing else.
#pragma once

#include <ostream>
#include <set>
#include <string>

#include "codegen/kernel_key.h"
#include "codegen/snippet_source.h"
#include "codegen/variation_registry.h"

namespace fj::stitch {

// A snippet's text; throws std::runtime_error naming the file when absent.
std::string need(const SnippetSource& source, const std::string& path);

// The text without #include and #pragma once lines: snippets include
// fj_device.h, common.h and shared/ helpers for the host build, and the
// stitched file already holds each once, ahead of them.
std::string strip_includes(const std::string& text);

// Throws std::runtime_error for a block size the iteration template cannot use.
void check_block_size(int block_size);

// The generated-by comment, fj_device.h and iterate/common.h.
void write_prologue(std::ostream& out, const std::string& what, const SnippetSource& source);

// The helpers under snippets/shared/ that those snippets include, each once
// and after those it includes, then the snippet of each variation id once, in
// id order.
void write_variations(std::ostream& out, const std::set<int>& ids, const VariationRegistry& registry,
                      const SnippetSource& source);

// The #defines of the key's code switches: FJ_BLOCK, FJ_SHUFFLE_*, FJ_ACCUM_*, FJ_XAOS,
// FJ_PALETTE_LINEAR, FJ_HAS_FINAL. Layout offsets are the caller's.
void write_code_switches(std::ostream& out, const KernelKey& key);

// The iteration kernel template, preceded by its accumulation modes
// (iterate/accumulate.cuh) and the pool's points with their seeding kernel
// (iterate/seed.cuh, whose fj_seed FJ_SEED_APART leaves out); it expects
// fj_apply_xform (and fj_apply_final) and the layout macros to be defined
// above it.
void write_iterate_template(std::ostream& out, const SnippetSource& source);

// The seeding kernel alone (iterate/seed.cuh), after write_prologue: it
// needs nothing of a genome.
void write_seed_kernel(std::ostream& out, const SnippetSource& source);

}  // namespace fj::stitch
