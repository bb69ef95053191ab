// @variation radial_blur
// @id 36
// @param radial_blur_angle 0
// @random 4
FJ_VARIATION(radial_blur) {
    const float spin = sinf(p[0] * FJ_PI_2), zoom = cosf(p[0] * FJ_PI_2);
    const float g = w * (fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) - 2.0f);
    const float a = in.phi + spin * g;
    const float rz = zoom * g - 1.0f;
    // flam3 does not scale the rotated term by the weight.
    ox += in.r * cosf(a) + rz * in.x;
    oy += in.r * sinf(a) + rz * in.y;
}
