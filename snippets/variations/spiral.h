// @variation spiral
// @id 9
// @origin flam3 3.1.1
FJ_VARIATION(spiral) {
    const float r = in.r + FJ_EPS;
    const float k = w / r;
    ox += k * (in.cosa + fj::sine(r));
    oy += k * (in.sina - fj::cosine(r));
}
