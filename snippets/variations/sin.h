// @variation sin
// @id 84
// @origin flam3 3.1.1
FJ_VARIATION(sin) {
    ox += w * sinf(in.x) * coshf(in.y);
    oy += w * cosf(in.x) * sinhf(in.y);
}
