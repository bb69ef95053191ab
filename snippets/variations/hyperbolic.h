// @variation hyperbolic
// @id 10
// @origin flam3 3.1.1
FJ_VARIATION(hyperbolic) {
    const float r = in.r + FJ_EPS;
    ox += w * in.sina / r;
    oy += w * in.cosa * r;
}
