// @variation wedge_sph
// @id 79
// @origin flam3 3.1.1
// @param wedge_sph_angle 0
// @param wedge_sph_count 1
// @param wedge_sph_hole 0
// @param wedge_sph_swirl 0
FJ_VARIATION(wedge_sph) {
    const float angle = p[0], count = p[1], hole = p[2], swirl = p[3];
    const float ir = 1.0f / (in.r + FJ_EPS);
    float a = in.phi + swirl * ir;
    const float c = floorf((count * a + FJ_PI) * (0.5f / FJ_PI));
    const float comp = 1.0f - angle * count * (0.5f / FJ_PI);
    a = a * comp + c * angle;
    const float r = w * (ir + hole);
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
