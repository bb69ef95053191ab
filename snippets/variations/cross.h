// @variation cross
// @id 48
// @origin flam3 3.1.1
FJ_VARIATION(cross) {
    const float s = in.x * in.x - in.y * in.y;
    const float k = w * sqrtf(1.0f / (s * s + FJ_EPS));
    ox += in.x * k;
    oy += in.y * k;
}
