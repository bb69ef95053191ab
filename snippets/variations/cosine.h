// @variation cosine
// @id 20
// @origin flam3 3.1.1
FJ_VARIATION(cosine) {
    const float a = in.x * FJ_PI;
    float sh, ch;
    fj::sinh_cosh(in.y, sh, ch);
    ox += w * fj::cosine(a) * ch;
    oy -= w * fj::sine(a) * sh;
}
