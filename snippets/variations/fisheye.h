// @variation fisheye
// @id 16
// @origin flam3 3.1.1
// flam3 swaps the output components; genomes depend on it.
FJ_VARIATION(fisheye) {
    const float k = 2.0f * w / (in.r + 1.0f);
    ox += k * in.y;
    oy += k * in.x;
}
