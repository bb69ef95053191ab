// @variation q_ode
// @id 1241
// @origin Fractorium 1.0
// @param q_ode01 1
// @param q_ode02 -1
// @param q_ode03 0
// @param q_ode04 0
// @param q_ode05 0
// @param q_ode06 0
// @param q_ode07 1
// @param q_ode08 0
// @param q_ode09 0
// @param q_ode10 0
// @param q_ode11 0
// @param q_ode12 0
// A quadratic map of the point, as Fractorium writes it (the weight scales
// only the x term of x' and the y term of y'; the other terms are added
// whatever the weight):
//   x' = q01 + w·q02·x + q03·x² + q04·xy + q05·y + q06·y²
//   y' = q07 + q08·x + q09·x² + q10·xy + w·q11·y + q12·y²
FJ_VARIATION(q_ode) {
    const float x = in.x, y = in.y, xx = x * x, yy = y * y, xy = x * y;
    ox += (p[0] + w * p[1] * x + p[2] * xx) + (p[3] * xy + p[4] * y + p[5] * yy);
    oy += (p[6] + p[7] * x + p[8] * xx) + (p[9] * xy + w * p[10] * y + p[11] * yy);
}
