// @variation waves2_radial
// @id 1099
// @origin Fractorium 1.0
// @param waves2_radial_freqx 7
// @param waves2_radial_scalex 0.1
// @param waves2_radial_freqy 13
// @param waves2_radial_scaley 0.1
// @param waves2_radial_null 2
// @param waves2_radial_distance 10
// waves2 faded in with distance from the origin: no waves inside radius
// null, full waves beyond radius distance, and between them a linear ramp
// (r − null)/(distance − null). Where null ≥ distance there is no ramp:
// nothing inside null, full waves outside (the divisor's guard never comes
// into play then).
FJ_VARIATION(waves2_radial) {
    float f = in.r < p[5] ? (in.r - p[4]) / fj::zeps(p[5] - p[4]) : 1.0f;
    if (in.r < p[4]) f = 0.0f;
    ox += w * (in.x + f * fj::sine(in.y * p[0]) * p[1]);
    oy += w * (in.y + f * fj::sine(in.x * p[2]) * p[3]);
}
