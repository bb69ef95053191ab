// @variation curve
// @id 60
// @origin flam3 3.1.1
// @param curve_xamp 0
// @param curve_yamp 0
// @param curve_xlength 1
// @param curve_ylength 1
FJ_VARIATION(curve) {
    const float xl = fmaxf(p[2] * p[2], 1e-20f), yl = fmaxf(p[3] * p[3], 1e-20f);
    ox += w * (in.x + p[0] * expf(-in.y * in.y / xl));
    oy += w * (in.y + p[1] * expf(-in.x * in.x / yl));
}
