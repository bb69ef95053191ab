// @variation boarders2
// @id 1062
// @origin Fractorium 1.0
// @param boarders2_c 0.5
// @param boarders2_left 0.5
// @param boarders2_right 0.5
// @random 1
// Tiles of the unit grid: each point keeps its offset from the nearest grid
// node (halves rounded away from zero) scaled by |c|; with probability
// |c|·(1 + |right|) it is pushed out instead, by |c|·|left| along the
// offset's larger coordinate, the smaller one following in proportion, so
// the tiles grow borders. Parameters of 0 count as float's epsilon, as in
// Fractorium.
FJ_HD FJ_INLINE float fj_boarders2_round(float v) {
    return (float)fj::int_like_x86(v >= 0.0f ? v + 0.5f : v - 0.5f);
}

FJ_VARIATION(boarders2) {
    const float c = fj::zeps(fabsf(p[0]));
    const float left = c * fj::zeps(fabsf(p[1]));
    const float right = c + c * fj::zeps(fabsf(p[2]));
    const float nx = fj_boarders2_round(in.x), ny = fj_boarders2_round(in.y);
    const float dx = in.x - nx, dy = in.y - ny;
    float x = dx * c + nx, y = dy * c + ny;
    if (fj::rand01(rng) < right) {
        if (fabsf(dx) >= fabsf(dy)) {
            const float push = dx >= 0.0f ? left : -left;
            x += push;
            y += push * dy / dx;
        } else {
            const float push = dy >= 0.0f ? left : -left;
            y += push;
            x += push * dx / dy;
        }
    }
    ox += w * x;
    oy += w * y;
}
