// @variation Truchet_glyph
// @id 1222
// @origin Fractorium 1.0
// @param Truchet_glyph_exponent 2
// @param Truchet_glyph_arc_width 0.5
// @param Truchet_glyph_amp 6
// @param Truchet_glyph_max 0.9
// @param Truchet_glyph_angle 45
// @param Truchet_glyph_seed 1
// Truchet_fill seen through diamonds: the plane is cut into squares `amp`
// across, and inside the square of half-diagonal amp·max/2 about each one's
// centre, turned by `angle` degrees (a diamond at 45), the point is treated
// as Truchet_fill treats it (tiles of the plane scaled by 1/w, two bands of
// radius 1/2 and half-width (2^(1/exponent) − 1)·arc_width/2 about opposite
// corners, fj::truchet_arc_distance; 2·(place in tile + ⌊input⌋) per band
// it lies on, minus the input). Outside the diamonds the input is returned
// unweighted, as in Fractorium. Which corners a tile uses: seed 0 and 1 fix
// it; any other seed takes fj::truchet_tile of the shader hash, the
// fraction of 43758.5453·sin(12.9898·X + 78.233·Y + seed) (fj::shader_hash),
// of the input rounded (half up) in absolute value. As in Fractorium:
// exponent and arc_width are held to [0.001, 2] and [0.001, 1], amp to at
// least float epsilon, max to at least 0. The weight enters only through
// the scale; a weight of 0 is divided through float epsilon.

#include "shared/hashes.h"
#include "shared/truchet.h"

FJ_VARIATION(Truchet_glyph) {
    const float n = fminf(fmaxf(p[0], 0.001f), 2.0f);
    const float width = fminf(fmaxf(p[1], 0.001f), 1.0f);
    const float amp = fmaxf(p[2], FJ_FLT_EPSILON);
    const float reach = amp * 0.5f * fmaxf(p[3], 0.0f);
    const float turn = p[4] * (FJ_PI / 180.0f);
    const float seed = p[5];
    // The point relative to its square's centre, turned by −angle.
    const float vx = in.x - (floorf(in.x / amp) + 0.5f) * amp, vy = in.y - (floorf(in.y / amp) + 0.5f) * amp;
    const float c = fj::cosine(turn), s = fj::sine(turn);
    if (!(fabsf(c * vx + s * vy) + fabsf(c * vy - s * vx) < reach)) {
        ox += in.x;
        oy += in.y;
        return;
    }
    const float scale = 1.0f / fj::zeps(w);
    const float sx = in.x * scale, sy = in.y * scale;
    const float fx = sx - floorf(sx + 0.5f), fy = sy - floorf(sy + 0.5f);
    const float x = fx < 0.0f ? 1.0f + fx : fx, y = fy < 0.0f ? 1.0f + fy : fy;
    float type = seed == 1.0f ? 1.0f : 0.0f;
    if (seed != 0.0f && seed != 1.0f) {
        const float hx = floorf(fabsf(in.x) + 0.5f), hy = floorf(fabsf(in.y) + 0.5f);
        type = fj::truchet_tile(fj::shader_hash(hx, hy, seed));
    }
    const bool second = !(type < 1.0f);
    const float near0 = fj::truchet_arc_distance(second ? x - 1.0f : x, y, n, width);
    const float near1 = fj::truchet_arc_distance(second ? x : x - 1.0f, y - 1.0f, n, width);
    const float hits = (near0 < 1.0f ? 2.0f : 0.0f) + (near1 < 1.0f ? 2.0f : 0.0f);
    ox += hits * (x + floorf(in.x)) - in.x;
    oy += hits * (y + floorf(in.y)) - in.y;
}
