// @variation cylinder
// @id 29
// @origin flam3 3.1.1
FJ_VARIATION(cylinder) {
    ox += w * fj::sine(in.x);
    oy += w * in.y;
}
