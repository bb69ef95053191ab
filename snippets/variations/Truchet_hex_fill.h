// @variation Truchet_hex_fill
// @id 1223
// @origin Fractorium 1.0
// @param Truchet_hex_fill_n 3
// @param Truchet_hex_fill_flipx 1
// @param Truchet_hex_fill_flipy 1
// @param Truchet_hex_fill_spreadx 1
// @param Truchet_hex_fill_spready 1
// @param Truchet_hex_fill_seed 0
// @random 6
// A hexagonal Truchet fill: the input, scaled by 1/(3n), is wrapped round
// the unit circle as a ring of 3n copies (radius 1 + π·x/(3n), angle
// π·y/(3n) plus a random multiple of 2π/(3n)), each third of that ring is
// shifted by 2 against the direction of its middle, and the result, halved
// and turned by ±30°, is a band about the arc of radius 1/2 round one of
// three alternate corners of a hexagon of circumradius 1. That hexagon is a
// random one of the lattice with centres (√3·X + (√3/2)·(±Z), 1.5·Z). X and
// Z are ⌊ln(u)·(±spreadx)⌋ and ⌊ln(u)·(±spready)⌋ for uniform u and a random
// sign each (two-sided, geometrically thinning), and the sign of Z in the
// first coordinate is drawn once more. Times the weight. A cell is turned
// by −30° instead of +30° (and, where flipx or flipy is set, its input
// mirrored in that coordinate) when seed is 1 and X and Z are both even,
// or when seed is at least 2 and the shader hash (fj::shader_hash) of the
// cell's centre is below 1/2. n, flipx, flipy and seed are whole numbers
// (flipx and flipy held to 0 and 1); n = 0 divides through float epsilon,
// as Fractorium. Each u is drawn from (0, 1], so that its logarithm stays
// finite (Fractorium's can be 0, whose logarithm sends the point to
// infinity).

#include "shared/hashes.h"

FJ_VARIATION(Truchet_hex_fill) {
    const float n = floorf(p[0] + 0.5f);
    const bool flipx = fminf(fmaxf(floorf(p[1] + 0.5f), 0.0f), 1.0f) != 0.0f;
    const bool flipy = fminf(fmaxf(floorf(p[2] + 0.5f), 0.0f), 1.0f) != 0.0f;
    const float seed = floorf(p[5] + 0.5f);
    const float lx = logf(1.0f - fj::rand01(rng));
    const float X = floorf(lx * (fj::rand01(rng) < 0.5f ? p[3] : -p[3]));
    const float lz = logf(1.0f - fj::rand01(rng));
    const float Z = floorf(lz * (fj::rand01(rng) < 0.5f ? p[4] : -p[4]));
    const float zs = fj::rand01(rng) < 0.5f ? Z : -Z;
    // The centre is formed step by step: the shader hash magnifies its last bits.
    const float hx = fj::add_rn(fj::mul_rn(1.7320508f, X), fj::mul_rn(0.8660254f, zs));
    const float hy = 1.5f * Z;
    bool add = true;
    if (seed == 1.0f) {
        add = ((fj::int_like_x86(X) | fj::int_like_x86(Z)) & 1) != 0;
    } else if (seed >= 2.0f) {
        add = !(fj::shader_hash(hx, hy, seed) < 0.5f);
    }
    const float n3 = 3.0f * n, inv = 1.0f / fj::zeps(n3);
    const float turn = floorf(fj::rand01(rng) * n3) * FJ_2PI * inv;
    const float fy = (flipy && !add ? -in.y : in.y) * inv;
    const float fx = (flipx && !add ? -in.x : in.x) * inv;
    const float ang = fy * FJ_PI + turn, rad = 1.0f + fx * FJ_PI;
    const float cx = rad * fj::cosine(ang), cy = rad * fj::sine(ang);
    float a = fj::arctan2(cy, cx);
    if (a < 0.0f) a += FJ_2PI;
    const float third = floorf(1.5f * a / FJ_PI);
    const float corner = (FJ_PI + third * FJ_2PI) / 3.0f;
    const float dx = cx - 2.0f * fj::cosine(corner), dy = cy - 2.0f * fj::sine(corner);
    const float s = add ? 0.5f : -0.5f;
    const float tx = 0.8660254f * dx - s * dy, ty = s * dx + 0.8660254f * dy;
    ox += w * (0.5f * tx + hx);
    oy += w * (0.5f * ty + hy);
}
