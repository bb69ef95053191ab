// @variation vibration
// @id 1215
// @origin Fractorium 1.0
// @param vibration_dir 0
// @param vibration_angle 1.5707963267949
// @param vibration_freq 1
// @param vibration_amp 0.25
// @param vibration_phase 0
// @param vibration_dir2 1.5707963267949
// @param vibration_angle2 1.5707963267949
// @param vibration_freq2 1
// @param vibration_amp2 0.25
// @param vibration_phase2 0
// Two plane waves displace the point, times the weight: each travels along
// direction `dir` with `freq` waves per unit, and moves the point by
// amp·sin(2π·(freq·d + phase/freq)) (d the distance along dir) in the
// direction dir + angle (angle π/2 makes it transverse). Both waves read the
// input point. The angles wrap into [0, 2π] and the phases into [0, 1], as
// Fractorium stores them; a freq of 0 divides the phase through float
// epsilon, as in Fractorium.
FJ_HD FJ_INLINE void fj_vibration_wave(const fj::VarIn& in, const float* q, float& x, float& y) {
    const float dir = fj::wrap_cyclic(q[0], 0.0f, FJ_2PI);
    const float turn = dir + fj::wrap_cyclic(q[1], 0.0f, FJ_2PI);
    const float freq = q[2], phase = fj::wrap_cyclic(q[4], 0.0f, 1.0f);
    const float d = in.x * fj::cosine(dir) + in.y * fj::sine(dir);
    const float shift = q[3] * fj::sine(d * freq * FJ_2PI + FJ_2PI * phase / fj::zeps(freq));
    x += shift * fj::cosine(turn);
    y += shift * fj::sine(turn);
}

FJ_VARIATION(vibration) {
    float x = in.x, y = in.y;
    fj_vibration_wave(in, p, x, y);
    fj_vibration_wave(in, p + 5, x, y);
    ox += w * x;
    oy += w * y;
}
