// @variation target2
// @id 1124
// @origin Fractorium 1.0
// @param target2_even 0
// @param target2_odd 0
// @param target2_size 1
// @param target2_thightness 0
// target's bands wound into a spiral: the band index runs along
// tightness·log r + (φ + π)/π (φ = atan2(y, x)), bands of width size/2,
// negative values shifted by half a band; the point turns by even or odd
// alternately; times the weight. This follows Fractorium's CPU code
// (its OpenCL text leaves out the spiral term). even and odd wrap into
// [0, 2π]; size is kept at least float epsilon.
FJ_VARIATION(target2) {
    const float size = fmaxf(p[2], FJ_FLT_EPSILON), half = 0.5f * size;
    float t = p[3] * logf(in.r) + (in.phi + FJ_PI) * (1.0f / FJ_PI);
    if (t < 0.0f) t -= half;
    const float a = in.phi + fj::wrap_cyclic(fj::modulo(fabsf(t), size) < half ? p[0] : p[1], 0.0f, FJ_2PI);
    ox += w * in.r * fj::cosine(a);
    oy += w * in.r * fj::sine(a);
}
