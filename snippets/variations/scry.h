// @variation scry
// @id 72
// @origin flam3 3.1.1
// flam3 puts the weight inside the formula and does not scale by it.
FJ_VARIATION(scry) {
    const float k = 1.0f / (in.r * (in.r2 + 1.0f / (w + FJ_EPS)));
    ox += in.x * k;
    oy += in.y * k;
}
