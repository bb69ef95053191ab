// @variation fibonacci
// @id 1175
// @origin Fractorium 1.0
// Binet's formula for the Fibonacci numbers at the complex point z, times
// the weight: (φ^z − (−φ)^(−z))/√5, φ the golden ratio and (−1)^(−z) taken
// as e^(−iπz); at whole numbers n on the x axis it is the n-th Fibonacci
// number.
FJ_VARIATION(fibonacci) {
    const float ln_phi = 0.481211825f;     // log of the golden ratio
    const float inv_sqrt5 = 0.447213595f;
    const float m1 = expf(in.x * ln_phi), a1 = in.y * ln_phi;
    const float m2 = expf(in.y * FJ_PI - in.x * ln_phi), a2 = -(in.x * FJ_PI + in.y * ln_phi);
    const float s = w * inv_sqrt5;
    ox += s * (m1 * fj::cosine(a1) - m2 * fj::cosine(a2));
    oy += s * (m1 * fj::sine(a1) - m2 * fj::sine(a2));
}
