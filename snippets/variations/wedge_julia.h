// @variation wedge_julia
// @id 78
// @origin flam3 3.1.1
// @param wedge_julia_angle 0
// @param wedge_julia_count 1
// @param wedge_julia_power 1
// @param wedge_julia_dist 0
// @random 1
FJ_VARIATION(wedge_julia) {
    const float angle = p[0], count = p[1], power = p[2], dist = p[3];
    const float cf = 1.0f - angle * count * (0.5f / FJ_PI);
    const float rn = fabsf(power);
    const float cn = dist / power * 0.5f;
    const float r = w * fj::power(in.r2, cn);
    const float t = (float)fj::int_like_x86(rn * fj::rand01(rng));
    float a = (in.phi + FJ_2PI * t) / power;
    const float c = floorf((count * a + FJ_PI) * (0.5f / FJ_PI));
    a = a * cf + c * angle;
    ox += r * fj::cosine(a);
    oy += r * fj::sine(a);
}
