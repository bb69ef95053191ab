// @variation crop
// @id 1132
// @origin Fractorium 1.0
// @param crop_left -1
// @param crop_top -1
// @param crop_right 1
// @param crop_bottom 1
// @param crop_scatter_area 0
// @param crop_zero 0
// @random 2
// Keeps the rectangle between left and right in x and top and bottom in y
// (either order), times the weight. With zero (rounded, clamped to [0, 1])
// 1, a point outside goes to 0. Otherwise each coordinate beyond an edge is
// redrawn inside it, uniformly within scatter_area times half the
// rectangle's extent on that axis from the edge (on the edge itself when
// scatter_area is 0; a negative one scatters outwards): one draw per
// coordinate that was out.
FJ_VARIATION(crop) {
    const float x0 = fminf(p[0], p[2]), x1 = fmaxf(p[0], p[2]);
    const float y0 = fminf(p[1], p[3]), y1 = fmaxf(p[1], p[3]);
    float x = in.x, y = in.y;
    const bool out = x < x0 || x > x1 || y < y0 || y > y1;
    if (out && fminf(fmaxf(floorf(p[5] + 0.5f), 0.0f), 1.0f) != 0.0f) {
        x = 0.0f;
        y = 0.0f;
    } else {
        const float sw = (x1 - x0) * 0.5f * p[4], sh = (y1 - y0) * 0.5f * p[4];
        if (x < x0) x = x0 + fj::rand01(rng) * sw;
        else if (x > x1) x = x1 - fj::rand01(rng) * sw;
        if (y < y0) y = y0 + fj::rand01(rng) * sh;
        else if (y > y1) y = y1 - fj::rand01(rng) * sh;
    }
    ox += w * x;
    oy += w * y;
}
