// @variation horseshoe
// @id 4
FJ_VARIATION(horseshoe) {
    const float k = w / (in.r + FJ_EPS);
    ox += k * (in.x - in.y) * (in.x + in.y);
    oy += k * 2.0f * in.x * in.y;
}
