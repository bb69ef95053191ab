// @variation noise
// @id 31
// @origin flam3 3.1.1
// @random 2
FJ_VARIATION(noise) {
    const float a = fj::rand01(rng) * FJ_2PI;
    const float r = w * fj::rand01(rng);
    ox += in.x * r * fj::cosine(a);
    oy += in.y * r * fj::sine(a);
}
