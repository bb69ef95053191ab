// @variation eclipse
// @id 1023
// @origin Fractorium 1.0
// @param eclipse_shift 0
// Inside the disc whose radius is the weight, points slide along x by
// shift·weight; one that would leave the disc that way is mirrored across
// the y axis instead. Outside the disc, and with a negative weight: linear.
// Fractorium wraps shift into [-2, 2].
FJ_VARIATION(eclipse) {
    const float shift = fj::wrap_cyclic(p[0], -2.0f, 2.0f);
    float x = w * in.x;
    if (fabsf(in.y) <= w) {
        const float half_chord = sqrtf(w * w - in.y * in.y);
        if (fabsf(in.x) <= half_chord) {
            const float moved = in.x + shift * w;
            x = fabsf(moved) >= half_chord ? -(w * in.x) : w * moved;
        }
    }
    ox += x;
    oy += w * in.y;
}
