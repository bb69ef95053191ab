// @variation crackle2
// @id 1169
// @origin Fractorium 1.0
// @param crackle2_cellsize 1
// @random 3
// Cracks between the sites of a square grid: each unit cell of the input's
// grid holds one site at a hashed offset (up to 1/cellsize along each axis),
// and the point lands anywhere on the segment from its cell's site to the
// site of a random one of the four neighbouring cells, all scaled by
// cellsize. The weight is not applied, as in Fractorium. cellsize is kept
// at least 0.0001, as Fractorium bounds it. The hash is the shader one
// (fj::shader_hash), so which site falls where is no renderer's constant.

#include "shared/hashes.h"

FJ_VARIATION(crackle2) {
    (void)w;
    const float size = fmaxf(p[0], 0.0001f), inv = 1.0f / size;
    const float cx = floorf(in.x), cy = floorf(in.y);
    const float x0 = cx + inv * fj::shader_hash(cx, cy, 34554.0f);
    const float y0 = cy + inv * fj::shader_hash(cy, 3.0f * cx, 34561.0f);
    float nx = cx, ny = cy;
    if (fj::rand01(rng) < 0.5f)
        ny += fj::rand01(rng) < 0.5f ? 1.0f : -1.0f;
    else
        nx += fj::rand01(rng) < 0.5f ? 1.0f : -1.0f;
    const float x1 = nx + inv * fj::shader_hash(nx, ny, 34554.0f);
    const float y1 = ny + inv * fj::shader_hash(ny, 3.0f * nx, 34561.0f);
    const float t = fj::rand01(rng);
    ox += (x0 + (x1 - x0) * t) * size;
    oy += (y0 + (y1 - y0) * t) * size;
}
