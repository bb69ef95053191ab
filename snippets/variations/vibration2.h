// @variation vibration2
// @id 1235
// @origin Fractorium 1.0
// @param vibration2_dir 0
// @param vibration2_angle 1.5707963267949
// @param vibration2_freq 1
// @param vibration2_amp 0.25
// @param vibration2_phase 0
// @param vibration2_dir2 1.5707963267949
// @param vibration2_angle2 1.5707963267949
// @param vibration2_freq2 1
// @param vibration2_amp2 0.25
// @param vibration2_phase2 0
// @param vibration2_dm 0
// @param vibration2_dmfreq 0
// @param vibration2_tm 0
// @param vibration2_tmfreq 0
// @param vibration2_fm 0
// @param vibration2_fmfreq 0
// @param vibration2_am 0
// @param vibration2_amfreq 0
// @param vibration2_dm2 0
// @param vibration2_dmfreq2 0
// @param vibration2_tm2 0
// @param vibration2_tmfreq2 0
// @param vibration2_fm2 0
// @param vibration2_fmfreq2 0
// @param vibration2_am2 0
// @param vibration2_amfreq2 0
// vibration's two plane waves, each modulated along its own direction:
// with d₀ the distance along dir and M(a, f) = a·cos(2π·f·d₀), the wave
// travels along dir + M(dm, dmfreq) and moves the point by
// amp·(1 + M(am, amfreq))·sin(2π·freq·d + M(fm, fmfreq)/freq +
// 2π·phase/freq) (d the distance along that direction) in the direction
// dir + M(dm, dmfreq) + angle + M(tm, tmfreq). Both waves read the input
// point; the sum times the weight. With the modulations 0 it is vibration,
// except that the angles and phases here are not wrapped (Fractorium
// stores them as given). A freq of 0 divides through float epsilon, as in
// Fractorium.
FJ_HD FJ_INLINE void fj_vibration2_wave(const fj::VarIn& in, const float* q, const float* m, float& x, float& y) {
    const float freq = fj::zeps(q[2]);
    const float d0 = in.x * fj::cosine(q[0]) + in.y * fj::sine(q[0]);
    const float dir = q[0] + m[0] * fj::cosine(d0 * m[1] * FJ_2PI);
    const float turn = dir + q[1] + m[2] * fj::cosine(d0 * m[3] * FJ_2PI);
    const float shift = m[4] * fj::cosine(d0 * m[5] * FJ_2PI) / freq;
    const float amp = q[3] + q[3] * (m[6] * fj::cosine(d0 * m[7] * FJ_2PI));
    const float d = in.x * fj::cosine(dir) + in.y * fj::sine(dir);
    const float s = amp * fj::sine(d * (q[2] * FJ_2PI) + shift + FJ_2PI * q[4] / freq);
    x += s * fj::cosine(turn);
    y += s * fj::sine(turn);
}

FJ_VARIATION(vibration2) {
    float x = in.x, y = in.y;
    fj_vibration2_wave(in, p, p + 10, x, y);
    fj_vibration2_wave(in, p + 5, p + 18, x, y);
    ox += w * x;
    oy += w * y;
}
