// @variation tile_log
// @id 1004
// @origin Fractorium 1.0
// @param tile_log_spread 1
// @random 2
// Moves x by a whole number of units, log-distributed in size (its sign
// from a random bit).
FJ_VARIATION(tile_log) {
    const float spread = p[0];
    const float t = logf(fj::rand01(rng)) * (fj::rand_bit(rng) ? spread : -spread);
    // Fractorium rounds halves away from zero.
    const float shift = t > 0.0f ? floorf(t + 0.5f) : ceilf(t - 0.5f);
    ox += w * (in.x + shift);
    oy += w * in.y;
}
