// @variation eyefish
// @id 27
// @origin flam3 3.1.1
FJ_VARIATION(eyefish) {
    const float k = 2.0f * w / (in.r + 1.0f);
    ox += k * in.x;
    oy += k * in.y;
}
