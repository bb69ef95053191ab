// @variation lazyTravis
// @id 1088
// @origin Fractorium 1.0
// @param lazyTravis_spin_in 1
// @param lazyTravis_spin_out 0
// @param lazyTravis_space 0
// Every point lies on the square of half-width s = max(|x|, |y|); it moves
// round that square's perimeter (8s long) by 4s·spin, spin_in for points in
// the square of half-width weight and spin_out beyond it, which also move
// out by `space` (the edge's own coordinate pushed out in proportion). The
// spins are wrapped into [0, 2] (2: a whole turn).
FJ_VARIATION(lazyTravis) {
    const float ax = fabsf(in.x), ay = fabsf(in.y);
    const bool outside = ax > w || ay > w;
    const float turn = 4.0f * fj::wrap_cyclic(outside ? p[1] : p[0], 0.0f, 2.0f);
    const float space = outside ? p[2] : 0.0f;
    // Position along the perimeter, counterclockwise from (s, −s).
    float s, along;
    if (ax > ay) {
        s = ax;
        along = in.x > 0.0f ? s + in.y : 5.0f * s - in.y;
    } else {
        s = ay;
        along = in.y > 0.0f ? 3.0f * s - in.x : 7.0f * s + in.x;
    }
    const float q = fj::modulo(along + s * turn, 8.0f * s);
    const float edge = s + space, stretch = 1.0f + space / s;
    float x, y;
    if (q <= 2.0f * s) {
        x = edge;
        y = (q - s) * stretch;
    } else if (q <= 4.0f * s) {
        x = (3.0f * s - q) * stretch;
        y = edge;
    } else if (q <= 6.0f * s) {
        x = -edge;
        y = (5.0f * s - q) * stretch;
    } else {
        x = (q - 7.0f * s) * stretch;
        y = -edge;
    }
    ox += w * x;
    oy += w * y;
}
