// @variation cosh
// @id 91
// @origin flam3 3.1.1
FJ_VARIATION(cosh) {
    ox += w * coshf(in.x) * cosf(in.y);
    oy += w * sinhf(in.x) * sinf(in.y);
}
