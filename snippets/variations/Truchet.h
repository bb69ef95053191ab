// @variation Truchet
// @id 1219
// @origin Fractorium 1.0
// @param Truchet_extended 1
// @param Truchet_exponent 2
// @param Truchet_arc_width 0.5
// @param Truchet_rotation 0
// @param Truchet_size 1
// @param Truchet_seed 50
// Truchet tiles of quarter arcs: the plane is scaled by (cos rot + sin rot)/w
// and cut into unit tiles, each holding two bands of radius 1/2 about
// opposite corners, drawn in the L^exponent norm (fj::truchet_arc_distance).
// A point on a band goes to size·(its place in its tile + ⌊input⌋), twice
// where the bands cross; a point on neither adds 0. Which pair of corners
// a tile uses comes from |seed|: 0 and 1 fix it, any other value hashes
// the rounded input point (fj::truchet_tile of (s₂²·X·Y + s₂·(X + Y) +
// |seed|)·s₂/2, s₂ = √(1.5·|seed|)/(0.5·|seed|)/4). The weight enters only
// through the scale, as in Fractorium. As in Fractorium: exponent is held
// to [float epsilon, 2] and size to at least float epsilon; the band's
// width is the exponent held to 1 (its arc_width is read but, by a slip in
// Fractorium's setup, never used); and outside its flam3 compatibility mode
// `extended` changes nothing (it is read and kept). A weight of 0 is
// divided through float epsilon. Rounding is to the nearest whole number,
// as Fractorium's Round does within int's range.

#include "shared/truchet.h"

FJ_VARIATION(Truchet) {
    const float n = fminf(fmaxf(p[1], FJ_FLT_EPSILON), 2.0f);
    const float width = fminf(n, 1.0f);
    const float size = fmaxf(p[4], FJ_FLT_EPSILON);
    const float seed = fabsf(p[5]);
    const float scale = (fj::cosine(p[3]) + fj::sine(p[3])) / fj::zeps(w);
    const float sx = in.x * scale, sy = in.y * scale;
    const float fx = sx - roundf(sx), fy = sy - roundf(sy);
    const float x = fx < 0.0f ? 1.0f + fx : fx, y = fy < 0.0f ? 1.0f + fy : fy;
    float type = seed == 1.0f ? 1.0f : 0.0f;
    if (seed != 0.0f && seed != 1.0f) {
        const float s2 = sqrtf(1.5f * seed) / (0.5f * seed) * 0.25f;
        const float hx = fj::mul_rn(roundf(in.x), s2), hy = fj::mul_rn(roundf(in.y), s2);
        const float iter = fj::add_rn(fj::add_rn(hx, hy), fj::mul_rn(hx, hy));
        type = fj::truchet_tile(fj::mul_rn(fj::mul_rn(fj::add_rn(iter, seed), s2), 0.5f));
    }
    const bool second = !(type < 1.0f);
    const float near0 = fj::truchet_arc_distance(second ? x - 1.0f : x, y, n, width);
    const float near1 = fj::truchet_arc_distance(second ? x : x - 1.0f, y - 1.0f, n, width);
    const float hits = (near0 < 1.0f ? 1.0f : 0.0f) + (near1 < 1.0f ? 1.0f : 0.0f);
    ox += hits * size * (x + floorf(in.x));
    oy += hits * size * (y + floorf(in.y));
}
