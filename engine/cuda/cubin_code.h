// flamejit — what a CUBIN's generated code is, for telling whether an option changed it, and
// what its functions use.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// NVRTC options that only cost or save compile time must leave the machine
// code alone; options that change it need a measurement on a GPU before they
// are adopted. The CUBIN as a whole is no witness: it also records things that
// do not run (string tables, the order of sections). This digest covers what
// does: every function's SASS (`.text.*`), the per-function resource records
// (`.nv.info*`: registers, stack, barriers, parameter layout), the constant
// banks (`.nv.constant*`) and the sizes of shared and global data.
#pragma once

#include <string>

namespace fj {

// 16 hex digits, or "" when `cubin` is not a 64-bit ELF image. With a
// function name, only that function's code and data count (`.text.NAME`,
// `.nv.constant*.NAME`, `.nv.shared.NAME`), so the module around it may
// differ; its `.nv.info.NAME` is left out because its records name symbols by
// index, which shift when another function is added or removed (compare the
// ptxas report's registers instead).
std::string cubin_code_digest(const std::string& cubin, const std::string& function = "");

// The registers a thread of `function` uses, as the CUBIN's resource records
// give them (the module's .nv.info, attribute EIATTR_REGCOUNT), or -1 when
// the image is not a CUBIN or lacks the record. The ptxas report says the
// same; this reads it without the report.
int cubin_registers(const std::string& cubin, const std::string& function);

}  // namespace fj
