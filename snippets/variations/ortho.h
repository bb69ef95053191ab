// @variation ortho
// @id 1071
// @origin Fractorium 1.0
// @param ortho_in 0
// @param ortho_out 0
// Slides points along circles orthogonal to the unit circle. A point inside
// the unit disc lies on one such circle centred on the x axis; its angle on
// that circle (seen from the centre, within the arc ±θ that lies in the
// disc) is turned by in·θ and wrapped back into the arc. A point outside is
// inverted into the disc, slid by out·θ the same way and inverted back. The
// left half plane is the mirror image of the right. With both turns 0 the
// variation is linear. in and out are wrapped into [-π, π].
FJ_HD FJ_INLINE void fj_ortho_slide(float x, float y, float turn, float& sx, float& sy) {
    // x ≥ 0 here. The circle through (x, y) orthogonal to the unit circle,
    // centred at (xo, 0), has radius ro; θ is its arc's half angle.
    const float xo = (x * x + y * y + 1.0f) / fj::zeps(2.0f * x);
    const float ro = sqrtf((x - xo) * (x - xo) + y * y);
    const float half = fj::arctan2(1.0f, ro);
    const float a = fmodf(turn * half + fj::arctan2(y, xo - x) + half, 2.0f * half) - half;
    sx = xo - cosf(a) * ro;
    sy = sinf(a) * ro;
}

FJ_VARIATION(ortho) {
    const float side = in.x < 0.0f ? -1.0f : 1.0f;
    float sx, sy;
    if (in.r2 < 1.0f) {
        fj_ortho_slide(fabsf(in.x), in.y, fj::wrap_cyclic(p[0], -FJ_PI, FJ_PI), sx, sy);
        ox += w * side * sx;
        oy += w * sy;
    } else {
        const float inv = 1.0f / in.r2;
        fj_ortho_slide(fabsf(in.x) * inv, in.y * inv, fj::wrap_cyclic(p[1], -FJ_PI, FJ_PI), sx, sy);
        const float back = w / (sx * sx + sy * sy);
        ox += back * side * sx;
        oy += back * sy;
    }
}
