// @variation tanh_spiral
// @id 1205
// @origin Fractorium 1.0
// @param tanh_spiral_a 4
// @random 1
// A random point of the curve tanh((1 + i·a)·t/2), t uniform in [−π, π),
// whatever the input, times the weight: (sinh t, sin a·t)/(cosh t + cos a·t),
// a double spiral through the origin, winding in towards ±1 (its two ends,
// t = ±π, short of them), or for a = 0 a segment of the x axis. The
// divisor is positive, but for a tiny t and a large a float can round it
// to 0; a zero becomes float epsilon, as in Fractorium.
FJ_VARIATION(tanh_spiral) {
    const float t = (fj::rand01(rng) - 0.5f) * FJ_2PI;
    const float at = p[0] * t;
    float sh, ch;
    fj::sinh_cosh(t, sh, ch);
    const float den = fj::zeps(fj::cosine(at) + ch);
    ox += w * (sh / den);
    oy += w * (fj::sine(at) / den);
}
