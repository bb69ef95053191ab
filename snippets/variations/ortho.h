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
    // centred at (xo, 0), xo = (x² + y² + 1)/e with e = 2x (float epsilon
    // on the y axis, as Fractorium guards it), has radius ro, ro² = xo² − 1;
    // θ is its arc's half angle. Near the y axis xo and ro are large and
    // nearly equal, and the slid point's x, xo − ro·cos a, is their small
    // difference: formed that way it is all rounding (an ulp of xo is more
    // than the answer), and fused multiply-adds round it otherwise. So
    // nothing here subtracts them: (e·ro)² = ((1 − x)² + y²)·((1 + x)² + y²),
    // the angle seen from the centre is that of (e·y, e·(xo − x)), e·(xo − x)
    // = (1 − x)(1 + x) + y², and xo − ro·cos a = 1/(xo + ro) + 2·ro·sin²(a/2).
    const float e = fj::zeps(2.0f * x), d = (1.0f - x) * (1.0f + x) + y * y;
    const float er = sqrtf(((1.0f - x) * (1.0f - x) + y * y) * ((1.0f + x) * (1.0f + x) + y * y));  // e·ro
    const float half = fj::arctan2(e, er);
    const float a = fj::modulo(turn * half + fj::arctan2(e * y, d) + half, 2.0f * half) - half;
    const float ro = er / e, h = fj::sine(0.5f * a);
    sx = e / (x * x + y * y + 1.0f + er) + 2.0f * ro * h * h;
    sy = fj::sine(a) * ro;
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
