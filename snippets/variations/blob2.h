// @variation blob2
// @id 1083
// @origin Fractorium 1.0
// @param blob2_mode 0.5
// @param blob2_n 1
// @param blob2_radius 0
// @param blob2_prescale 1
// @param blob2_postscale 0.5
// @param blob2_symmetry 0
// @param blob2_compensation 0
// Linear within `radius` of the origin; beyond it each point's distance past
// the radius is scaled, along its ray, by a wave round the circle: δ =
// (sin(n·angle) + symmetry) / (1 + compensation·|symmetry|), then
// |δ|^prescale·postscale, times mode (or, with mode 0, by δ's sign).
// symmetry is kept in [-1, 1].
FJ_VARIATION(blob2) {
    if (in.r < p[2]) {
        ox += w * in.x;
        oy += w * in.y;
        return;
    }
    const float symmetry = fminf(fmaxf(p[5], -1.0f), 1.0f);
    float delta = (fj::sine(in.phi * p[1]) + symmetry) / (1.0f + p[6] * fabsf(symmetry));
    const float sign = delta < 0.0f ? -1.0f : 1.0f;
    delta = expf(p[3] * logf(delta * sign)) * p[4] * (p[0] != 0.0f ? p[0] : sign);
    const float s = w * (p[2] + (in.r - p[2]) * delta) / fj::zeps(in.r);
    ox += s * in.x;
    oy += s * in.y;
}
