// @variation sinh
// @id 90
// @origin flam3 3.1.1
FJ_VARIATION(sinh) {
    float sh, ch;
    fj::sinh_cosh(in.x, sh, ch);
    ox += w * sh * fj::cosine(in.y);
    oy += w * ch * fj::sine(in.y);
}
