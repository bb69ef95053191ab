// @variation crackle
// @id 1168
// @origin Fractorium 1.0
// @param crackle_cellsize 1
// @param crackle_power 0.2
// @param crackle_distort 0
// @param crackle_scale 1
// @param crackle_z 0
// @random 4
// A cracked glaze: a random point of a soft disc (radius about 1, its edge
// blurred) is drawn, the Voronoi cell of a jittered square grid (spacing
// cellsize/2, each site moved by distort·noise) that holds it is found, and
// the point is pushed from the cell's site towards or away from its walls:
// l, the point's place between site (0) and nearest wall (1), becomes
// |l|^power·scale. The input point is not used. cellsize is kept at least
// 0.0001, as Fractorium bounds it.
// The sites' jitter is 3D simplex noise at (2.5·column, 2.5·row, 2.5·z) and
// at a far-off crossed point for the other coordinate, as Fractorium places
// it, but from fj::simplex_noise, not Fractorium's noise tables: with
// distort 0 the pictures are Fractorium's, otherwise the same kind of
// crackle with other cells.

#include "shared/noise.h"

// The site of grid cell (col, row): spacing s, jittered by d·noise. Formed
// step by step, never fused: the nearest site and the walls follow the
// sites' last bits where the cells are small (col in the thousands) or the
// point is near a wall, and the host and the device should round them alike.
FJ_HD FJ_INLINE void fj_crackle_site(int col, int row, float z, float s, float d, float& sx, float& sy) {
    const float c = 2.5f * (float)col, r = 2.5f * (float)row, zz = 2.5f * z;
    sx = fj::mul_rn(fj::add_rn((float)col, fj::mul_rn(d, fj::simplex_noise(c, r, zz))), s);
    sy = fj::mul_rn(fj::add_rn((float)row, fj::mul_rn(d, fj::simplex_noise(r + 30.2f, c - 12.1f, zz + 19.8f))), s);
}

FJ_VARIATION(crackle) {
    const float s = 0.5f * fmaxf(p[0], 0.0001f), power = p[1], d = p[2], scale = p[3], z = p[4];
    const float blur = 0.5f * (fj::rand01(rng) + fj::rand01(rng)) + 0.25f * (fj::rand01(rng) - 0.5f);
    const float a = FJ_2PI * fj::rand01(rng);
    const float ux = blur * fj::sine(a), uy = blur * fj::cosine(a);
    int col = (int)floorf(ux / s), row = (int)floorf(uy / s);
    // The sites of the 3×3 cells around the point's; the nearest of them
    // is taken as the point's own site and, when it is not the middle one,
    // the 3×3 around it is looked at again (its sites shared with the first
    // look are kept, not recomputed).
    float sx[9], sy[9];
    for (int k = 0; k < 9; ++k) fj_crackle_site(col + k / 3 - 1, row + k % 3 - 1, z, s, d, sx[k], sy[k]);
    int near = 0;
    float best = FJ_FLT_MAX;
    for (int k = 0; k < 9; ++k) {
        const float dx = sx[k] - ux, dy = sy[k] - uy, d2 = dx * dx + dy * dy;
        if (d2 < best) {
            best = d2;
            near = k;
        }
    }
    const int dc = near / 3 - 1, dr = near % 3 - 1;
    if (dc != 0 || dr != 0) {
        float nx[9], ny[9];
        for (int k = 0; k < 9; ++k) {
            const int oc = k / 3 + dc, orow = k % 3 + dr;  // in the first look's 3×3, if within 0..2
            if (oc >= 0 && oc <= 2 && orow >= 0 && orow <= 2) {
                nx[k] = sx[oc * 3 + orow];
                ny[k] = sy[oc * 3 + orow];
            } else {
                fj_crackle_site(col + dc + k / 3 - 1, row + dr + k % 3 - 1, z, s, d, nx[k], ny[k]);
            }
        }
        for (int k = 0; k < 9; ++k) {
            sx[k] = nx[k];
            sy[k] = ny[k];
        }
    }
    // l: the largest over the neighbours of where the point lies between
    // the site (0) and the wall it shares with that neighbour (1).
    const float cx = sx[4], cy = sy[4];
    float l = -FJ_FLT_MAX;
    for (int k = 0; k < 9; ++k) {
        if (k == 4) continue;
        const float ex = sx[k] - cx, ey = sy[k] - cy;
        const float ratio = ex == 0.0f && ey == 0.0f
                                ? 1.0f
                                : 2.0f * ((ux - cx) * ex + (uy - cy) * ey) / fj::zeps(ex * ex + ey * ey);
        l = fmaxf(l, ratio);
    }
    l = fj::zeps(l);
    const float f = fj::power(fabsf(l), power) * scale / l;
    ox += w * (cx + f * (ux - cx));
    oy += w * (cy + f * (uy - cy));
}
