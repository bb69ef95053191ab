// @variation arcsinh
// @id 1104
// @origin Fractorium 1.0
// The inverse hyperbolic sine, (2w/π)·arsinh(z), on its principal branch
// (Fractorium writes it log(z + √(z² + 1)); the cuts run along the
// imaginary axis beyond ±i). arsinh is odd, so it is formed for the mirror
// image in the right half plane, by x's sign bit so that x = −0 keeps its
// side of the cuts as std::complex does: there z and √(z² + 1) add without
// the cancellation that ruins the left half plane in float. Re(z² + 1) is
// taken as (1 − y)(1 + y) + x², which stays accurate near ±i.

// The principal square root of a + ib; the sign of b, zero included, picks
// the side of the cut along the negative axis.
FJ_HD FJ_INLINE void fj_arcsinh_sqrt(float a, float b, float& re, float& im) {
    const float t = sqrtf(0.5f * (hypotf(a, b) + fabsf(a)));
    const float other = t > 0.0f ? 0.5f * fabsf(b) / t : 0.0f;
    re = a >= 0.0f ? t : other;
    im = copysignf(a >= 0.0f ? other : t, b);
}

FJ_VARIATION(arcsinh) {
    const float side = copysignf(1.0f, in.x);
    const float a = fabsf(in.x), b = side * in.y;
    float rr, ri;
    fj_arcsinh_sqrt((1.0f - b) * (1.0f + b) + a * a, 2.0f * a * b, rr, ri);
    const float sr = a + rr, si = b + ri;
    const float k = side * w * (2.0f / FJ_PI);
    ox += 0.5f * k * logf(sr * sr + si * si);
    oy += k * fj::arctan2(si, sr);
}
