// @variation gaussian_blur
// @id 35
// @origin flam3 3.1.1
// @random 5
// @assign sum
FJ_VARIATION(gaussian_blur) {
    const float a = fj::rand01(rng) * FJ_2PI;
    // flam3's pseudo-gaussian: four uniforms, centred.
    const float r = w * (fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) - 2.0f);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
