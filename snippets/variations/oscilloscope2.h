// @variation oscilloscope2
// @id 1214
// @origin Fractorium 1.0
// @param oscilloscope2_separation 1
// @param oscilloscope2_frequencyx 3.14159265358979
// @param oscilloscope2_frequencyy 3.14159265358979
// @param oscilloscope2_amplitude 1
// @param oscilloscope2_perturbation 1
// @param oscilloscope2_damping 0
// oscilloscope with a wobbling trace, and both coordinates flipped: the
// band |y| ≤ t(x, y) = separation + amplitude·e^(−damping·|x|)·
// cos(2π·frequencyx·x + perturbation·sin(2π·frequencyy·y)) is turned by half
// a turn (times −w), the rest only weighted. A damping of 0 leaves out the
// exponential, as in Fractorium. separation is kept at least 0, as
// Fractorium bounds it.
FJ_VARIATION(oscilloscope2) {
    const float sep = fmaxf(p[0], 0.0f), amp = p[3], damp = p[5];
    const float wobble = p[4] * fj::sine(FJ_2PI * p[2] * in.y);
    const float wave = fj::cosine(FJ_2PI * p[1] * in.x + wobble);
    const float t = (damp == 0.0f ? amp : amp * expf(-fabsf(in.x) * damp)) * wave + sep;
    const float s = fabsf(in.y) <= t ? -w : w;
    ox += s * in.x;
    oy += s * in.y;
}
