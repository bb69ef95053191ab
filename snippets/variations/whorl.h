// @variation whorl
// @id 80
// @origin flam3 3.1.1
// @param whorl_inside 0
// @param whorl_outside 0
// flam3 uses the weight as the radius between inside and outside.
FJ_VARIATION(whorl) {
    const float a = in.phi + (in.r < w ? p[0] : p[1]) / (w - in.r);
    const float k = w * in.r;
    ox += k * fj::cosine(a);
    oy += k * fj::sine(a);
}
