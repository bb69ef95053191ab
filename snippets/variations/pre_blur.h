// @variation pre_blur
// @id 67
// @origin flam3 3.1.1
// @random 5
// @pre
// Fractorium writes it as pre_gaussian_blur (its gaussian_blur applied first,
// added to the point: the same distribution).
// @also pre_gaussian_blur
// Moves the point itself before the other variations see it.
FJ_VARIATION(pre_blur) {
    const float g = w * (fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) - 2.0f);
    const float a = fj::rand01(rng) * FJ_2PI;
    ox += g * fj::cosine(a);
    oy += g * fj::sine(a);
}
