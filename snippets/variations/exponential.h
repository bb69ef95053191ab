// @variation exponential
// @id 18
// @origin flam3 3.1.1
FJ_VARIATION(exponential) {
    const float k = w * expf(in.x - 1.0f);
    const float a = FJ_PI * in.y;
    ox += k * fj::cosine(a);
    oy += k * fj::sine(a);
}
