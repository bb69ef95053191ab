// @variation dc_cylinder
// @id 1018
// @origin Fractorium 1.0
// @param dc_cylinder_offset 0
// @param dc_cylinder_angle 0
// @param dc_cylinder_scale 0.5
// @param dc_cylinder_x 0.125
// @param dc_cylinder_y 0.125
// @param dc_cylinder_blur 1
// @random 5
// @color
// @reads sum
// A blurred cylinder seen from the side: a random offset r (blur times four
// centred uniforms) in a random direction; x becomes weight · `x` ·
// sin(x + r·sin(direction)), y becomes r + `y`·y, unweighted (as in
// Fractorium). The colour as dc_linear's, from the sum once this use is
// added. Fractorium's z (the cylinder's depth) is not kept here.
FJ_VARIATION(dc_cylinder) {
    const float a = fj::rand01(rng) * FJ_2PI;
    const float r = p[5] * (fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) - 2.0f);
    ox += w * fj::sine(in.x + r * fj::sine(a)) * p[3];
    oy += r + in.y * p[4];
    const float scale = p[2] == 0.0f ? 1e-5f : p[2];
    const float along = fj::cosine(p[1]) * ox + fj::sine(p[1]) * oy + p[0];
    color = fj::modulo(fabsf(0.5f * (along / scale + 1.0f)), 1.0f);
}
