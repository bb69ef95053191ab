// @variation oscilloscope
// @id 69
// @origin flam3 3.1.1
// @param oscilloscope_separation 1
// @param oscilloscope_frequency 3.14159265358979
// @param oscilloscope_amplitude 1
// @param oscilloscope_damping 0
// @alias oscope_separation oscilloscope_separation
// @alias oscope_frequency oscilloscope_frequency
// @alias oscope_amplitude oscilloscope_amplitude
// @alias oscope_damping oscilloscope_damping
FJ_VARIATION(oscilloscope) {
    const float sep = p[0], freq = p[1], amp = p[2], damp = p[3];
    const float c = fj::cosine(FJ_2PI * freq * in.x);
    const float t = (damp == 0.0f ? amp : amp * expf(-fabsf(in.x) * damp)) * c + sep;
    ox += w * in.x;
    oy += fabsf(in.y) <= t ? -w * in.y : w * in.y;
}
