// @variation auger
// @id 96
// @origin flam3 3.1.1
// @param auger_sym 0
// @param auger_weight 0.5
// @param auger_freq 1
// @param auger_scale 1
// Fractorium writes half of auger_scale beside it and recomputes it on reading.
// @ignored auger_half_scale
FJ_VARIATION(auger) {
    const float sym = p[0], aw = p[1], freq = p[2], scale = p[3];
    const float s = fj::sine(freq * in.x), t = fj::sine(freq * in.y);
    const float dy = in.y + aw * (scale * s * 0.5f + fabsf(in.y) * s);
    const float dx = in.x + aw * (scale * t * 0.5f + fabsf(in.x) * t);
    ox += w * (in.x + sym * (dx - in.x));
    oy += w * dy;
}
