// @variation rings2
// @id 26
// @origin flam3 3.1.1
// @param rings2_val 0
FJ_VARIATION(rings2) {
    const float dx = p[0] * p[0] + FJ_EPS;
    const float r = in.r - 2.0f * dx * (float)fj::int_like_x86((in.r + dx) / (2.0f * dx)) + in.r * (1.0f - dx);
    ox += w * in.sina * r;
    oy += w * in.cosa * r;
}
