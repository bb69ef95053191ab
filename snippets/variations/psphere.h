// @variation psphere
// @id 1073
// @origin Fractorium 1.0
// @ignored psphere_zscale
// A sphere seen from above: x and y, times weight·π, are its longitude and
// latitude-like angles; the result is (−cos(x′)·sin(y′), sin(x′)·cos(y′)),
// which the weight does not scale further. zscale moves only z.
FJ_VARIATION(psphere) {
    const float a = in.x * w * FJ_PI, b = in.y * w * FJ_PI;
    ox -= fj::cosine(a) * fj::sine(b);
    oy += fj::sine(a) * fj::cosine(b);
}
