// @variation exp
// @id 82
// @origin flam3 3.1.1
FJ_VARIATION(exp) {
    const float k = w * expf(in.x);
    ox += k * fj::cosine(in.y);
    oy += k * fj::sine(in.y);
}
