// @variation glynnia
// @id 1065
// @origin Fractorium 1.0
// @random 1
// A complex square root with a twist, as Fractorium computes it outside its
// flam3 compatibility mode: with t = sqrt(r + x) (the root's real part times
// √2), half the points go to (±t, −y/t) and half to (±t, y/t)/r, all times
// weight·√2/2; the sign of x is + outside the unit circle and − inside.
FJ_VARIATION(glynnia) {
    const float v = w * 0.70710678118654752f;
    const float side = in.r2 > 1.0f ? 1.0f : -1.0f;
    const float t = sqrtf(in.r + in.x);
    if (fj::rand01(rng) < 0.5f) {
        ox += v * side * t;
        oy -= v * in.y / fj::zeps(t);
    } else {
        const float s = v / fj::zeps(in.r);
        ox += s * side * t;
        oy += s * in.y / fj::zeps(t);
    }
}
