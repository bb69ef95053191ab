// @variation cos
// @id 85
// @origin flam3 3.1.1
FJ_VARIATION(cos) {
    float sh, ch;
    fj::sinh_cosh(in.y, sh, ch);
    ox += w * fj::cosine(in.x) * ch;
    oy -= w * fj::sine(in.x) * sh;
}
