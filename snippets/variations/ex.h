// @variation ex
// @id 12
// @origin flam3 3.1.1
FJ_VARIATION(ex) {
    const float n0 = fj::sine(in.theta + in.r);
    const float n1 = fj::cosine(in.theta - in.r);
    const float m0 = n0 * n0 * n0 * in.r;
    const float m1 = n1 * n1 * n1 * in.r;
    ox += w * (m0 + m1);
    oy += w * (m0 - m1);
}
