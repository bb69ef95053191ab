// @variation butterfly
// @id 57
// @origin flam3 3.1.1
FJ_VARIATION(butterfly) {
    const float wx = w * 1.30294003174111979f;  // 4 / sqrt(3π)
    const float y2 = 2.0f * in.y;
    const float r = wx * sqrtf(fabsf(in.y * in.x) / (FJ_EPS + in.x * in.x + y2 * y2));
    ox += r * in.x;
    oy += r * y2;
}
