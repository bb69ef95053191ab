// @variation pdj
// @id 24
// @origin flam3 3.1.1
// @param pdj_a 0
// @param pdj_b 0
// @param pdj_c 0
// @param pdj_d 0
FJ_VARIATION(pdj) {
    ox += w * (fj::sine(p[0] * in.y) - fj::cosine(p[1] * in.x));
    oy += w * (fj::sine(p[2] * in.x) - fj::cosine(p[3] * in.y));
}
