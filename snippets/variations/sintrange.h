// @variation sintrange
// @id 1200
// @origin Fractorium 1.0
// @param sintrange_w 1
// Each coordinate's sine scaled by its square plus sw·(1 − r²), sw the
// parameter: (sin x·(x² + sw − sw·r²), sin y·(y² + sw − sw·r²)), times the
// weight; at sw = 1 that is (sin x·(1 − y²), sin y·(1 − x²)), which folds
// the plane over along the lines |x| = 1 and |y| = 1.
FJ_VARIATION(sintrange) {
    const float x2 = in.x * in.x, y2 = in.y * in.y, sw = p[0];
    const float v = (x2 + y2) * sw;
    ox += w * fj::sine(in.x) * (x2 + sw - v);
    oy += w * fj::sine(in.y) * (y2 + sw - v);
}
