// @variation radial_blur
// @id 36
// @origin flam3 3.1.1
// @param radial_blur_angle 0
// @random 4
FJ_VARIATION(radial_blur) {
    // Reduce the angle to one turn first so whole quarter turns stay exact.
    const float ang = fj::modulo(p[0], 4.0f) * FJ_PI_2;
    const float spin = fj::sine(ang), zoom = fj::cosine(ang);
    const float g = w * (fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) + fj::rand01(rng) - 2.0f);
    // flam3 adds r·(cos, sin)(φ + spin·g) + (zoom·g − 1)·(x, y), not scaling
    // the rotated term by the weight. Far out that is two large terms that
    // cancel, and an ulp of φ near ±π moves it by r·2.4e-7 (the device's
    // atan2f and the host's differ by an ulp or so): so the point is turned by
    // δ = spin·g as a vector instead, r·cos(φ + δ) − x = x·(cos δ − 1) −
    // y·sin δ, with cos δ − 1 = −2·sin²(δ/2).
    const float turn = spin * g, s = fj::sine(turn), h = fj::sine(0.5f * turn);
    const float k = zoom * g - 2.0f * h * h;
    ox += k * in.x - s * in.y;
    oy += k * in.y + s * in.x;
}
