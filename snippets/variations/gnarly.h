// @variation gnarly
// @id 1181
// @origin Fractorium 1.0
// @param gnarly_cellsize 1
// @param gnarly_twist 1
// A grid of square cells of side cellsize; inside each cell's inscribed
// disc the point is turned about the cell's centre, clockwise by
// twist·log(d²/R²) (d its distance from the centre, R the disc's radius):
// no turn at the rim, ever more towards the centre, a logarithmic whirl.
// Points outside the discs, and all at cellsize 0, are only weighted. The
// centre itself stays put (Fractorium's log 0 gives NaN there); R² below
// float's smallest number becomes float epsilon, as in Fractorium.
FJ_VARIATION(gnarly) {
    const float size = p[0];
    float vx = in.x, vy = in.y;
    if (size != 0.0f) {
        const float cx = (floorf(vx / size) + 0.5f) * size, cy = (floorf(vy / size) + 0.5f) * size;
        const float lx = vx - cx, ly = vy - cy, d2 = lx * lx + ly * ly;
        const float half = 0.5f * size, r2 = fj::zeps(half * half);
        if (d2 <= r2 && d2 > 0.0f) {
            const float t = p[1] * logf(d2 / r2);
            const float s = fj::sine(t), c = fj::cosine(t);
            vx = cx + c * lx + s * ly;
            vy = cy - s * lx + c * ly;
        }
    }
    ox += w * vx;
    oy += w * vy;
}
