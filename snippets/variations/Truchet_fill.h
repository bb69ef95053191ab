// @variation Truchet_fill
// @id 1220
// @origin Fractorium 1.0
// @param Truchet_fill_exponent 2
// @param Truchet_fill_arc_width 0.5
// @param Truchet_fill_seed 0
// Truchet bands as a fill: the plane is scaled by 1/w and cut into unit
// tiles, each holding two bands of radius 1/2 and half-width
// (2^(1/exponent) − 1)·arc_width/2 about opposite corners, drawn in the
// L^exponent norm (fj::truchet_arc_distance). The result is 2·(the point's
// place in its tile + ⌊input⌋) once for each band the point lies on, minus
// the input point: at weight 1, the input times −1, 1 or 3. Which pair of
// corners a tile uses: seed 0 and 1 fix it; a larger seed hashes the
// rounded |input| (fj::truchet_tile of (s₂²·X·Y + s₂·(X + Y) + seed)·s₂/2,
// s₂ = √(1.5·seed)/(0.5·seed)/4); a negative seed, whose square root is NaN
// in Fractorium and so always picks the second pair, picks the second
// pair. exponent wraps into [0.001, 2] and arc_width into [0.001, 1], as
// Fractorium stores them. The weight enters only through the scale; a
// weight of 0 is divided through float epsilon.

#include "shared/truchet.h"

FJ_VARIATION(Truchet_fill) {
    const float n = fj::wrap_cyclic(p[0], 0.001f, 2.0f);
    const float width = fj::wrap_cyclic(p[1], 0.001f, 1.0f);
    const float seed = p[2];
    const float scale = 1.0f / fj::zeps(w);
    const float sx = in.x * scale, sy = in.y * scale;
    const float fx = sx - roundf(sx), fy = sy - roundf(sy);
    const float x = fx < 0.0f ? 1.0f + fx : fx, y = fy < 0.0f ? 1.0f + fy : fy;
    float type = seed == 0.0f ? 0.0f : 1.0f;
    if (seed > 0.0f && seed != 1.0f) {
        const float s2 = sqrtf(1.5f * seed) / (0.5f * seed) * 0.25f;
        const float hx = fj::mul_rn(roundf(fabsf(in.x)), s2), hy = fj::mul_rn(roundf(fabsf(in.y)), s2);
        const float iter = fj::add_rn(fj::add_rn(hx, hy), fj::mul_rn(hx, hy));
        type = fj::truchet_tile(fj::mul_rn(fj::mul_rn(fj::add_rn(seed, iter), s2), 0.5f));
    }
    const bool second = !(type < 1.0f);
    const float near0 = fj::truchet_arc_distance(second ? x - 1.0f : x, y, n, width);
    const float near1 = fj::truchet_arc_distance(second ? x : x - 1.0f, y - 1.0f, n, width);
    const float hits = (near0 < 1.0f ? 2.0f : 0.0f) + (near1 < 1.0f ? 2.0f : 0.0f);
    ox += hits * (x + floorf(in.x)) - in.x;
    oy += hits * (y + floorf(in.y)) - in.y;
}
