// @variation epispiral
// @id 1060
// @origin Fractorium 1.0
// @param epispiral_n 6
// @param epispiral_thickness 0
// @param epispiral_holes 1
// @random 1
// The epispiral r = 1/cos(n·angle): each point moves along its own ray to the
// curve's radius for its angle, scaled by the weight (or, with a thickness,
// by a random fraction of weight·thickness), less weight·holes. A result of
// exactly 0 lands on the origin.
FJ_VARIATION(epispiral) {
    const float thick = p[1] * w;
    const float scale = thick == 0.0f ? w : thick * fj::rand01(rng);
    const float t = scale / fj::cosine(p[0] * in.phi) - p[2] * w;
    if (t == 0.0f) return;
    ox += t * fj::cosine(in.phi);
    oy += t * fj::sine(in.phi);
}
