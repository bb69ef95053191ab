// @variation hyperbolic
// @id 10
FJ_VARIATION(hyperbolic) {
    const float r = in.r + FJ_EPS;
    ox += w * in.sina / r;
    oy += w * in.cosa * r;
}
