// @variation split
// @id 74
// @origin flam3 3.1.1
// @param split_xsize 0
// @param split_ysize 0
FJ_VARIATION(split) {
    oy += fj::cosine(in.x * p[0] * FJ_PI) >= 0.0f ? w * in.y : -w * in.y;
    ox += fj::cosine(in.y * p[1] * FJ_PI) >= 0.0f ? w * in.x : -w * in.x;
}
