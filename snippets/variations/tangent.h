// @variation tangent
// @id 42
// @origin flam3 3.1.1
FJ_VARIATION(tangent) {
    ox += w * fj::sine(in.x) / fj::cosine(in.y);
    oy += w * fj::tangent(in.y);
}
