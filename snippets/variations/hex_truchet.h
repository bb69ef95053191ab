// @variation hex_truchet
// @id 1217
// @origin Fractorium 1.0
// @param hex_truchet_size 1
// @param hex_truchet_side 1
// @param hex_truchet_seed 1
// @random 4
// A hexagonal Truchet tiling, whatever the input: a random hexagon of a
// (2·side + 1)² patch of the triangular lattice of spacing 2 (centre
// (X + Y/2, Y·√3/2), X and Y each 2·(⌊u·(2·side + 1)⌋ − side)), and in it a
// random point of one of three bands, each a third of an annulus centred on
// one of three alternate corners of the hexagon (inradius 1), area-uniform
// between radii 0.15 + (1 − size)·0.425 and 1 − (1 − size)·0.425. Where the
// cell's hash h(X, Y) is at least 1/2 the bands are turned by π/3 to the
// other three corners. Times the weight. size is held to [−1, 1], as
// Fractorium bounds it. h is the shader hash, the fraction of
// 43758.5453·sin(12.9898·X + 78.233·Y + seed) (fj::shader_hash). The corners
// and angles are Fractorium's four-digit roundings (2.0943 for 2π/3 and so
// on), kept so that the bands meet where Fractorium's do.

#include "shared/hashes.h"

FJ_VARIATION(hex_truchet) {
    const float size = fminf(fmaxf(p[0], -1.0f), 1.0f), side = p[1];
    const float shrink = 0.5f * (1.0f - size) * 0.85f;
    const float inner = (0.15f + shrink) * (0.15f + shrink), outer = (1.0f - shrink) * (1.0f - shrink);
    const float angle = fj::rand01(rng) * FJ_2PI;
    const float r = sqrtf(fj::rand01(rng) * (outer - inner) + inner);
    // The band's corner, relative to the hexagon's centre, before turning.
    float cx = 0.0f, cy = -1.1547f;
    if (angle < 2.0943f) {
        cx = 1.0f;
        cy = 0.5773f;
    } else if (angle < 4.1887f) {
        cx = -1.0f;
        cy = 0.5773f;
    }
    const float cells = 2.0f * side + 1.0f;
    const float X = 2.0f * (floorf(fj::rand01(rng) * cells) - side);
    const float Y = 2.0f * (floorf(fj::rand01(rng) * cells) - side);
    const float turn = fj::shader_hash(X, Y, p[2]) < 0.5f ? 0.0f : 1.0471f;
    const float c = fj::cosine(turn), s = fj::sine(turn);
    const float a = angle + 2.6179f - turn;
    ox += (fj::cosine(a) * r + cx * c + cy * s + X + 0.5f * Y) * w;
    oy += (fj::sine(a) * r - cx * s + cy * c + 0.866f * Y) * w;
}
