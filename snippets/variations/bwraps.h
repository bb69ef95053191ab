// @variation bwraps
// @id 1006
// @origin Fractorium 1.0
// @param bwraps_cellsize 1
// @param bwraps_space 0
// @param bwraps_gain 1
// @param bwraps_inner_twist 0
// @param bwraps_outer_twist 0
// Bubble wrap: a grid of cells `cellsize` wide, each holding a disc (smaller
// by 1 + space²) whose points are magnified by `gain` and twisted from
// inner_twist at the centre to outer_twist at the rim. Points between the
// discs, or all of them at cellsize 0, are only weighted. The values
// Fractorium precomputes per flame are computed here per call.
FJ_VARIATION(bwraps) {
    const float cellsize = p[0], space = p[1], gain = p[2], inner = p[3], outer = p[4];
    float vx = in.x, vy = in.y;
    if (cellsize != 0.0f) {
        const float radius = 0.5f * (cellsize / (1.0f + space * space));
        const float g2 = gain * gain + 1.0e-6f;
        float bubble = g2 * radius;
        bubble = bubble > 2.0f ? 1.0f : bubble / (bubble * bubble / 4.0f + 1.0f);
        const float r2 = radius * radius != 0.0f ? radius * radius : FJ_EPS;
        const float cx = (floorf(vx / cellsize) + 0.5f) * cellsize;
        const float cy = (floorf(vy / cellsize) + 0.5f) * cellsize;
        float lx = vx - cx, ly = vy - cy;
        if (lx * lx + ly * ly <= r2) {
            lx *= g2;
            ly *= g2;
            const float k = (radius / bubble) / ((lx * lx + ly * ly) / 4.0f + 1.0f);
            lx *= k;
            ly *= k;
            const float r = (lx * lx + ly * ly) / r2;
            const float theta = inner * (1.0f - r) + outer * r;
            const float s = fj::sine(theta), c = fj::cosine(theta);
            vx = cx + c * lx + s * ly;
            vy = cy - s * lx + c * ly;
        }
    }
    ox += w * vx;
    oy += w * vy;
}
