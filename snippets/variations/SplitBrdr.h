// @variation SplitBrdr
// @id 1135
// @origin Fractorium 1.0
// @param SplitBrdr_x 0.25
// @param SplitBrdr_y 0.25
// @param SplitBrdr_px 0
// @param SplitBrdr_py 0
// @random 1
// bubble (w·p/(r²/4 + 1)) plus a grid of shrunken cells: the point's
// offset from the nearest whole-number point (ties to even) is halved and
// put back at that grid point; three times in four (u < 3/4) the result is
// also pushed away from the cell's centre across the side the offset
// points to, by x or y along it and sideways in proportion to the offset's
// slope; all times the weight. Then px·x and py·y are added, unweighted.
// The pushes are not symmetric, as Fractorium writes them: x sets only the
// push across the right side and the sideways term across the bottom; y
// sets the other pushes and sideways terms. So do these.
FJ_VARIATION(SplitBrdr) {
    const float b = w / (in.r2 * 0.25f + 1.0f);
    const float rx = rintf(in.x), ry = rintf(in.y);
    const float dx = in.x - rx, dy = in.y - ry;
    float x = dx * 0.5f + rx, y = dy * 0.5f + ry;
    if (fj::rand01(rng) < 0.75f) {
        if (fabsf(dx) >= fabsf(dy)) {
            const float slope = dy / fj::zeps(dx);
            if (dx >= 0.0f) {
                x += p[0];
                y += p[1] * slope;
            } else {
                x -= p[1];
                y -= p[1] * slope;
            }
        } else {
            const float slope = dx / fj::zeps(dy);
            if (dy >= 0.0f) {
                y += p[1];
                x += slope * p[1];
            } else {
                y -= p[1];
                x -= slope * p[0];
            }
        }
    }
    ox += in.x * b + w * x + in.x * p[2];
    oy += in.y * b + w * y + in.y * p[3];
}
