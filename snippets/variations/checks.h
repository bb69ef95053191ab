// @variation checks
// @id 1063
// @origin Fractorium 1.0
// @param checks_x 0.5
// @param checks_y 0.5
// @param checks_size 0.5
// @param checks_rnd 0
// @random 2
// A checkerboard of squares `size` across (centred on the multiples of
// size, halves rounded away from zero): points on dark squares move by
// (−x + rnd·u, −y), points on light ones by (x, y + rnd·v), u and v uniform
// in [0, 1), both always drawn.
FJ_HD FJ_INLINE float fj_checks_round(float v) {
    return (float)fj::int_like_x86(v >= 0.0f ? v + 0.5f : v - 0.5f);
}

FJ_VARIATION(checks) {
    const float jitter_x = p[3] * fj::rand01(rng), jitter_y = p[3] * fj::rand01(rng);
    const float inv = 1.0f / fj::zeps(p[2]);
    const int square = fj::int_like_x86(fj_checks_round(in.x * inv) + fj_checks_round(in.y * inv));
    const bool dark = (square & 1) != 0;
    const float dx = dark ? jitter_x - p[0] : p[0];
    const float dy = dark ? -p[1] : p[1] + jitter_y;
    ox += w * (in.x + dx);
    oy += w * (in.y + dy);
}
