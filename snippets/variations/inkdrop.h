// @variation inkdrop
// @id 1184
// @origin Fractorium 1.0
// @param inkdrop_r 0.5
// @param inkdrop_x 0
// @param inkdrop_y 0
// A drop of ink of radius r at (x, y) spreading over the plane: each point
// is pushed straight away from the drop's centre until its distance d
// becomes √(d² + r²), which keeps areas (the drop's disc is what the
// centre becomes) and moves far points little. Times the weight. The push
// √(d² + r²) − d is formed as r²/(√(d² + r²) + d), which does not cancel
// far away. The centre itself is pushed along +x (atan2's angle 0). r is
// kept at least 0, as Fractorium bounds it.
FJ_VARIATION(inkdrop) {
    const float r = fmaxf(p[0], 0.0f), r2 = r * r;
    const float dx = in.x - p[1], dy = in.y - p[2];
    const float d2 = dx * dx + dy * dy;
    const float den = sqrtf(d2 + r2) + sqrtf(d2);
    const float push = den > 0.0f ? r2 / den : 0.0f;
    const float b = fj::arctan2(dy, dx);
    ox += w * (in.x + fj::cosine(b) * push);
    oy += w * (in.y + fj::sine(b) * push);
}
