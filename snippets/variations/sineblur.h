// @variation sineblur
// @id 1002
// @origin Fractorium 1.0
// @param sineblur_power 1
// @random 2
// @assign sum
// A blur whose radius is acos(1 - 2u)/pi of the weight (u uniform, or u^power
// for power other than 1): points pile up towards the rim.
FJ_VARIATION(sineblur) {
    const float a = fj::rand01(rng) * FJ_2PI;
    const float u = fj::rand01(rng);
    const float power = p[0];
    const float v = power == 1.0f ? u : expf(logf(u) * power);
    const float r = w * acosf(2.0f * v - 1.0f) / FJ_PI;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
