// @variation foci
// @id 64
// @origin flam3 3.1.1
// flam3's w·(sinh x, sin y)/(cosh x − cos y), written with e = exp(−|x|) so
// that float neither overflows for large |x| nor cancels next to the origin.
FJ_VARIATION(foci) {
    const float e = expf(-fabsf(in.x));
    const float m = -expm1f(-fabsf(in.x));  // 1 − e, exact near 0
    const float s = fj::sine(0.5f * in.y);
    const float k = w / (m * m + 4.0f * e * s * s);
    ox += k * copysignf(m * (1.0f + e), in.x);
    oy += k * 2.0f * e * fj::sine(in.y);
}
