// @variation target
// @id 1122
// @origin Fractorium 1.0
// @param target_even 0
// @param target_odd 0
// @param target_size 1
// Concentric bands of width size/2 in log r (the bands below r = 1 shifted
// by half a band), turned alternately by even and odd. Fractorium does not
// apply the weight here, and neither does this. even and odd wrap into [0, 2π];
// size is kept at least float epsilon. At the origin log r is −∞, the band
// test fails (NaN) and the point, 0, stays put.
FJ_VARIATION(target) {
    (void)w;
    const float size = fmaxf(p[2], FJ_FLT_EPSILON), half = 0.5f * size;
    float t = logf(in.r);
    if (t < 0.0f) t -= half;
    const float a = in.phi + (fj::modulo(fabsf(t), size) < half ? fj::wrap_cyclic(p[0], 0.0f, FJ_2PI)
                                                           : fj::wrap_cyclic(p[1], 0.0f, FJ_2PI));
    ox += in.r * fj::cosine(a);
    oy += in.r * fj::sine(a);
}
