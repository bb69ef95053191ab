// @variation waves3
// @id 1094
// @origin Fractorium 1.0
// @param waves3_scalex 0.05
// @param waves3_scaley 0.05
// @param waves3_freqx 7
// @param waves3_freqy 13
// @param waves3_sx_freq 0
// @param waves3_sy_freq 2
// waves2 whose amplitudes swell and fade along the waves themselves: x moves
// by sin(freqx·y) times scalex·(1 + sin(sx_freq·y))/2, y by sin(freqy·x)
// times scaley·(1 + sin(sy_freq·x))/2.
FJ_VARIATION(waves3) {
    const float ax = 0.5f * p[0] * (1.0f + fj::sine(in.y * p[4]));
    const float ay = 0.5f * p[1] * (1.0f + fj::sine(in.x * p[5]));
    ox += w * (in.x + fj::sine(in.y * p[2]) * ax);
    oy += w * (in.y + fj::sine(in.x * p[3]) * ay);
}
