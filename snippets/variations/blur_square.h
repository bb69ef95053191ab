// @variation blur_square
// @id 1054
// @origin Fractorium 1.0
// @random 2
// @assign sum
// A uniform square [-|weight|, |weight|)² centred on the origin, whatever
// the input. (Fractorium precomputes twice the weight per flame.)
FJ_VARIATION(blur_square) {
    const float side = 2.0f * w;
    ox += side * (fj::rand01(rng) - 0.5f);
    oy += side * (fj::rand01(rng) - 0.5f);
}
