// @variation mask
// @id 1188
// @origin Fractorium 1.0
// The point (sin x, cos x) of the unit circle, scaled by
// sin²x·(cosh y + 1)/r² and the weight: a pattern periodic in x, masked to
// 0 where sin x is 0 and growing with |y|. A zero r² (the origin) becomes
// float epsilon, as in Fractorium.
FJ_VARIATION(mask) {
    float sh, ch;
    fj::sinh_cosh(in.y, sh, ch);
    const float s = fj::sine(in.x), c = fj::cosine(in.x);
    const float k = w / fj::zeps(in.r2) * (ch + 1.0f) * s * s;
    ox += k * s;
    oy += k * c;
}
