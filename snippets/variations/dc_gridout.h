// @variation dc_gridout
// @id 1012
// @origin Fractorium 1.0
// @color
// Direct colour on a grid: rounds the point to the nearest lattice point
// (halves away from zero) and, by the eighth of the plane around the origin
// that lattice point lies in, steps the point by one unit along x or y. A
// step along x adds 0.25 to the colour index, one along y 0.75, wrapped into
// [0, 1).

#include "shared/grids.h"

FJ_VARIATION(dc_gridout) {
    const float x = in.x >= 0.0f ? truncf(in.x + 0.5f) : truncf(in.x - 0.5f);
    const float y = in.y >= 0.0f ? truncf(in.y + 0.5f) : truncf(in.y - 0.5f);
    float sx, sy;
    fj::spiral_step(x, y, sx, sy);
    ox += w * (in.x + sx);
    oy += w * (in.y + sy);
    color = fj::modulo(color + (sx != 0.0f ? 0.25f : 0.75f), 1.0f);
}
