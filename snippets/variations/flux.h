// @variation flux
// @id 97
// @origin flam3 3.1.1
// @param flux_spread 0
// flam3 uses the weight as the distance of the two poles.
FJ_VARIATION(flux) {
    const float xpw = in.x + w, xmw = in.x - w;
    const float y2 = in.y * in.y;
    const float r = w * (2.0f + p[0]) * sqrtf(sqrtf(y2 + xpw * xpw) / sqrtf(y2 + xmw * xmw));
    const float a = 0.5f * (fj::arctan2(in.y, xmw) - fj::arctan2(in.y, xpw));
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
