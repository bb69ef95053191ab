// @variation circlesplit
// @id 1116
// @origin Fractorium 1.0
// @param circlesplit_radius 1
// @param circlesplit_split 0.5
// The plane split along the circle of radius (radius − split): inside it
// points stay, outside they move straight out by `split`, which leaves the
// ring up to `radius` empty (or, for a negative split, folds over it). The
// direction is the point's angle, 0 at the origin (which lies outside when
// split ≥ radius), as in Fractorium.
FJ_VARIATION(circlesplit) {
    const float split = p[1];
    if (in.r < p[0] - split) {
        ox += w * in.x;
        oy += w * in.y;
    } else {
        const float len = w * (in.r + split);
        ox += len * fj::cosine(in.phi);
        oy += len * fj::sine(in.phi);
    }
}
