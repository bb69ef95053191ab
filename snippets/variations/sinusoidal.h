// @variation sinusoidal
// @id 1
// @origin flam3 3.1.1
FJ_VARIATION(sinusoidal) {
    ox += w * fj::sine(in.x);
    oy += w * fj::sine(in.y);
}
