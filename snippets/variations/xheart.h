// @variation xheart
// @id 1024
// @origin Fractorium 1.0
// @param xheart_angle 0
// @param xheart_ratio 0
// A heart: the point scaled by 4/(r² + 4) along x and (6 + 2·ratio)/(r² + 4)
// along y, turned by π/4·(1 + angle/2), and mirrored top to bottom where it
// lands at x ≤ 0.
FJ_VARIATION(xheart) {
    const float turn = FJ_PI / 4.0f + 0.5f * (FJ_PI / 4.0f) * p[0];
    const float s = fj::sine(turn), c = fj::cosine(turn);
    float d = in.r2 + 4.0f;
    if (d == 0.0f) d = 1.0f;
    const float bx = 4.0f / d * in.x, by = (6.0f + 2.0f * p[1]) / d * in.y;
    const float x = c * bx - s * by, y = s * bx + c * by;
    ox += w * x;
    oy += x > 0.0f ? w * y : -(w * y);
}
