// @variation gaussian
// @id 1015
// @origin Fractorium 1.0
// @random 5
// The point itself, unweighted, plus gaussian_blur's noise (a random
// direction, a radius of the weight times four centred uniforms): as a pre_
// or post_ use it jitters the point by an amount the weight sets. As a
// Regular use it adds the whole point to the sum whatever the weight.
FJ_VARIATION(gaussian) {
    const float a = fj::rand01(rng) * FJ_2PI;
    const float r = w * (fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) - 2.0f);
    ox += r * fj::cosine(a) + in.x;
    oy += r * fj::sine(a) + in.y;
}
