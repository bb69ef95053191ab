// @variation radial_blur
// @id 36
// @origin flam3 3.1.1
// @param radial_blur_angle 0
// @random 4
FJ_VARIATION(radial_blur) {
    // Reduce the angle to one turn first so whole quarter turns stay exact.
    const float ang = fmodf(p[0], 4.0f) * FJ_PI_2;
    const float spin = sinf(ang), zoom = cosf(ang);
    const float g = w * (fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) - 2.0f);
    const float a = in.phi + spin * g;
    const float rz = zoom * g - 1.0f;
    // flam3 does not scale the rotated term by the weight.
    ox += in.r * cosf(a) + rz * in.x;
    oy += in.r * sinf(a) + rz * in.y;
}
