// @variation square
// @id 43
// @origin flam3 3.1.1
// @random 2
// @assign sum
FJ_VARIATION(square) {
    ox += w * (fj::rand01(rng) - 0.5f);
    oy += w * (fj::rand01(rng) - 0.5f);
}
