#!/usr/bin/env python3
# flamejit — fits the polynomial of fj::arctan2 (snippets/fj_device.h).
# SPDX-License-Identifier: GPL-3.0-or-later
#
# atan(a) = a + a·s·q(s) with s = a², a ∈ [0, 1]. q is fitted by Lawson's
# iteratively reweighted least squares, which converges to the minimax fit of
# atan's relative error. Needs numpy. Prints the worst relative error of the
# fit (before float rounding) and q's coefficients, constant term first.
import sys

import numpy as np

degree = int(sys.argv[1]) if len(sys.argv) > 1 else 7

a = np.linspace(1e-4, 1.0, 20001)
s = a * a
target = (np.arctan(a) - a) / (a * s)
# An error e in q moves atan(a) by a·s·e; weigh it against atan(a) itself.
scale = a * s / np.arctan(a)
basis = np.vander(s, degree + 1, increasing=True)

weights = np.ones_like(a)
for _ in range(400):
    w = weights * scale
    coef, *_ = np.linalg.lstsq(basis * w[:, None], target * w, rcond=None)
    error = (basis @ coef - target) * scale
    weights *= np.sqrt(np.abs(error))
    weights /= weights.max()

print(f"degree {degree}: worst relative error {np.abs(error).max():.3g}")
for c in coef:
    print(f"{c!r}f")
