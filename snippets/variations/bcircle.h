// @variation bcircle
// @id 1061
// @origin Fractorium 1.0
// @param bcircle_scale 1
// @param bcircle_borderwidth 0
// @random 1
// A disc: the point, scaled by `scale`, is kept where it falls in the unit
// disc; one outside is dropped onto a ring of random radius between 1 and
// 1 + |borderwidth|/5 along its own ray, or onto the origin when the border
// has no width.
FJ_VARIATION(bcircle) {
    const float x = in.x * p[0], y = in.y * p[0];
    if (sqrtf(x * x + y * y) <= 1.0f) {
        ox += w * x;
        oy += w * y;
        return;
    }
    const float border = fabsf(p[1]);
    if (border == 0.0f) return;
    const float a = fj::arctan2(y, x);
    const float radius = w * (0.2f * border * fj::rand01(rng) + 1.0f);
    ox += radius * fj::cosine(a);
    oy += radius * fj::sine(a);
}
