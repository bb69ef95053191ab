// @variation fibonacci2
// @id 1176
// @origin Fractorium 1.0
// @param fibonacci2_sc 1
// @param fibonacci2_sc2 1
// fibonacci (Binet's formula (φ^z − (−φ)^(−z))/√5 at the complex point z)
// with both terms' moduli changed: each becomes sc·e^(sc2·ln|term|), their
// angles kept; sc = sc2 = 1 is fibonacci. Times the weight.
FJ_VARIATION(fibonacci2) {
    const float ln_phi = 0.481211825f;     // log of the golden ratio
    const float inv_sqrt5 = 0.447213595f;
    const float sc = p[0], sc2 = p[1];
    const float m1 = sc * expf(sc2 * (in.x * ln_phi)), a1 = in.y * ln_phi;
    const float m2 = sc * expf(sc2 * (in.y * FJ_PI - in.x * ln_phi)), a2 = -(in.x * FJ_PI + in.y * ln_phi);
    const float s = w * inv_sqrt5;
    ox += s * (m1 * fj::cosine(a1) - m2 * fj::cosine(a2));
    oy += s * (m1 * fj::sine(a1) - m2 * fj::sine(a2));
}
