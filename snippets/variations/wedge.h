// @variation wedge
// @id 77
// @origin flam3 3.1.1
// @param wedge_angle 0
// @param wedge_hole 0
// @param wedge_count 1
// @param wedge_swirl 0
FJ_VARIATION(wedge) {
    const float angle = p[0], hole = p[1], count = p[2], swirl = p[3];
    float a = in.phi + swirl * in.r;
    const float c = floorf((count * a + FJ_PI) * (0.5f / FJ_PI));
    const float comp = 1.0f - angle * count * (0.5f / FJ_PI);
    a = a * comp + c * angle;
    const float r = w * (in.r + hole);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
