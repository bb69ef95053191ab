// @variation handkerchief
// @id 6
// @origin flam3 3.1.1
FJ_VARIATION(handkerchief) {
    const float k = w * in.r;
    ox += k * fj::sine(in.theta + in.r);
    oy += k * fj::cosine(in.theta - in.r);
}
