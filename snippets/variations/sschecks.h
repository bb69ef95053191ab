// @variation sschecks
// @id 1086
// @origin Fractorium 1.0
// @param sschecks_x 0.5
// @param sschecks_y 0.5
// @param sschecks_size 0.5
// @param sschecks_rnd 0
// @random 1
// checks' checkerboard moves applied to (sin x, sin y)·w/r² in place of the
// point: on dark squares by (−x + rnd·u, −y), on light ones by
// (x, y + rnd·u), then times the weight (which so counts twice, as in
// Fractorium).
FJ_HD FJ_INLINE float fj_sschecks_round(float v) {
    return (float)fj::int_like_x86(v >= 0.0f ? v + 0.5f : v - 0.5f);
}

FJ_VARIATION(sschecks) {
    const float s = w / fj::zeps(in.r2);
    const float inv = 1.0f / fj::zeps(p[2]);
    const int square = fj::int_like_x86(fj_sschecks_round(in.x * inv) + fj_sschecks_round(in.y * inv));
    float dx, dy;
    if (square & 1) {
        dx = p[3] * fj::rand01(rng) - p[0];
        dy = -p[1];
    } else {
        dx = p[0];
        dy = p[1] + p[3] * fj::rand01(rng);
    }
    ox += w * (fj::sine(in.x) * s + dx);
    oy += w * (fj::sine(in.y) * s + dy);
}
