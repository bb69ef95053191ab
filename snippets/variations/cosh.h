// @variation cosh
// @id 91
// @origin flam3 3.1.1
FJ_VARIATION(cosh) {
    float sh, ch;
    fj::sinh_cosh(in.x, sh, ch);
    ox += w * ch * fj::cosine(in.y);
    oy += w * sh * fj::sine(in.y);
}
