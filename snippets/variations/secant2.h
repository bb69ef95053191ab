// @variation secant2
// @id 46
// @origin flam3 3.1.1
// flam3 uses the weight inside the formula here.
FJ_VARIATION(secant2) {
    const float c = fj::cosine(w * in.r);
    const float ic = 1.0f / c;
    ox += w * in.x;
    oy += w * (c < 0.0f ? ic + 1.0f : ic - 1.0f);
}
