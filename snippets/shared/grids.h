// flamejit — walks around square rings, for the variations that carry squares
// to circles or spiral out of a grid.
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Device code under fj_device.h's rules, included by the snippets that use
// it; a generated kernel holds it once, ahead of them.
#pragma once

#include "fj_device.h"

namespace fj {

// For the variations that carry squares to circles (circlize, circlize2):
// where (x, y) lies along the perimeter of its square ring, the square of
// half-width `side` = max(|x|, |y|), measured counter-clockwise from the
// ring's lower right corner: 0 to 2·side up the right edge, then the top,
// the left and the bottom, 8·side in all.
FJ_HD FJ_INLINE float square_ring_place(float x, float y, float& side) {
    const float ax = fabsf(x), ay = fabsf(y);
    if (ax >= ay) {
        side = ax;
        return x >= ay ? ax + y : 5.0f * ax - y;
    }
    side = ay;
    return y >= ax ? 3.0f * ay - x : 7.0f * ay + x;
}

// The square spiral out from the origin through the whole-number lattice,
// counterclockwise, each ring left at its bottom-right corner (gridout,
// dc_gridout): the unit step (sx, sy) it takes from lattice point (x, y).
FJ_HD FJ_INLINE void spiral_step(float x, float y, float& sx, float& sy) {
    sx = 0.0f;
    sy = 0.0f;
    if (y <= 0.0f) {
        if (x > 0.0f) {
            if (-y >= x) sx = 1.0f; else sy = 1.0f;
        } else {
            if (y <= x) sx = 1.0f; else sy = -1.0f;
        }
    } else {
        if (x > 0.0f) {
            if (y >= x) sx = -1.0f; else sy = 1.0f;
        } else {
            if (y > -x) sx = -1.0f; else sy = -1.0f;
        }
    }
}

}  // namespace fj
