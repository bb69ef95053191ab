// @variation sphereblur
// @id 1207
// @origin Fractorium 1.0
// @param sphereblur_power 1
// @random 3
// @assign sum
// A blur in a ball of radius |weight| about the origin seen from above,
// whatever the input: a direction uniform on the sphere (x and y kept;
// Fractorium's z dropped, x and y do not depend on it) times a radius
// w·(acos(2v − 1)/π)^(2/3), v = u^power (u uniform); powers above 1 push
// the points towards the rim, below 1 towards the centre. As a pre_ or post_
// use it adds to the point, as in Fractorium. power is kept at least 0; u^0
// is 1 even at u = 0, where Fractorium's exp(0·log 0) is NaN.
FJ_VARIATION(sphereblur) {
    const float power = fmaxf(p[0], 0.0f);
    const float ang = fj::rand01(rng) * FJ_2PI;
    const float cz = fj::rand01(rng) * 2.0f - 1.0f;     // cosine of the polar angle
    const float sz = sqrtf((1.0f - cz) * (1.0f + cz));  // its sine
    const float v = fj::power(fj::rand01(rng), power);
    const float r = w * fj::power(acosf(v * 2.0f - 1.0f) * (1.0f / FJ_PI), 2.0f / 3.0f);
    ox += r * fj::cosine(ang) * sz;
    oy += r * fj::sine(ang) * sz;
}
