// @variation funnel
// @id 1081
// @origin Fractorium 1.0
// @param funnel_effect 8
// Both coordinates squashed by tanh and stretched by 1/cos(y) + effect·π,
// which climbs without bound at y = π/2 + kπ and draws the funnels. effect
// is a whole number.
FJ_VARIATION(funnel) {
    const float effect = floorf(p[0] + 0.5f);
    const float stretch = 1.0f / fj::zeps(fj::cosine(in.y)) + effect * FJ_PI;
    ox += w * tanhf(in.x) * stretch;
    oy += w * tanhf(in.y) * stretch;
}
