// @variation blade
// @id 45
// @origin flam3 3.1.1
// @random 1
// flam3 uses the weight inside the formula here.
FJ_VARIATION(blade) {
    const float r = fj::rand01(rng) * w * in.r;
    const float s = fj::sine(r), c = fj::cosine(r);
    ox += w * in.x * (c + s);
    oy += w * in.x * (c - s);
}
