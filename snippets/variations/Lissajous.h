// @variation Lissajous
// @id 1121
// @origin Fractorium 1.0
// @param Lissajous_tmin -3.14159265
// @param Lissajous_tmax 3.14159265
// @param Lissajous_a 3
// @param Lissajous_b 2
// @param Lissajous_c 0
// @param Lissajous_d 0
// @param Lissajous_e 0
// @random 2
// Ignores the input point: draws t uniformly between tmin and tmax and
// plots the Lissajous curve (sin(a·t + d), sin(b·t)), sheared along the
// diagonal by c·t and thickened along it by e·v, v uniform in [−1/2, 1/2);
// times the weight.
FJ_VARIATION(Lissajous) {
    const float t = (p[1] - p[0]) * fj::rand01(rng) + p[0];
    const float v = fj::rand01(rng) - 0.5f;
    const float shift = p[4] * t + p[6] * v;
    ox += w * (fj::sine(p[2] * t + p[5]) + shift);
    oy += w * (fj::sine(p[3] * t) + shift);
}
