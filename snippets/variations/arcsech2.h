// @variation arcsech2
// @id 1103
// @origin Fractorium 1.0
// arcsech at twice the scale, its two halves swapped over: with
// v = (2w/π)·arccosh(1/z) (principal branch, as in arcsech), a point whose
// v lies below the real axis moves up by 1, any other is mirrored in the
// imaginary axis and moves down by 1. The shifts of 1 are not weighted, as
// in Fractorium. arccosh is formed as in arcsech: Kahan's sum of two
// principal roots, which does not cancel; on the real axis 1/z's imaginary
// zero takes x's sign, as std::complex's division leaves it in Fractorium,
// and picks the side of the cut; the origin has no image (NaN).
FJ_VARIATION(arcsech2) {
    const float inv = 1.0f / hypotf(in.x, in.y);
    const float ux = in.x * inv * inv, uy = in.y != 0.0f ? -in.y * inv * inv : copysignf(0.0f, in.x);
    float ar, ai, br, bi;
    fj::complex_sqrt(0.5f * (ux + 1.0f), 0.5f * uy, ar, ai);
    fj::complex_sqrt(0.5f * (ux - 1.0f), 0.5f * uy, br, bi);
    const float sr = ar + br, si = ai + bi;
    const float k = w * (2.0f / FJ_PI);
    const float vx = k * logf(sr * sr + si * si), vy = 2.0f * k * fj::arctan2(si, sr);
    if (vy < 0.0f) {
        ox += vx;
        oy += vy + 1.0f;
    } else {
        ox -= vx;
        oy += vy - 1.0f;
    }
}
