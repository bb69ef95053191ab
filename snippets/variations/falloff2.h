// @variation falloff2
// @id 1010
// @origin Fractorium 1.0
// @param falloff2_scatter 1
// @param falloff2_mindist 0.5
// @param falloff2_mul_x 1
// @param falloff2_mul_y 1
// @param falloff2_mul_z 0
// @param falloff2_mul_c 0
// @param falloff2_x0 0
// @param falloff2_y0 0
// @param falloff2_z0 0
// @param falloff2_invert 0
// @param falloff2_type 0
// @random 4
// @color
// Scatter that grows with the distance from a centre (x0, y0, z0): none
// within mindist of it (or, inverted, beyond 1 − mindist), then 0.04·scatter
// per unit of distance. type 0 jitters x and y, type 1 the polar radius and
// angle (and the elevation by mul_z), type 2 (and above) moves the point in
// a random direction. mul_c jitters the colour index, wrapped into [0, 1).
// Fractorium's type and invert hold in [0, 2] and [0, 1]. Points here have
// no z: it is 0 on the way in, which is exact while no use writes a z (this
// one does at type 1 with mul_z ≠ 0, and Fractorium's z would feed back).
FJ_VARIATION(falloff2) {
    const float rx = fj::rand01(rng) - 0.5f, ry = fj::rand01(rng) - 0.5f;
    const float rz = fj::rand01(rng) - 0.5f, rc = fj::rand01(rng) - 0.5f;
    const float dx = in.x - p[6], dy = in.y - p[7];
    const float from_centre = sqrtf(dx * dx + dy * dy + p[8] * p[8]);
    const float reach = p[9] > 0.0f ? fmaxf(1.0f - from_centre, 0.0f) : from_centre;
    const float dist = fmaxf((reach - p[1]) * (0.04f * p[0]), 0.0f);
    const int type = (int)fminf(fmaxf(p[10], 0.0f), 2.0f);
    if (type == 0) {
        ox += w * (in.x + p[2] * rx * dist);
        oy += w * (in.y + p[3] * ry * dist);
    } else if (type == 1) {
        if (in.x == 0.0f && in.y == 0.0f) return;  // at the origin: no move, and no colour change
        const float r = in.r + p[2] * rx * dist;
        const float phi = in.phi + p[3] * ry * dist;
        const float elevation = p[4] * rz * dist;
        const float k = r * fj::cosine(elevation) * w;
        ox += k * fj::cosine(phi);
        oy += k * fj::sine(phi);
    } else {
        const float sigma = dist * ry * FJ_2PI, phi = dist * rz * FJ_PI, rad = dist * rx;
        const float c = fj::cosine(sigma);
        ox += w * (in.x + p[2] * rad * c * fj::cosine(phi));
        oy += w * (in.y + p[3] * rad * c * fj::sine(phi));
    }
    color = fabsf(fj::modulo(color + p[5] * rc * dist, 1.0f));
}
