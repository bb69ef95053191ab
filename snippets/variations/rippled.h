// @variation rippled
// @id 1195
// @origin Fractorium 1.0
// x scaled by tanh(r²) and y by cos(r²), times the weight: x is squeezed
// near the origin and kept far out, y folded back and forth in rings of
// ever narrower width. Fractorium replaces a zero r² by float epsilon
// first, which this keeps (it changes only the point at the origin, by
// nothing).
FJ_VARIATION(rippled) {
    const float d = fj::zeps(in.r2);
    ox += w * tanhf(d) * in.x;
    oy += w * fj::cosine(d) * in.y;
}
