// @variation sinusgrid
// @id 1076
// @origin Fractorium 1.0
// @param sinusgrid_ampx 0.5
// @param sinusgrid_ampy 0.5
// @param sinusgrid_freqx 1
// @param sinusgrid_freqy 1
// Each coordinate blended towards −cos(2π·freq·v) by its amp (amp 1: the
// cosine alone, amp 0: linear); a frequency of 0 counts as float's epsilon.
FJ_VARIATION(sinusgrid) {
    const float fx = fj::zeps(p[2] * FJ_2PI), fy = fj::zeps(p[3] * FJ_2PI);
    const float sx = -fj::cosine(in.x * fx), sy = -fj::cosine(in.y * fy);
    ox += w * (in.x + (sx - in.x) * p[0]);
    oy += w * (in.y + (sy - in.y) * p[1]);
}
