// @variation spherical
// @id 2
// @origin flam3 3.1.1
FJ_VARIATION(spherical) {
    const float k = w / (in.r2 + FJ_EPS);
    ox += k * in.x;
    oy += k * in.y;
}
