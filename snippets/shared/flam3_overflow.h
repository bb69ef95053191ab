// flamejit — where flam3's double arithmetic overflows into a bad value.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
//
// flam3's tan, sec, foci and their kin divide by a double cosh or exp that
// overflows for large arguments, and multiply the 0 that gives by another
// overflow: NaN, a bad point, which flam3 replaces by a random one. Their
// float snippets reach the limit instead (the formula's value far out), so
// each tests for flam3's threshold and gives the bad value beyond it, and
// the point is replaced as flam3's is. Each threshold is the first float at
// which glibc's double function overflows (variations_test checks the
// snippets against libflam3 on both sides of every one).
#pragma once

#include "fj_device.h"

// cosh(2v) and sinh(2v) are infinite in double from |v| = this float on.
#define FJ_FLAM3_COSH_2V_OVERFLOW 355.237946f
// cosh(v) and sinh(v), and 0.25 / (exp(-v) / 2) (foci's), from |v| = this on.
#define FJ_FLAM3_COSH_OVERFLOW 710.475891f
// exp(v) from v = this on.
#define FJ_FLAM3_EXP_OVERFLOW 709.782715f
