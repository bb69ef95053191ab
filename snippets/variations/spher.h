// @variation spher
// @id 1039
// @origin Fractorium 1.0
// @random 1
// Outside the unit circle, spherical or linear with even odds; inside it,
// nothing.
FJ_VARIATION(spher) {
    const float r2 = fj::zeps(in.r2);
    if (r2 <= 1.0f) return;
    const float k = fj::rand01(rng) < 0.5f ? w / r2 : w;
    ox += k * in.x;
    oy += k * in.y;
}
