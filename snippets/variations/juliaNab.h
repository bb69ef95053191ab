// @variation juliaNab
// @id 1090
// @origin Fractorium 1.0
// @param juliaNab_n 1
// @param juliaNab_a 1
// @param juliaNab_b 1
// @param juliaNab_separ 1
// @random 1
// A julia of |n| roots (one at random, ⌊|n|⌋ of them) of the point whose
// x is first raised to `separ` (as |x|^separ: the two halves fold
// together), radius weight·r^(a/|n|), then moved by (b, b), which the weight
// does not scale.
FJ_VARIATION(juliaNab) {
    const float n = fj::zeps(fabsf(p[0]));
    const float root = floorf(fj::rand01(rng) * fabsf(p[0]));
    const float a = (fj::arctan2(in.y, fj::power(fabsf(in.x), p[3])) + FJ_2PI * root) / n;
    const float r = w * fj::power(in.r2, 0.5f * p[1] / n);
    ox += r * fj::cosine(a) + p[2];
    oy += r * fj::sine(a) + p[2];
}
