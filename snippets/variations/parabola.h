// @variation parabola
// @id 53
// @origin flam3 3.1.1
// @param parabola_height 0
// @param parabola_width 0
// @random 2
FJ_VARIATION(parabola) {
    const float s = fj::sine(in.r), c = fj::cosine(in.r);
    ox += p[0] * w * s * s * fj::rand01(rng);
    oy += p[1] * w * c * fj::rand01(rng);
}
