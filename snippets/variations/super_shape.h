// @variation super_shape
// @id 50
// @origin flam3 3.1.1
// @param super_shape_rnd 0
// @param super_shape_m 0
// @param super_shape_n1 1
// @param super_shape_n2 1
// @param super_shape_n3 1
// @param super_shape_holes 0
// @random 1
FJ_VARIATION(super_shape) {
    // flam3 clamps rnd to [0, 1] when it reads the genome.
    const float rnd = fminf(fmaxf(p[0], 0.0f), 1.0f);
    const float m = p[1], n1 = p[2], n2 = p[3], n3 = p[4], holes = p[5];
    const float th = 0.25f * m * in.phi + 0.25f * FJ_PI;
    const float t1 = fj::power(fabsf(fj::cosine(th)), n2);
    const float t2 = fj::power(fabsf(fj::sine(th)), n3);
    // The draw happens even when rnd is 0, as in flam3.
    const float u = fj::rand01(rng);
    const float k = w * ((rnd * u + (1.0f - rnd) * in.r) - holes) * fj::power(t1 + t2, -1.0f / n1) / in.r;
    ox += k * in.x;
    oy += k * in.y;
}
