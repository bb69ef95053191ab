// @variation popcorn2
// @id 71
// @origin flam3 3.1.1
// @param popcorn2_x 0
// @param popcorn2_y 0
// @param popcorn2_c 0
FJ_VARIATION(popcorn2) {
    ox += w * (in.x + p[0] * fj::sine(fj::tangent(in.y * p[2])));
    oy += w * (in.y + p[1] * fj::sine(fj::tangent(in.x * p[2])));
}
