// @variation swirl
// @id 3
// @origin flam3 3.1.1
FJ_VARIATION(swirl) {
    const float s = fj::sine(in.r2), c = fj::cosine(in.r2);
    ox += w * (s * in.x - c * in.y);
    oy += w * (c * in.x + s * in.y);
}
