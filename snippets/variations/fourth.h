// @variation fourth
// @id 1212
// @origin Fractorium 1.0
// @param fourth_spin 3.14159265358979
// @param fourth_space 0
// @param fourth_twist 0
// @param fourth_x 0
// @param fourth_y 0
// A different variation in each open quadrant: spherical where x > 0 and
// y > 0; loonie where x > 0 and y < 0 (inside the circle of radius |w| the
// point is pushed out by sqrt(w²/r² − 1), outside it is kept); lazysusan
// where x < 0 and y > 0 (about the centre (x_, −y_): inside radius w the
// point turns by spin + twist·(w − d) and shrinks by w, outside it moves
// out by w·space/d); times the weight everywhere else, the axes included.
// As in Fractorium, lazysusan adds its centre back unweighted. spin wraps
// into [0, 2π]. Where r² underflows to 0 in the first two quadrants it is
// divided through float epsilon instead of giving infinity; lazysusan's
// d = 0 is guarded the same way, as in Fractorium.
FJ_VARIATION(fourth) {
    const float x = in.x, y = in.y;
    if (x > 0.0f && y > 0.0f) {
        const float s = w / fj::zeps(in.r2);
        ox += s * x;
        oy += s * y;
    } else if (x > 0.0f && y < 0.0f) {
        const float w2 = w * w;
        const float s = in.r2 < w2 ? w * sqrtf(w2 / fj::zeps(in.r2) - 1.0f) : w;
        ox += s * x;
        oy += s * y;
    } else if (x < 0.0f && y > 0.0f) {
        const float cx = p[3], cy = p[4];
        const float dx = x - cx, dy = y + cy;
        const float d = sqrtf(dx * dx + dy * dy);
        if (d < w) {
            const float a = fj::arctan2(dy, dx) + fj::wrap_cyclic(p[0], 0.0f, FJ_2PI) + p[2] * (w - d);
            ox += w * d * fj::cosine(a) + cx;
            oy += w * d * fj::sine(a) - cy;
        } else {
            const float s = w * (1.0f + p[1] / fj::zeps(d));
            ox += s * dx + cx;
            oy += s * dy - cy;
        }
    } else {
        ox += w * x;
        oy += w * y;
    }
}
