// @variation sinh
// @id 90
// @origin flam3 3.1.1
FJ_VARIATION(sinh) {
    ox += w * sinhf(in.x) * cosf(in.y);
    oy += w * coshf(in.x) * sinf(in.y);
}
