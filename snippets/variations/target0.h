// @variation target0
// @id 1123
// @origin Fractorium 1.0
// @param target0_even 0
// @param target0_odd 0
// @param target0_size 0
// target with the weight applied: bands of width size/2 in log r (those
// below r = 1 shifted by half a band) turned alternately by even and odd.
// even and odd wrap into [0, 2π]; size is kept at least 0. A size of 0 (the
// default) leaves Fractorium taking the remainder by 0, a NaN that fails
// the band test, so every point turns by odd: we say so outright rather
// than trust NaN comparisons.
FJ_VARIATION(target0) {
    const float size = fmaxf(p[2], 0.0f), half = 0.5f * size;
    float t = logf(in.r);
    if (t < 0.0f) t -= half;
    const bool even = size > 0.0f && fj::modulo(fabsf(t), size) < half;
    const float a = in.phi + fj::wrap_cyclic(even ? p[0] : p[1], 0.0f, FJ_2PI);
    ox += w * in.r * fj::cosine(a);
    oy += w * in.r * fj::sine(a);
}
