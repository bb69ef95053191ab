// @variation cos
// @id 85
// @origin flam3 3.1.1
FJ_VARIATION(cos) {
    float sh, ch;
    fj::sinh_cosh(in.y, sh, ch);
    ox += w * cosf(in.x) * ch;
    oy -= w * sinf(in.x) * sh;
}
