// @variation exp2
// @id 1174
// @origin Fractorium 1.0
// The complex exponential of π·z, times the weight: horizontal lines
// become rays, vertical ones circles, and each horizontal strip of height 2
// wraps once around the origin.
FJ_VARIATION(exp2) {
    const float e = w * expf(FJ_PI * in.x);
    const float a = FJ_PI * in.y;
    ox += e * fj::cosine(a);
    oy += e * fj::sine(a);
}
