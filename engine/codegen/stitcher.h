// flamejit — writes the one .cu file of a kernel key.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Output, in order: fj_device.h, the shared helpers (snippets/shared/) and
// the snippet of each variation the key uses (once each), one inlined function per xform that holds exactly its
// variations (no switch over variations), the warp-uniform xform dispatch, the
// parameter-layout constants, and the iteration kernel template
// (snippets/iterate/iterate_kernel.cuh). The text is readable on purpose: a
// failed compile keeps it for the user to read.
#pragma once

#include <string>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/snippet_source.h"
#include "codegen/variation_registry.h"

namespace fj {

// Name of the iteration entry point in every generated module.
inline constexpr const char* kIterateKernelName = "fj_iterate";

std::string stitch_kernel(const KernelKey& key, const ParamLayout& layout,
                          const VariationRegistry& registry, const SnippetSource& source);

}  // namespace fj
