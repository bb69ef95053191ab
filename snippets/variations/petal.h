// @variation petal
// @id 1037
// @origin Fractorium 1.0
// Petals: cos x·(cos x·cos y)³ and cos x·(sin x·cos y)³, weighted.
FJ_VARIATION(petal) {
    const float sx = fj::sine(in.x), cx = fj::cosine(in.x), cy = fj::cosine(in.y);
    const float bx = cx * cy, by = sx * cy;
    ox += w * cx * (bx * bx * bx);
    oy += w * cx * (by * by * by);
}
