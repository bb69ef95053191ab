// @variation blur
// @id 34
// @origin flam3 3.1.1
// @random 2
// @assign sum
FJ_VARIATION(blur) {
    const float a = fj::rand01(rng) * FJ_2PI;
    const float r = w * fj::rand01(rng);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
