// @variation pressure_wave
// @id 1100
// @origin Fractorium 1.0
// @param pressure_wave_x_freq 1
// @param pressure_wave_y_freq 1
// Each coordinate bunched up and spread out along itself, like the air in a
// sound wave: x + sin(2π·x_freq·x)/(2π·x_freq), likewise y. A frequency of
// 0 gets Fractorium's guard on the divisor, so that coordinate is left as
// it is (the wave's limit would double it).
FJ_VARIATION(pressure_wave) {
    const float kx = p[0] * FJ_2PI, ky = p[1] * FJ_2PI;
    ox += w * (in.x + (1.0f / fj::zeps(kx)) * fj::sine(kx * in.x));
    oy += w * (in.y + (1.0f / fj::zeps(ky)) * fj::sine(ky * in.y));
}
