// @variation disc
// @id 8
// @origin flam3 3.1.1
FJ_VARIATION(disc) {
    const float k = w * in.theta * (1.0f / FJ_PI);
    const float a = FJ_PI * in.r;
    ox += k * sinf(a);
    oy += k * cosf(a);
}
