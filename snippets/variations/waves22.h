// @variation waves22
// @id 1096
// @origin Fractorium 1.0
// @param waves22_scalex 0.05
// @param waves22_scaley 0.05
// @param waves22_freqx 7
// @param waves22_freqy 13
// @param waves22_modex 0
// @param waves22_modey 0
// @param waves22_powerx 2
// @param waves22_powery 2
// waves2 with its sines raised to a whole power: x moves by
// scalex·s^n, s = sin(freqx·y), or with modex 1 the sine lifted into
// [0, 1], s = (1 + sin(freqx·y))/2; n is powerx truncated towards zero as
// C's (int) cast does on x86 (beyond int's range it is INT_MIN). Likewise y
// with freqy, modey, powery and x. The modes are whole numbers in [0, 1],
// rounded: 1 from 0.5 up. A negative power at a zero sine gives infinity, as
// in Fractorium.
FJ_VARIATION(waves22) {
    float sx = fj::sine(in.y * p[2]), sy = fj::sine(in.x * p[3]);
    if (p[4] >= 0.5f) sx = 0.5f * (1.0f + sx);
    if (p[5] >= 0.5f) sy = 0.5f * (1.0f + sy);
    const float nx = (float)fj::int_like_x86(p[6]), ny = (float)fj::int_like_x86(p[7]);
    ox += w * (in.x + fj::power(sx, nx) * p[0]);
    oy += w * (in.y + fj::power(sy, ny) * p[1]);
}
