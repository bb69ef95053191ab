// @variation ngon
// @id 38
// @origin flam3 3.1.1
// @param ngon_sides 5
// @param ngon_power 3
// @param ngon_circle 1
// @param ngon_corners 2
FJ_VARIATION(ngon) {
    const float sides = p[0], power = p[1], circle = p[2], corners = p[3];
    const float rf = fj::power(in.r2, power * 0.5f);
    const float b = FJ_2PI / sides;
    float phi = in.phi - b * floorf(in.phi / b);
    if (phi > 0.5f * b) phi -= b;
    const float amp = (corners * (1.0f / (fj::cosine(phi) + FJ_EPS) - 1.0f) + circle) / (rf + FJ_EPS);
    ox += w * in.x * amp;
    oy += w * in.y * amp;
}
