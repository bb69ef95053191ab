// @variation sin
// @id 84
// @origin flam3 3.1.1
FJ_VARIATION(sin) {
    float sh, ch;
    fj::sinh_cosh(in.y, sh, ch);
    ox += w * fj::sine(in.x) * ch;
    oy += w * fj::cosine(in.x) * sh;
}
