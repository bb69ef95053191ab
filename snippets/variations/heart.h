// @variation heart
// @id 7
// @origin flam3 3.1.1
FJ_VARIATION(heart) {
    const float a = in.r * in.theta;
    const float k = w * in.r;
    ox += k * fj::sine(a);
    oy -= k * fj::cosine(a);
}
