// @variation julia
// @id 13
// @origin flam3 3.1.1
// @random 1
FJ_VARIATION(julia) {
    float a = 0.5f * in.theta;
    if (fj::rand_bit(rng)) a += FJ_PI;
    const float r = w * sqrtf(in.r);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
