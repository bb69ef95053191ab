// @variation bubble
// @id 28
// @origin flam3 3.1.1
FJ_VARIATION(bubble) {
    const float k = w / (0.25f * in.r2 + 1.0f);
    ox += k * in.x;
    oy += k * in.y;
}
