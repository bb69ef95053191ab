// @variation rblur
// @id 1059
// @origin Fractorium 1.0
// @param rblur_strength 1
// @param rblur_offset 1
// @param rblur_center_x 0
// @param rblur_center_y 0
// @random 2
// A radial blur: the point jittered within a square whose half-width is
// strength times its distance from the centre beyond `offset` (none within
// offset of the centre, which stays sharp), then times the weight.
// Fractorium precomputes twice the strength per flame.
FJ_VARIATION(rblur) {
    const float dx = in.x - p[2], dy = in.y - p[3];
    const float spread = 2.0f * p[0] * fmaxf(sqrtf(dx * dx + dy * dy) - p[1], 0.0f);
    ox += w * (in.x + (fj::rand01(rng) - 0.5f) * spread);
    oy += w * (in.y + (fj::rand01(rng) - 0.5f) * spread);
}
