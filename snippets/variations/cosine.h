// @variation cosine
// @id 20
// @origin flam3 3.1.1
FJ_VARIATION(cosine) {
    const float a = in.x * FJ_PI;
    ox += w * cosf(a) * coshf(in.y);
    oy -= w * sinf(a) * sinhf(in.y);
}
