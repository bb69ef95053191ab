// @variation rational3
// @id 1074
// @origin Fractorium 1.0
// @param rational3_t3 1
// @param rational3_t2 0
// @param rational3_t1 0
// @param rational3_tc 1
// @param rational3_b3 0
// @param rational3_b2 1
// @param rational3_b1 0
// @param rational3_bc 1
// A rational function of z with real coefficients: w·T(z)/B(z), T = t3·z³ +
// t2·z² + t1·z + tc and B likewise.
FJ_VARIATION(rational3) {
    const float x = in.x, y = in.y;
    const float x2 = x * x, y2 = y * y;
    // z² and z³ as (real, imaginary).
    const float z2r = x2 - y2, z2i = 2.0f * x * y;
    const float z3r = x * x2 - 3.0f * x * y2, z3i = 3.0f * x2 * y - y * y2;
    const float tr = p[0] * z3r + p[1] * z2r + p[2] * x + p[3];
    const float ti = p[0] * z3i + p[1] * z2i + p[2] * y;
    const float br = p[4] * z3r + p[5] * z2r + p[6] * x + p[7];
    const float bi = p[4] * z3i + p[5] * z2i + p[6] * y;
    const float s = w / fj::zeps(br * br + bi * bi);
    ox += s * (tr * br + ti * bi);
    oy += s * (ti * br - tr * bi);
}
