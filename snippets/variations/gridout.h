// @variation gridout
// @id 1106
// @origin Fractorium 1.0
// The integer lattice read as a square spiral out from the origin (0,0) →
// (1,0) → (1,1) → (0,1) → (−1,1) → (−1,0) → (−1,−1) → (0,−1) → (1,−1) →
// (2,−1) → ..., counterclockwise, each ring left at its bottom-right corner:
// every point moves by one unit, the step its nearest lattice point (halves
// rounded away from zero) takes along the spiral. roundf rounds as
// Fractorium's double build does; its float build's x + 0.5 can round
// 0.49999997 up.

#include "shared/grids.h"

FJ_VARIATION(gridout) {
    const float x = roundf(in.x), y = roundf(in.y);
    float sx, sy;
    fj::spiral_step(x, y, sx, sy);
    ox += w * (in.x + sx);
    oy += w * (in.y + sy);
}
