// @variation bent2
// @id 54
// @origin flam3 3.1.1
// @param bent2_x 1
// @param bent2_y 1
FJ_VARIATION(bent2) {
    const float nx = in.x < 0.0f ? in.x * p[0] : in.x;
    const float ny = in.y < 0.0f ? in.y * p[1] : in.y;
    ox += w * nx;
    oy += w * ny;
}
