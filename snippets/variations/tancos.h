// @variation tancos
// @id 1036
// @origin Fractorium 1.0
// 2x·tanh(r²) and 2y·cos(r²), both over r², weighted.
FJ_VARIATION(tancos) {
    const float d = fj::zeps(in.r2);
    ox += (w / d) * (tanhf(d) * (2.0f * in.x));
    oy += (w / d) * (fj::cosine(d) * (2.0f * in.y));
}
