// @variation flower
// @id 51
// @origin flam3 3.1.1
// @param flower_petals 0
// @param flower_holes 0
// @random 1
FJ_VARIATION(flower) {
    const float k = w * (fj::rand01(rng) - p[1]) * fj::cosine(p[0] * in.phi) / in.r;
    ox += k * in.x;
    oy += k * in.y;
}
