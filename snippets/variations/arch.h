// @variation arch
// @id 41
// @origin flam3 3.1.1
// @random 1
// @assign sum
// flam3 uses the weight inside the formula here.
FJ_VARIATION(arch) {
    const float a = fj::rand01(rng) * w * FJ_PI;
    const float s = fj::sine(a), c = fj::cosine(a);
    ox += w * s;
    oy += w * (s * s) / c;
}
