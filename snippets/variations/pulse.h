// @variation pulse
// @id 1194
// @origin Fractorium 1.0
// @param pulse_freqx 2
// @param pulse_freqy 2
// @param pulse_scalex 1
// @param pulse_scaley 1
// Each coordinate pushed back and forth along its own axis by a sine of
// itself: (x + scalex·sin(freqx·x), y + scaley·sin(freqy·y)), times the
// weight, which bunches points into bands parallel to the axes.
FJ_VARIATION(pulse) {
    ox += w * (in.x + p[2] * fj::sine(in.x * p[0]));
    oy += w * (in.y + p[3] * fj::sine(in.y * p[1]));
}
