// @variation hexes
// @id 1011
// @origin Fractorium 1.0
// @param hexes_cellsize 1
// @param hexes_power 1
// @param hexes_rotate 0.166
// @param hexes_scale 1
// A honeycomb: the plane cut into hexagonal cells `cellsize` across; inside
// its cell each point is turned about the cell's centre by rotate turns and
// pushed towards or away from the centre as a power of its Voronoi distance
// (0 at the centre, 1 on the cell's edge), blended between the distance
// before and after the turn so cells show no rosettes. A cell size of 0
// gives nothing. Fractorium precomputes the turn's sine and cosine per
// flame; they are computed here per call.

// How far u lies from centre (qx, qy) towards the edge shared with the cell
// centred at (px, py): 1 on that edge.
FJ_HD FJ_INLINE float fj_hexes_edge_ratio(float px, float py, float qx, float qy, float ux, float uy) {
    const float dx = px - qx, dy = py - qy;
    if (dx == 0.0f && dy == 0.0f) return 1.0f;
    const float d2 = dx * dx + dy * dy;
    return 2.0f * ((ux - qx) * dx + (uy - qy) * dy) / fj::zeps(d2);
}

// The Voronoi distance of u in the cell centred at (cx[0], cy[0]) among its
// six neighbours: the largest edge ratio.
FJ_HD FJ_INLINE float fj_hexes_voronoi(const float* cx, const float* cy, float ux, float uy) {
    float most = -FJ_FLT_MAX;
    for (int i = 1; i < 7; ++i) most = fmaxf(most, fj_hexes_edge_ratio(cx[i], cy[i], cx[0], cy[0], ux, uy));
    return most;
}

FJ_VARIATION(hexes) {
    const float size = p[0], power = p[1], scale = p[3];
    if (size == 0.0f) return;
    // Hexagonal lattice coordinates: (i, j) → ((3/2)(i − j), (√3/2)(i + j))·size.
    const float third = 1.0f / 3.0f, root3_3 = 0.57735026918962576f, root3_2 = 0.86602540378443865f;
    float hi = floorf((third * in.x + root3_3 * in.y) / size);
    float hj = floorf((-third * in.x + root3_3 * in.y) / size);
    // The nearest of the four lattice points around (hi, hj).
    int best = 0;
    float best_d2 = FJ_FLT_MAX;
    for (int k = 0; k < 4; ++k) {
        const float i = hi + (float)(k >> 1), j = hj + (float)(k & 1);
        const float dx = 1.5f * (i - j) * size - in.x, dy = root3_2 * (i + j) * size - in.y;
        const float d2 = dx * dx + dy * dy;
        if (d2 < best_d2) {
            best_d2 = d2;
            best = k;
        }
    }
    hi += (float)(best >> 1);
    hj += (float)(best & 1);
    // That cell's centre, then its six neighbours around it.
    float cx[7], cy[7];
    cx[0] = 1.5f * (hi - hj) * size;
    cy[0] = root3_2 * (hi + hj) * size;
    const float nx[6] = {-1.5f, 0.0f, 1.5f, 1.5f, 0.0f, -1.5f};
    const float ny[6] = {root3_2, 2.0f * root3_2, root3_2, -root3_2, -2.0f * root3_2, -root3_2};
    for (int k = 0; k < 6; ++k) {
        cx[k + 1] = cx[0] + nx[k] * size;
        cy[k + 1] = cy[0] + ny[k] * size;
    }
    const float l1 = fj_hexes_voronoi(cx, cy, in.x, in.y);
    const float target = fj::power(fabsf(l1), power) * scale;
    const float turn = FJ_2PI * p[2], s = fj::sine(turn), c = fj::cosine(turn);
    const float dx = in.x - cx[0], dy = in.y - cy[0];
    float vx = dx * c + dy * s, vy = -dx * s + dy * c;
    const float l2 = fj_hexes_voronoi(cx, cy, vx + cx[0], vy + cy[0]);
    // Inside half the cell the stretch follows the distance before the turn,
    // beyond 0.8 the distance after it, blended linearly between.
    const float l = fmaxf(l1, l2);
    float k;
    if (l < 0.5f)
        k = target / l1;
    else if (l > 0.8f)
        k = target / l2;
    else
        k = ((target / l1) * (0.8f - l) + (target / l2) * (l - 0.5f)) / 0.3f;
    ox += w * (vx * k + cx[0]);
    oy += w * (vy * k + cy[0]);
}
