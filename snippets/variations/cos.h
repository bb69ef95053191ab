// @variation cos
// @id 85
// @origin flam3 3.1.1
FJ_VARIATION(cos) {
    ox += w * cosf(in.x) * coshf(in.y);
    oy -= w * sinf(in.x) * sinhf(in.y);
}
