// @variation linear
// @id 0
// @origin flam3 3.1.1
FJ_VARIATION(linear) {
    ox += w * in.x;
    oy += w * in.y;
}
