// @variation stwin
// @id 1040
// @origin Fractorium 1.0
// @param stwin_distort 1
// linear plus a ripple added to both coordinates: with (u, v) the point
// times w/20, (u² − v²)·sin(2π·distort·(u + v))/(u² + v²).
FJ_VARIATION(stwin) {
    const float u = in.x * w * 0.05f, v = in.y * w * 0.05f;
    const float u2 = u * u, v2 = v * v, sum = u2 + v2;
    const float ripple = (u2 - v2) * fj::sine(FJ_2PI * p[0] * (u + v)) / (sum != 0.0f ? sum : 1.0f);
    ox += w * in.x + ripple;
    oy += w * in.y + ripple;
}
