// @variation d_spherical
// @id 1146
// @origin Fractorium 1.0
// @param d_spherical_weight 0.5
// @random 1
// spherical (p/r²) with probability `weight` (the parameter: never below 0,
// always above 1), else linear; times the variation's weight. The
// origin's spherical divides by float epsilon, as in Fractorium, and stays 0.
FJ_VARIATION(d_spherical) {
    const float k = fj::rand01(rng) < p[0] ? w / fj::zeps(in.r2) : w;
    ox += k * in.x;
    oy += k * in.y;
}
