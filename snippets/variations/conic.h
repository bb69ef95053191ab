// @variation conic
// @id 52
// @origin flam3 3.1.1
// @param conic_eccentricity 1
// @param conic_holes 0
// @random 1
FJ_VARIATION(conic) {
    const float ecc = p[0], holes = p[1];
    const float ct = in.x / in.r;
    const float k = w * (fj::rand01(rng) - holes) * ecc / (1.0f + ecc * ct) / in.r;
    ox += k * in.x;
    oy += k * in.y;
}
