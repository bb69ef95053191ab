// @variation disc
// @id 8
// @origin flam3 3.1.1
FJ_VARIATION(disc) {
    const float k = w * in.theta * (1.0f / FJ_PI);
    const float a = FJ_PI * in.r;
    ox += k * fj::sine(a);
    oy += k * fj::cosine(a);
}
