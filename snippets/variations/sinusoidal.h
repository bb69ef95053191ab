// @variation sinusoidal
// @id 1
// @origin flam3 3.1.1
FJ_VARIATION(sinusoidal) {
    ox += w * sinf(in.x);
    oy += w * sinf(in.y);
}
