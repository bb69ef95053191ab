// @variation murl
// @id 1069
// @origin Fractorium 1.0
// @param murl_c 0
// @param murl_power 2
// The complex map z → w·(1 + c′)·z / (1 + c′·z^power), c′ = c/(power − 1),
// z^power the principal power. Fractorium keeps power at 2 or more.
FJ_VARIATION(murl) {
    const float power = fmaxf(p[1], 2.0f);
    const float c = p[0] / (power - 1.0f);
    const float angle = in.phi * power;
    const float r = c * fj::power(in.r2, 0.5f * power);
    const float re = r * fj::cosine(angle) + 1.0f, im = r * fj::sine(angle);
    const float s = w * (c + 1.0f) / (re * re + im * im);
    ox += s * (in.x * re + in.y * im);
    oy += s * (in.y * re - in.x * im);
}
