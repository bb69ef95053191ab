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
#include <vector>

#include "codegen/kernel_key.h"
#include "codegen/param_layout.h"
#include "codegen/snippet_source.h"
#include "codegen/variation_registry.h"

namespace fj {

// Name of the iteration entry point in every generated module.
inline constexpr const char* kIterateKernelName = "fj_iterate";

std::string stitch_kernel(const KernelKey& key, const ParamLayout& layout,
                          const VariationRegistry& registry, const SnippetSource& source);

// A linked kernel's programs (KernelForm::Linked): first the one holding the
// entry points and the dispatch, which calls a function per xform
// (fj_linked_xform_K, extern "C") and one for the final xform
// (fj_linked_final); then one program per xform, and one for the final
// xform, that defines it, with that xform's variations only; last the
// seeding kernel, which needs nothing of the genome. Each compiles on its
// own, with -rdc=true (all but the first with
// -maxrregcount=linked_xform_registers), and nvJitLink links them into one
// CUBIN. The xforms' code is what stitch_kernel writes, the shared-prologue
// shape aside.
std::vector<std::string> stitch_linked_kernel(const KernelKey& key, const ParamLayout& layout,
                                              const VariationRegistry& registry, const SnippetSource& source);

// The line above program `index` (from 0) of `count` wherever a linked
// kernel's programs stand one after another for people to read (--emit-cu,
// a failed compile's kept source and log).
std::string linked_program_banner(size_t index, size_t count);

// The register bound of a linked kernel's xform functions: the linker
// refuses an entry point whose callees may use more registers than its own
// bound, so they are compiled under fj_iterate's (the key's linked_registers,
// which the entry's launch bounds give it).
int linked_xform_registers(const KernelKey& key);

}  // namespace fj
