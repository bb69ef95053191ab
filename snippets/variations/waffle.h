// @variation waffle
// @id 1091
// @origin Fractorium 1.0
// @param waffle_slices 6
// @param waffle_xthickness 0.5
// @param waffle_ythickness 0.5
// @param waffle_rotation 0
// @random 5
// @assign sum
// A waffle on the unit square, whatever the input: `slices` strips each way,
// each strip's first xthickness (or ythickness) of its width filled. A
// point is drawn from one of five pieces alike (the cells where filled
// strips cross, each family of strips' unfilled parts along the other's
// filled lines, and the gaps between strips along the full other axis),
// then the square is turned by `rotation` and scaled by the weight. The
// strip index takes a whole number of slices (Fractorium draws any 32-bit
// number below 1 slice; at least 1 here).
FJ_HD FJ_INLINE float fj_waffle_strip(fj::Rng& rng, float slices) {
    return floorf(fj::rand01(rng) * fmaxf(truncf(slices), 1.0f));
}

FJ_VARIATION(waffle) {
    const float slices = p[0], tx = p[1], ty = p[2];
    float a, r;
    switch ((int)(fj::rand01(rng) * 5.0f)) {
        case 0:
            a = (fj_waffle_strip(rng, slices) + fj::rand01(rng) * tx) / slices;
            r = (fj_waffle_strip(rng, slices) + fj::rand01(rng) * ty) / slices;
            break;
        case 1:
            a = (fj_waffle_strip(rng, slices) + fj::rand01(rng)) / slices;
            r = (fj_waffle_strip(rng, slices) + ty) / slices;
            break;
        case 2:
            a = (fj_waffle_strip(rng, slices) + tx) / slices;
            r = (fj_waffle_strip(rng, slices) + fj::rand01(rng)) / slices;
            break;
        case 3:
            a = fj::rand01(rng);
            r = (fj_waffle_strip(rng, slices) + ty + fj::rand01(rng) * (1.0f - ty)) / slices;
            break;
        default:
            a = (fj_waffle_strip(rng, slices) + tx + fj::rand01(rng) * (1.0f - tx)) / slices;
            r = fj::rand01(rng);
            break;
    }
    const float s = w * fj::sine(p[3]), c = w * fj::cosine(p[3]);
    ox += c * a + s * r;
    oy += c * r - s * a;
}
