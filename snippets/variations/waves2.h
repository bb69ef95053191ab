// @variation waves2
// @id 81
// @origin flam3 3.1.1
// @param waves2_freqx 0
// @param waves2_scalex 0
// @param waves2_freqy 0
// @param waves2_scaley 0
// Fractorium's waves also move z, which a flat image never shows.
// @ignored waves2_freqz
// @ignored waves2_scalez
FJ_VARIATION(waves2) {
    ox += w * (in.x + p[1] * fj::sine(in.y * p[0]));
    oy += w * (in.y + p[3] * fj::sine(in.x * p[2]));
}
