// @variation projective
// @id 1193
// @origin Fractorium 1.0
// @param projective_A 0
// @param projective_B 0
// @param projective_C 1
// @param projective_A1 1
// @param projective_B1 0
// @param projective_C1 0
// @param projective_A2 0
// @param projective_B2 1
// @param projective_C2 0
// A projective map (homography), times the weight:
// (A1·x + B1·y + C1, A2·x + B2·y + C2) / (A·x + B·y + C); the defaults give
// the identity. The line where the divisor is 0 goes to infinity; a zero
// divisor becomes float epsilon, as in Fractorium.
FJ_VARIATION(projective) {
    const float s = w / fj::zeps(p[0] * in.x + p[1] * in.y + p[2]);
    ox += (p[3] * in.x + p[4] * in.y + p[5]) * s;
    oy += (p[6] * in.x + p[7] * in.y + p[8]) * s;
}
