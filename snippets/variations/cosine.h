// @variation cosine
// @id 20
FJ_VARIATION(cosine) {
    const float a = in.x * FJ_PI;
    ox += w * cosf(a) * coshf(in.y);
    oy -= w * sinf(a) * sinhf(in.y);
}
