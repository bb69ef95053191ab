// @variation horseshoe
// @id 4
// @origin flam3 3.1.1
FJ_VARIATION(horseshoe) {
    const float k = w / (in.r + FJ_EPS);
    ox += k * (in.x - in.y) * (in.x + in.y);
    oy += k * 2.0f * in.x * in.y;
}
