// @variation Truchet_inv
// @id 1221
// @origin Fractorium 1.0
// @param Truchet_inv_exponent 2
// @param Truchet_inv_arc_width 0.5
// @param Truchet_inv_rotation 0
// @param Truchet_inv_size 1
// @param Truchet_inv_seed 1
// The complement of Truchet's bands: the plane is scaled by (cos rot +
// sin rot)/w and cut into unit tiles, each holding two bands of radius 1/2
// and half-width (2^(1/exponent) − 1)·arc_width/2 about opposite corners,
// drawn in the L^exponent norm (fj::truchet_arc_distance). A point off both
// bands goes to size·(its place in its tile + ⌊input⌋); a point on either
// adds 0. Which pair of corners a tile uses: seed 0 and 1 fix it; another
// positive seed hashes the input point rounded (half up) as Truchet does
// (fj::truchet_tile); a negative seed, whose square root is NaN in
// Fractorium and so always picks the second pair, picks the second pair.
// exponent and arc_width are held to [0.001, 2] and [0.001, 1], size to at
// least 0, as in Fractorium. The weight enters only through the scale; a
// weight of 0 is divided through float epsilon.

#include "shared/truchet.h"

FJ_VARIATION(Truchet_inv) {
    const float n = fminf(fmaxf(p[0], 0.001f), 2.0f);
    const float width = fminf(fmaxf(p[1], 0.001f), 1.0f);
    const float size = fmaxf(p[3], 0.0f);
    const float seed = p[4];
    const float scale = (fj::cosine(p[2]) + fj::sine(p[2])) / fj::zeps(w);
    const float sx = in.x * scale, sy = in.y * scale;
    const float fx = sx - floorf(sx + 0.5f), fy = sy - floorf(sy + 0.5f);
    const float x = fx < 0.0f ? 1.0f + fx : fx, y = fy < 0.0f ? 1.0f + fy : fy;
    float type = seed == 0.0f ? 0.0f : 1.0f;
    if (seed > 0.0f && seed != 1.0f) {
        const float s2 = sqrtf(1.5f * seed) / (0.5f * seed) * 0.25f;
        const float hx = fj::mul_rn(floorf(in.x + 0.5f), s2), hy = fj::mul_rn(floorf(in.y + 0.5f), s2);
        const float iter = fj::add_rn(fj::add_rn(hx, hy), fj::mul_rn(hx, hy));
        type = fj::truchet_tile(fj::mul_rn(fj::add_rn(iter, seed), s2 * 0.5f));
    }
    const bool second = !(type < 1.0f);
    const float near0 = fj::truchet_arc_distance(second ? x - 1.0f : x, y, n, width);
    const float near1 = fj::truchet_arc_distance(second ? x : x - 1.0f, y - 1.0f, n, width);
    if (near0 > 1.0f && near1 > 1.0f) {
        ox += size * (x + floorf(in.x));
        oy += size * (y + floorf(in.y));
    }
}
