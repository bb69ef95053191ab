// @variation circleblur
// @id 1057
// @origin Fractorium 1.0
// @random 2
// @assign sum
// A uniform disc of radius |weight|, whatever the input: the radius is the
// square root of a uniform number, so equal areas get equal shares.
FJ_VARIATION(circleblur) {
    const float r = w * sqrtf(fj::rand01(rng));
    const float a = fj::rand01(rng) * FJ_2PI;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
