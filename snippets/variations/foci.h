// @variation foci
// @id 64
FJ_VARIATION(foci) {
    const float ex = 0.5f * expf(in.x);
    const float en = 0.25f / ex;
    const float k = w / (ex + en - cosf(in.y));
    ox += k * (ex - en);
    oy += k * sinf(in.y);
}
