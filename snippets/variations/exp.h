// @variation exp
// @id 82
// @origin flam3 3.1.1
FJ_VARIATION(exp) {
    const float k = w * expf(in.x);
    ox += k * cosf(in.y);
    oy += k * sinf(in.y);
}
